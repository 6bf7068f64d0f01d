import type { EventStatus } from '#app/platform/db/schema.ts'
import type { EventFields } from './types.ts'

/*
 * schema.org MusicEvent for an event page, with what Google's event rich results require (name,
 * startDate, location with a PostalAddress) and recommend (description, endDate, eventStatus,
 * previousStartDate, eventAttendanceMode, image, offers, performer, organizer).
 * https://developers.google.com/search/docs/appearance/structured-data/event
 */

export interface JsonLdEventInput extends EventFields<string> {
	/** Plain text. */
	description: string
	/** Absolute URLs, largest first. */
	images: string[]
	/** The page's canonical, absolute URL. */
	url: string
	/** When the event was published (offers.validFrom), ISO. */
	publishedAt?: string | null
}

export interface JsonLdContext {
	band: { name: string; url: string; logo?: string | null }
}

type JsonLd = Record<string, unknown>

/**
 * The lowest amount in a free-text price (« 12,50 € », « 15 € / 12 € réduit », « Gratuit »), in
 * euros; null when the text says no amount.
 */
export function lowestPrice(text: string | null | undefined): number | null {
	if (!text) return null
	if (/\b(gratuit|libre|free|entrée libre)\b/i.test(text)) return 0
	const amounts = [...text.replace(/[\u00a0\u202f\s](?=\d{3}\b)/g, '').matchAll(/(\d+(?:[.,]\d{1,2})?)/g)]
		.map((m) => Number(m[1]!.replace(',', '.')))
		.filter((n) => Number.isFinite(n))
	if (amounts.length === 0) return null
	return Math.min(...amounts)
}

const STATUS: Record<EventStatus, string> = {
	scheduled: 'https://schema.org/EventScheduled',
	sold_out: 'https://schema.org/EventScheduled',
	postponed: 'https://schema.org/EventRescheduled',
	cancelled: 'https://schema.org/EventCancelled',
}

/** The schema.org eventStatus: a postponed show with its new date is « rescheduled »; without one, « postponed ». */
export function eventStatusOf(input: Pick<JsonLdEventInput, 'status' | 'previousStartsAt' | 'startsAt'>): string {
	if (input.status === 'postponed' && !(input.previousStartsAt && input.previousStartsAt !== input.startsAt)) {
		return 'https://schema.org/EventPostponed'
	}
	return STATUS[input.status]
}

export function musicEventJsonLd(input: JsonLdEventInput, context: JsonLdContext): JsonLd {
	const address: JsonLd = {
		'@type': 'PostalAddress',
		...(input.address ? { streetAddress: input.address } : {}),
		addressLocality: input.city,
		...(input.postalCode ? { postalCode: input.postalCode } : {}),
		addressCountry: input.country,
	}
	const location: JsonLd = {
		'@type': 'Place',
		name: input.venueName,
		address,
		...(input.latitude !== null && input.longitude !== null
			? { geo: { '@type': 'GeoCoordinates', latitude: input.latitude, longitude: input.longitude } }
			: {}),
	}
	const band: JsonLd = { '@type': 'MusicGroup', name: context.band.name, url: context.band.url }
	const price = lowestPrice(input.priceText)
	// A cancelled show has nothing on sale any more.
	const offers: JsonLd | null =
		input.status !== 'cancelled' && (input.ticketUrl || price !== null)
			? {
					'@type': 'Offer',
					...(input.ticketUrl ? { url: input.ticketUrl } : { url: input.url }),
					...(price !== null ? { price: price.toFixed(2), priceCurrency: 'EUR' } : {}),
					availability: input.status === 'sold_out' ? 'https://schema.org/SoldOut' : 'https://schema.org/InStock',
					...(input.publishedAt ? { validFrom: input.publishedAt } : {}),
				}
			: null
	const endDate = input.endsAt ?? null
	return {
		'@context': 'https://schema.org',
		'@type': 'MusicEvent',
		name: input.title,
		url: input.url,
		startDate: input.startsAt,
		...(endDate ? { endDate } : {}),
		...(input.doorsAt ? { doorTime: input.doorsAt } : {}),
		eventStatus: eventStatusOf(input),
		...(input.status === 'postponed' && input.previousStartsAt ? { previousStartDate: input.previousStartsAt } : {}),
		eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
		location,
		...(input.description ? { description: input.description } : {}),
		...(input.images.length ? { image: input.images } : {}),
		...(offers ? { offers } : {}),
		performer: band,
		organizer: { ...band, ...(context.band.logo ? { logo: context.band.logo } : {}) },
		inLanguage: 'fr-FR',
	}
}
