import type { EventStatus } from '#app/platform/db/event-status.ts'
import type { event } from '#app/platform/db/schema.ts'
import type { PublicImage } from '#app/features/media/public-image.ts'

/*
 * The shapes of an event as pages receive them: one home, read by the server code that builds
 * them (events.server.ts) and by the components that show them.
 */

/** The columns of the event table that make an event what it is (not its bookkeeping). */
type EventColumns = Pick<
	typeof event.$inferSelect,
	| 'title'
	| 'status'
	| 'startsAt'
	| 'endsAt'
	| 'doorsAt'
	| 'previousStartsAt'
	| 'venueName'
	| 'address'
	| 'postalCode'
	| 'city'
	| 'country'
	| 'latitude'
	| 'longitude'
	| 'ticketUrl'
	| 'priceText'
>

/**
 * An event's own values, derived from its table: the one declaration of its shape. The editor's
 * values (forms.ts), a calendar entry's source (calendar.server.ts) and the structured data of its
 * page (json-ld.ts) are this plus what each adds. `Instant` is a Date on the server, an ISO string
 * in a page's data.
 */
export type EventFields<Instant = Date> = {
	[K in keyof EventColumns]: EventColumns[K] extends Date ? Instant : EventColumns[K] extends Date | null ? Instant | null : EventColumns[K]
}

/** A moment written out in French, Paris time, in every piece a page needs. */
export interface DateLabel {
	/** ISO 8601, UTC: for <time dateTime>, JSON-LD and calendars. */
	iso: string
	/** « samedi » */
	weekday: string
	/** « sam. » */
	weekdayShort: string
	/** « 14 » */
	day: string
	/** « mars » */
	month: string
	/** « mars », « avr. », « juil. » */
	monthShort: string
	/** « 2026 » */
	year: string
	/** « samedi 14 mars 2026 », « lundi 1er juin 2026 » */
	date: string
	/** « 14 mars 2026 » */
	dayMonthYear: string
	/** « 20 h 30 », « 21 h » */
	time: string
	/** « samedi 14 mars 2026 à 20 h 30 » */
	dateTime: string
	/** The calendar day in Paris, « 2026-03-14 », to compare days. */
	parisDay: string
}

export interface EventSummary {
	id: string
	title: string
	status: EventStatus
	start: DateLabel
	venueName: string
	city: string
	countryName: string | null
	/** Only an http(s) address. */
	ticketUrl: string | null
	priceText: string | null
	isPast: boolean
	/** From the town a list is sorted for (features/events/near.server.ts), in whole kilometres. */
	distanceKm?: number | null
}

/** Everything the event page shows, already safe to render. */
export interface EventDetail {
	id: string
	title: string
	status: EventStatus
	published: boolean
	start: DateLabel
	end: DateLabel | null
	doors: DateLabel | null
	/** For a postponed show: the date first announced. */
	previousStart: DateLabel | null
	venueName: string
	address: string | null
	postalCode: string | null
	city: string
	country: string
	countryName: string | null
	latitude: number | null
	longitude: number | null
	/** A plain link to OpenStreetMap: the coordinates if known, else a search for the address. */
	mapUrl: string
	/** Only an http(s) address. */
	ticketUrl: string | null
	priceText: string | null
	/** Rendered by the safe Markdown renderer (raw HTML escaped). */
	descriptionHtml: string
	/** The description as plain text, paragraphs on their own lines. */
	descriptionText: string
	cover: PublicImage | null
	createdAt: string
	updatedAt: string
	/** Changes whenever what the page shows changes (the event or its cover image). */
	version: string
	/** The newest of the event's and its cover's modification times. */
	lastModified: string
}
