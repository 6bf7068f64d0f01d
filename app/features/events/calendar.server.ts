import { getBand } from '#app/features/site/band.server.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import { getEnv } from '#app/platform/env.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import {
	countryName,
	dateLabel,
	endOf,
	markdownToText,
	safeHttpUrl,
	upcomingEvents,
	type EventDetail,
	type EventRow,
} from './events.server.ts'
import { buildCalendar, type IcsEvent } from './ics.ts'
import type { EventFields } from './types.ts'

/* The site's events as iCalendar: one show (« Ajouter à mon agenda ») or every upcoming one (/events.ics). */

/** The part of an event a calendar entry needs, from a row or from a page's data. */
interface CalendarSource extends EventFields {
	id: string
	descriptionText: string
	createdAt: Date
	updatedAt: Date
}

function siteHost(): string {
	return new URL(getEnv().SITE_URL).host
}

export function eventPageUrl(id: string): string {
	return `${getEnv().SITE_URL}/events/${encodeURIComponent(id)}`
}

function toIcsEvent(source: CalendarSource): IcsEvent {
	const t = getT()
	const location = [
		source.venueName,
		source.address,
		[source.postalCode, source.city].filter(Boolean).join(' '),
		countryName(source.country),
	]
		.filter((part): part is string => Boolean(part && part.trim()))
		.join(', ')
	const ticketUrl = safeHttpUrl(source.ticketUrl)
	const cancelled = source.status === 'cancelled'
	const details = [
		cancelled ? t('events.calendar.cancelled') : null,
		source.status === 'postponed' && source.previousStartsAt
			? t('events.page.previously', { date: dateLabel(source.previousStartsAt).date })
			: null,
		source.doorsAt ? t('events.page.doors', { time: dateLabel(source.doorsAt).time }) : null,
		source.priceText ? t('events.calendar.price', { price: source.priceText }) : null,
		ticketUrl && !cancelled ? t('events.calendar.tickets', { url: ticketUrl }) : null,
	].filter(Boolean)
	const description = [details.join('\n'), source.descriptionText].filter(Boolean).join('\n\n')
	return {
		uid: `${source.id}@${siteHost()}`,
		start: source.startsAt,
		end: endOf(source),
		createdAt: source.createdAt,
		updatedAt: source.updatedAt,
		summary: cancelled ? t('events.calendar.cancelledSummary', { title: source.title }) : source.title,
		location,
		description,
		url: eventPageUrl(source.id),
		cancelled,
		geo: source.latitude !== null && source.longitude !== null ? { latitude: source.latitude, longitude: source.longitude } : null,
	}
}

function productId(): string {
	return `-//${getBand().name.replace(/[/\r\n]/g, ' ')}//Site du groupe//FR`
}

/** « Ajouter à mon agenda »: the one show, as a file to open. */
export function eventCalendar(detail: EventDetail): string {
	return buildCalendar({
		productId: productId(),
		events: [
			toIcsEvent({
				...detail,
				startsAt: new Date(detail.start.iso),
				endsAt: detail.end ? new Date(detail.end.iso) : null,
				doorsAt: detail.doors ? new Date(detail.doors.iso) : null,
				previousStartsAt: detail.previousStart ? new Date(detail.previousStart.iso) : null,
				createdAt: new Date(detail.createdAt),
				updatedAt: new Date(detail.updatedAt),
			}),
		],
	})
}

function rowSource(row: EventRow): CalendarSource {
	return { ...row, descriptionText: markdownToText(row.description) }
}

/** /events.ics: every published show not over yet, cancelled ones included (so that agendas learn of it). */
export async function upcomingCalendar(db: Db, now: Date = new Date()): Promise<{ body: string; lastModified: Date | null }> {
	const rows = await upcomingEvents(db, { now })
	const t = getT()
	const band = getBand().name
	const lastModified = rows.reduce<Date | null>((latest, row) => (!latest || row.updatedAt > latest ? row.updatedAt : latest), null)
	const body = buildCalendar({
		productId: productId(),
		name: t('events.calendar.name', { band }),
		description: t('events.calendar.description', { band }),
		refreshHours: 6,
		events: rows.map((row) => toIcsEvent(rowSource(row))),
	})
	return { body, lastModified }
}
