import type { Db } from '#app/platform/db/client.server.ts'
import type { CampaignAudience } from '#app/platform/db/schema.ts'
import type { Env } from '#app/platform/env.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { loadEventDetail } from '#app/features/events/events.server.ts'
import { DEFAULT_RADIUS_KM, MAX_RADIUS_KM, MIN_RADIUS_KM } from '#app/features/towns/rules.ts'
import { countAudience, radiusAudience, venueOf } from './audience.server.ts'

/*
 * « Annoncer aux fans proches »: a campaign written from an event (its title, date and time in the
 * site's time zone, venue, ticket link, cover image, page and calendar file), and its audience, the
 * subscribers within reach of the venue, counted as the admin moves the radius.
 */

/** The Markdown escapes a title or a venue's name needs to stay plain text. */
const plain = (text: string) => text.replace(/([\\`*_{}[\]()#+!|<>])/g, '\\$1')

/**
 * What the compose screen starts from: a stored campaign's text; for a new one opened from an event
 * (« Annoncer aux fans proches », `?event=`), the announcement written from it, with that event's id.
 */
export async function composeStart(
	db: Db,
	env: Env,
	campaign: { subject: string; preheader: string; body: string } | null,
	eventId: string | null,
) {
	if (campaign) return { draft: { subject: campaign.subject, preheader: campaign.preheader, body: campaign.body }, announced: null }
	const announcement = eventId ? await announcementDraft(db, env, eventId) : null
	return { draft: announcement ?? { subject: '', preheader: '', body: '' }, announced: announcement ? eventId : null }
}

/** A new campaign's subject and body, from the event; null for an unknown one. */
export async function announcementDraft(db: Db, env: Env, eventId: string) {
	const detail = await loadEventDetail(db, eventId, { includeDrafts: true })
	if (!detail) return null
	const t = getT()
	const page = `${env.SITE_URL}/events/${detail.id}`
	const place = [detail.venueName, detail.city].filter(Boolean).join(', ')
	const image = detail.cover?.variants.filter((v) => v.format === 'jpeg').sort((a, b) => b.width - a.width)[0]
	const lines = [
		`## ${plain(detail.title)}`,
		`**${detail.start.dateTime}** · ${plain(place)}`,
		image ? `![${plain(detail.cover!.alt || detail.title)}](${env.SITE_URL}${image.url})` : null,
		detail.ticketUrl ? `[${t('newsletter.announce.tickets')}](${detail.ticketUrl})` : null,
		`[${t('newsletter.announce.page')}](${page}) · [${t('newsletter.announce.calendar')}](${page}/agenda.ics)`,
	]
	return {
		subject: t('newsletter.announce.subject', { title: detail.title, city: detail.city }),
		preheader: t('newsletter.announce.preheader', { date: detail.start.dateTime, place }),
		body: lines.filter((line) => line !== null).join('\n\n'),
	}
}

export interface AudienceView {
	eventId: string
	eventTitle: string
	venue: string
	/** False: the venue has no coordinates, the announcement goes to every subscriber. */
	placed: boolean
	radiusKm: number
	includeNoTown: boolean
	count: number
	limits: { min: number; max: number }
}

/** What the compose screen shows of a campaign's audience: stored, or a new one for `eventId`. */
export async function audienceView(
	db: Db,
	options: { stored: CampaignAudience | null; eventId: string | null },
): Promise<AudienceView | null> {
	const eventId = options.stored?.eventId ?? options.eventId
	if (!eventId) return null
	const venue = await venueOf(db, eventId)
	const limits = { min: MIN_RADIUS_KM, max: MAX_RADIUS_KM }
	if (options.stored) {
		const { stored } = options
		return {
			eventId,
			eventTitle: venue?.title ?? stored.venue,
			venue: stored.venue,
			placed: true,
			radiusKm: stored.radiusKm,
			includeNoTown: stored.includeNoTown,
			count: await countAudience(db, stored),
			limits,
		}
	}
	if (!venue) return null
	const placed = venue.latitude !== null && venue.longitude !== null
	const audience = defaultAudience(venue)
	return {
		eventId,
		eventTitle: venue.title,
		venue: `${venue.venueName}, ${venue.city}`,
		placed,
		radiusKm: DEFAULT_RADIUS_KM,
		includeNoTown: false,
		count: await countAudience(db, audience),
		limits,
	}
}

/** The audience « Annoncer aux fans proches » starts from: the default radius, or everyone for an unplaced venue. */
export function defaultAudience(venue: Awaited<ReturnType<typeof venueOf>>): CampaignAudience | null {
	if (!venue || venue.latitude === null || venue.longitude === null) return null
	const at = { latitude: venue.latitude, longitude: venue.longitude }
	return { ...radiusAudience(venue, at, DEFAULT_RADIUS_KM, false), countAtSave: 0 }
}
