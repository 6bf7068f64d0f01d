import type { DateLabel, EventDetail, EventSummary } from './types.ts'
import { and, asc, count, desc, eq, sql } from 'drizzle-orm'
import { publicImage } from '#app/features/media/media.server.ts'
import type { PublicImage } from '#app/features/media/public-image.ts'
import { markdownToText, renderMarkdown } from '#app/features/site/markdown.server.ts'

export { markdownToText }
import type { Db } from '#app/platform/db/client.server.ts'
import { event, media } from '#app/platform/db/schema.ts'
import { formatDate, formatDay, parisDate } from '#app/platform/time-zone.ts'
import { getT } from '#app/platform/i18n.server.ts'

/*
 * Events as the public site reads them: published only (drafts for an admin's preview), upcoming
 * then past, with every date already written out in French, in Paris time. Nothing here trusts the
 * database: a ticket address that is not http(s) is dropped, the description goes through the
 * safe Markdown renderer.
 */

export type EventRow = typeof event.$inferSelect

/** A show without an end time is taken to last this long (calendar entries, « past » or not). */
export const DEFAULT_DURATION_MS = 2 * 60 * 60 * 1000

/** How many events a page of /events lists. */
export const EVENTS_PER_PAGE = 12

/** An id as the admin editor creates them; anything else is not worth a query. */
export function isEventId(value: string | undefined): value is string {
	return typeof value === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(value)
}

/** The address, only if it is a plain web link (never javascript:, data:, or anything relative). */
export function safeHttpUrl(value: string | null | undefined): string | null {
	if (!value) return null
	try {
		const url = new URL(value.trim())
		if (url.protocol !== 'http:' && url.protocol !== 'https:') return null
		if (!url.hostname) return null
		return url.href
	} catch {
		return null
	}
}

/** When a show is over: its end, or its start plus the default duration. */
export function endOf(row: { startsAt: Date | string; endsAt: Date | string | null }): Date {
	if (row.endsAt) return new Date(row.endsAt)
	return new Date(new Date(row.startsAt).getTime() + DEFAULT_DURATION_MS)
}

export function isPastEvent(row: { startsAt: Date | string; endsAt: Date | string | null }, now: Date = new Date()): boolean {
	return endOf(row).getTime() < now.getTime()
}

// ---------------------------------------------------------------------------------------------
// French dates, in Paris time

const regionNames = new Intl.DisplayNames(['fr-FR'], { type: 'region' })

export function dateLabel(value: Date | string): DateLabel {
	const instant = new Date(value)
	const d = parisDate(instant)
	const date = formatDate(instant)
	return {
		iso: instant.toISOString(),
		weekday: d.weekday,
		weekdayShort: d.weekdayShort,
		day: d.day,
		month: d.month,
		monthShort: d.monthShort,
		year: d.year,
		date,
		dayMonthYear: formatDay(instant),
		time: d.time,
		dateTime: getT()('common.dateAtTime', { date, time: d.time }),
		parisDay: d.parisDay,
	}
}

/** « Belgique » for BE; null for France (the site's own country goes without saying). */
export function countryName(code: string | null | undefined): string | null {
	const upper = (code ?? '').trim().toUpperCase()
	if (!/^[A-Z]{2}$/.test(upper) || upper === 'FR') return null
	try {
		return regionNames.of(upper) ?? upper
	} catch {
		return upper
	}
}

// ---------------------------------------------------------------------------------------------
// Plain text out of Markdown (share previews, calendars)

/** The level a description's highest heading takes on the event page and in the editor's preview. */
export const DESCRIPTION_TOP_HEADING = 3

/** At most `max` characters, cut at a word, with an ellipsis when cut. */
export function excerpt(text: string, max = 160): string {
	// Paragraphs and list items run on as sentences: « Première partie : X. Stand de disques. »
	const flat = text
		.split('\n')
		.map((line) => line.replace(/\s+/g, ' ').trim())
		.filter(Boolean)
		.map((line, i, lines) => (i < lines.length - 1 && !/[.!?…:;,]$/u.test(line) ? `${line}.` : line))
		.join(' ')
	if (flat.length <= max) return flat
	const cut = flat.slice(0, max - 1)
	const space = cut.lastIndexOf(' ')
	return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:.!?…—–-]+$/u, '')}…`
}

// ---------------------------------------------------------------------------------------------
// Views

function clean(value: string | null | undefined): string | null {
	const trimmed = value?.trim()
	return trimmed ? trimmed : null
}

export function toEventSummary(row: EventRow, now: Date = new Date()): EventSummary {
	return {
		id: row.id,
		title: row.title,
		status: row.status,
		start: dateLabel(row.startsAt),
		venueName: row.venueName,
		city: row.city,
		countryName: countryName(row.country),
		ticketUrl: safeHttpUrl(row.ticketUrl),
		priceText: clean(row.priceText),
		isPast: isPastEvent(row, now),
	}
}

export function mapUrl(row: {
	latitude: number | null
	longitude: number | null
	venueName: string
	address: string | null
	postalCode: string | null
	city: string
	country: string
}): string {
	const { latitude: lat, longitude: lon } = row
	if (lat !== null && lon !== null && Number.isFinite(lat) && Number.isFinite(lon) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180) {
		const la = lat.toFixed(6).replace(/\.?0+$/, '')
		const lo = lon.toFixed(6).replace(/\.?0+$/, '')
		return `https://www.openstreetmap.org/?mlat=${la}&mlon=${lo}#map=17/${la}/${lo}`
	}
	const query = [
		row.address ? row.venueName : null,
		row.address,
		[row.postalCode, row.city].filter(Boolean).join(' '),
		countryName(row.country),
	]
		.map((part) => clean(part))
		.filter(Boolean)
		.join(', ')
	return `https://www.openstreetmap.org/search?query=${encodeURIComponent(query || row.venueName)}`
}

/** What identifies the state of a page: the event's and its cover's versions. */
export function versionOf(row: { updatedAt: Date; published: boolean; coverId: string | null }, coverUpdatedAt: Date | null): string {
	return [row.updatedAt.getTime(), row.published ? 1 : 0, row.coverId ?? '-', coverUpdatedAt?.getTime() ?? 0].join('.')
}

export function toEventDetail(row: EventRow, cover: PublicImage | null, coverUpdatedAt: Date | null): EventDetail {
	const descriptionText = markdownToText(row.description)
	const lastModified = coverUpdatedAt && coverUpdatedAt > row.updatedAt ? coverUpdatedAt : row.updatedAt
	return {
		id: row.id,
		title: row.title,
		status: row.status,
		published: row.published,
		start: dateLabel(row.startsAt),
		end: row.endsAt && row.endsAt > row.startsAt ? dateLabel(row.endsAt) : null,
		doors: row.doorsAt ? dateLabel(row.doorsAt) : null,
		previousStart: row.status === 'postponed' && row.previousStartsAt ? dateLabel(row.previousStartsAt) : null,
		venueName: row.venueName,
		address: clean(row.address),
		postalCode: clean(row.postalCode),
		city: row.city,
		country: (row.country || 'FR').toUpperCase(),
		countryName: countryName(row.country),
		latitude: row.latitude,
		longitude: row.longitude,
		mapUrl: mapUrl(row),
		ticketUrl: safeHttpUrl(row.ticketUrl),
		priceText: clean(row.priceText),
		// Under the page's « À propos » (an h2): the description's own headings start at h3.
		descriptionHtml: row.description.trim() ? renderMarkdown(row.description, { topHeading: DESCRIPTION_TOP_HEADING }) : '',
		descriptionText,
		cover,
		createdAt: row.createdAt.toISOString(),
		updatedAt: row.updatedAt.toISOString(),
		version: versionOf(row, coverUpdatedAt),
		lastModified: lastModified.toISOString(),
	}
}

// ---------------------------------------------------------------------------------------------
// Queries

/** The moment a show is over, in SQL (the same rule as `endOf`). */
const endsAtOrDefault = sql`coalesce(${event.endsAt}, ${event.startsAt} + (${DEFAULT_DURATION_MS} * interval '1 millisecond'))`

const upcomingWhere = (now: Date) => and(eq(event.published, true), sql`${endsAtOrDefault} >= ${now.toISOString()}::timestamptz`)
const pastWhere = (now: Date) => and(eq(event.published, true), sql`${endsAtOrDefault} < ${now.toISOString()}::timestamptz`)

/** Published shows not over yet, soonest first. */
export async function upcomingEvents(db: Db, options: { now?: Date; limit?: number; offset?: number } = {}): Promise<EventRow[]> {
	const now = options.now ?? new Date()
	return db
		.select()
		.from(event)
		.where(upcomingWhere(now))
		.orderBy(asc(event.startsAt), asc(event.id))
		.limit(options.limit ?? 1000)
		.offset(options.offset ?? 0)
}

/** Published shows that are over, most recent first. */
export async function pastEvents(db: Db, options: { now?: Date; limit?: number; offset?: number } = {}): Promise<EventRow[]> {
	const now = options.now ?? new Date()
	return db
		.select()
		.from(event)
		.where(pastWhere(now))
		.orderBy(desc(event.startsAt), desc(event.id))
		.limit(options.limit ?? 1000)
		.offset(options.offset ?? 0)
}

export async function countEvents(db: Db, now: Date = new Date()): Promise<{ upcoming: number; past: number }> {
	const [row] = await db
		.select({
			upcoming: sql<number>`count(*) filter (where ${endsAtOrDefault} >= ${now.toISOString()}::timestamptz)`.mapWith(Number),
			total: count(),
		})
		.from(event)
		.where(eq(event.published, true))
	const upcoming = row?.upcoming ?? 0
	return { upcoming, past: (row?.total ?? 0) - upcoming }
}

export interface EventsPage {
	page: number
	pageCount: number
	perPage: number
	totals: { upcoming: number; past: number }
	upcoming: EventSummary[]
	past: EventSummary[]
}

/**
 * One page of /events: the upcoming shows (soonest first) then the past ones (latest first), as
 * one list cut into pages. `page` is clamped by the caller (see `pageCount`).
 */
export async function eventsPage(db: Db, page: number, options: { now?: Date; perPage?: number } = {}): Promise<EventsPage> {
	const now = options.now ?? new Date()
	const perPage = options.perPage ?? EVENTS_PER_PAGE
	const totals = await countEvents(db, now)
	const pageCount = Math.max(1, Math.ceil((totals.upcoming + totals.past) / perPage))
	const start = (page - 1) * perPage
	const upcomingRows =
		start < totals.upcoming ? await upcomingEvents(db, { now, offset: start, limit: Math.min(perPage, totals.upcoming - start) }) : []
	const room = perPage - upcomingRows.length
	const pastOffset = Math.max(0, start - totals.upcoming)
	const pastRows = room > 0 && pastOffset < totals.past ? await pastEvents(db, { now, offset: pastOffset, limit: room }) : []
	return {
		page,
		pageCount,
		perPage,
		totals,
		upcoming: upcomingRows.map((row) => toEventSummary(row, now)),
		past: pastRows.map((row) => toEventSummary(row, now)),
	}
}

/** The landing's list: the next shows, and whether any past one exists (for the empty state). */
export async function nextEvents(db: Db, limit: number, now: Date = new Date()): Promise<{ events: EventSummary[]; hasPast: boolean }> {
	const [rows, [past]] = await Promise.all([
		upcomingEvents(db, { now, limit }),
		db.select({ id: event.id }).from(event).where(pastWhere(now)).limit(1),
	])
	return { events: rows.map((row) => toEventSummary(row, now)), hasPast: Boolean(past) }
}

/**
 * The version of a published event's page, in one indexed lookup (the event joined with its
 * cover): what the page cache compares before it trusts what it holds. Null: no such public event.
 */
export async function publishedEventVersion(db: Db, id: string): Promise<string | null> {
	if (!isEventId(id)) return null
	const [row] = await db
		.select({ updatedAt: event.updatedAt, published: event.published, coverId: event.coverId, coverUpdatedAt: media.updatedAt })
		.from(event)
		.leftJoin(media, eq(media.id, event.coverId))
		.where(eq(event.id, id))
	if (!row || !row.published) return null
	return versionOf(row, row.coverUpdatedAt)
}

/** An event's page; drafts only when asked (an admin's preview). */
export async function loadEventDetail(db: Db, id: string, options: { includeDrafts?: boolean } = {}): Promise<EventDetail | null> {
	if (!isEventId(id)) return null
	const [found] = await db
		.select({ row: event, coverUpdatedAt: media.updatedAt })
		.from(event)
		.leftJoin(media, eq(media.id, event.coverId))
		.where(eq(event.id, id))
	if (!found) return null
	if (!found.row.published && !options.includeDrafts) return null
	const cover = await publicImage(db, found.row.coverId)
	return toEventDetail(found.row, cover, found.coverUpdatedAt)
}

/** Every published event, for the sitemap: its address and when it last changed. */
export async function publishedEventsForSitemap(db: Db): Promise<{ id: string; updatedAt: Date }[]> {
	return db
		.select({ id: event.id, updatedAt: event.updatedAt })
		.from(event)
		.where(eq(event.published, true))
		.orderBy(desc(event.startsAt))
		.limit(45_000)
}

export type { DateLabel, EventDetail, EventSummary }
