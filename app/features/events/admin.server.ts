import { and, asc, desc, eq, isNull, or, sql, type AnyColumn, type SQL } from 'drizzle-orm'
import { newShortId } from '#app/platform/random-token.server.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import { event, media, type EventStatus } from '#app/platform/db/schema.ts'
import { publicContentChanged } from '#app/platform/public-content.server.ts'
import { DEFAULT_DURATION_MS, isEventId } from './events.server.ts'
import type { EventValues } from './forms.ts'
import { EVENT_SEARCH_MAX, type EventTab } from './list/list-url.ts'

/*
 * What the admin screens read and write about events. Every write records who made it and tells
 * every cache of public pages (on every instance) that public content changed. Callers check the admin role first.
 */

/** Rows on one page of the list. */
export const EVENT_PAGE_SIZE = 50

/** 12 URL-safe random characters (72 bits): unguessable, short enough for a shared link. */
export function newEventId(): string {
	return newShortId()
}

const ACCENTED = 'àâäáãåçéèêëíìîïñóòôöõúùûüýÿÀÂÄÁÃÅÇÉÈÊËÍÌÎÏÑÓÒÔÖÕÚÙÛÜÝŸ'
const PLAIN = 'aaaaaaceeeeiiiinooooouuuuyyaaaaaaceeeeiiiinooooouuuuyy'

/** A column without accents or capitals, so that « fete » finds « Fête de la musique ». */
const folded = (column: AnyColumn) => sql`lower(translate(${column}, ${ACCENTED}, ${PLAIN}))`

/** The search as typed, folded the same way, with LIKE's wildcards taken literally. */
export function searchPattern(query: string): string {
	const plain = query
		.normalize('NFD')
		.replace(/\p{M}/gu, '')
		.toLowerCase()
		.replace(/[\\%_]/g, (character) => `\\${character}`)
	return `%${plain}%`
}

function searchCondition(query: string): SQL | undefined {
	const q = query.trim()
	if (!q) return undefined
	const pattern = searchPattern(q)
	return or(
		sql`${folded(event.title)} like ${pattern}`,
		sql`${folded(event.venueName)} like ${pattern}`,
		sql`${folded(event.city)} like ${pattern}`,
	)
}

/**
 * Which tab an event belongs to: drafts are every unpublished event; a published one is past once
 * it is over, by the public pages' rule (its end, or its start plus the default duration).
 */
/** The last moment of an event, by the public pages' rule: its end, or its start plus the default duration. */
const lastMoment = sql`coalesce(${event.endsAt}, ${event.startsAt} + (${DEFAULT_DURATION_MS} * interval '1 millisecond'))`

function tabCondition(tab: EventTab, now: Date): SQL {
	const at = sql`${now.toISOString()}::timestamptz`
	if (tab === 'drafts') return sql`${event.published} = false`
	if (tab === 'upcoming') return sql`${event.published} = true and ${lastMoment} >= ${at}`
	return sql`${event.published} = true and ${lastMoment} < ${at}`
}

const ORDER: Record<EventTab, SQL[]> = {
	upcoming: [asc(event.startsAt), asc(event.id)],
	past: [desc(event.startsAt), asc(event.id)],
	// The draft last worked on first.
	drafts: [desc(event.updatedAt), asc(event.id)],
}

/** A row of the admin's list: what the table shows, nothing more (it goes to the browser with the page). */
export interface EventListRow {
	id: string
	title: string
	startsAt: string
	venueName: string
	city: string
	country: string
	status: EventStatus
	published: boolean
}

export interface EventList {
	tab: EventTab
	query: string
	page: number
	pageSize: number
	/** Events in each tab, the search applied. */
	counts: Record<EventTab, number>
	rows: EventListRow[]
}

/** One page of one tab of the list, with every tab's count; `page` starts at 1. */
export async function listEvents(
	db: Db,
	options: { tab: EventTab; query?: string; page?: number; now?: Date; pageSize?: number },
): Promise<EventList> {
	return (await readEventList(db, options)).list
}

/**
 * The same, and the moment it stops holding as time goes by while nothing is written (the next
 * end of an upcoming event of the search, when it passes to the past tab), or null.
 */
export async function readEventList(
	db: Db,
	options: { tab: EventTab; query?: string; page?: number; now?: Date; pageSize?: number },
): Promise<{ list: EventList; changesAt: number | null }> {
	const now = options.now ?? new Date()
	const query = (options.query ?? '').trim().slice(0, EVENT_SEARCH_MAX)
	const pageSize = options.pageSize ?? EVENT_PAGE_SIZE
	const search = searchCondition(query)
	const countIn = (tab: EventTab) => sql<number>`count(*) filter (where ${tabCondition(tab, now)})`.mapWith(Number)
	const [counted] = await db
		.select({
			upcoming: countIn('upcoming'),
			past: countIn('past'),
			drafts: countIn('drafts'),
			changesAt: sql<number | null>`extract(epoch from min(${lastMoment}) filter (where ${tabCondition('upcoming', now)})) * 1000`.mapWith(
				Number,
			),
		})
		.from(event)
		.where(search)
	const counts = { upcoming: counted?.upcoming ?? 0, past: counted?.past ?? 0, drafts: counted?.drafts ?? 0 }
	const lastPage = Math.max(1, Math.ceil(counts[options.tab] / pageSize))
	const page = Math.min(Math.max(1, Math.floor(options.page ?? 1) || 1), lastPage)
	const rows = await db
		.select({
			id: event.id,
			title: event.title,
			startsAt: event.startsAt,
			venueName: event.venueName,
			city: event.city,
			country: event.country,
			status: event.status,
			published: event.published,
		})
		.from(event)
		.where(and(tabCondition(options.tab, now), search))
		.orderBy(...ORDER[options.tab])
		.limit(pageSize)
		.offset((page - 1) * pageSize)
	const list = {
		tab: options.tab,
		query,
		page,
		pageSize,
		counts,
		rows: rows.map((row) => ({ ...row, startsAt: row.startsAt.toISOString() })),
	}
	return { list, changesAt: counted?.changesAt ?? null }
}

export type EditableEvent = typeof event.$inferSelect

/** The whole event, for the editor; null when there is none with that id. */
export async function getEventForEditor(db: Db, id: string): Promise<EditableEvent | null> {
	if (!isEventId(id)) return null
	const [row] = await db.select().from(event).where(eq(event.id, id))
	return row ?? null
}

/** Whether an uploaded cover image exists (a media of kind « cover »), before an event points at it. */
export async function coverExists(db: Db, mediaId: string): Promise<boolean> {
	const [row] = await db
		.select({ id: media.id })
		.from(media)
		.where(and(eq(media.id, mediaId), eq(media.kind, 'cover')))
	return Boolean(row)
}

/**
 * What else happens when an event is published for the first time (created published, or a draft
 * that never was published becoming so): run in the publication's transaction, on its row.
 */
export type OnFirstPublication = (tx: Db, eventId: string) => Promise<unknown>

interface SaveOptions {
	publish?: boolean
	onFirstPublication?: OnFirstPublication
}

/** Creates an event, a draft unless `publish`; returns its new id. */
export async function createEvent(db: Db, values: EventValues, userId: string, options: SaveOptions = {}): Promise<string> {
	const id = newEventId()
	const now = new Date()
	await db.transaction(async (tx) => {
		await tx.insert(event).values({
			...values,
			id,
			published: options.publish === true,
			publishedAt: options.publish ? now : null,
			createdBy: userId,
			updatedBy: userId,
			createdAt: now,
			updatedAt: now,
		})
		if (options.publish) await options.onFirstPublication?.(tx, id)
	})
	await publicContentChanged()
	return id
}

/**
 * Saves an event's values; `publish` true or false also publishes or withdraws it (the first
 * publication's date is kept, and it alone runs `onFirstPublication`). Returns false when the
 * event no longer exists.
 */
export async function updateEvent(db: Db, id: string, values: EventValues, userId: string, options: SaveOptions = {}): Promise<boolean> {
	if (!isEventId(id)) return false
	const saved = await db.transaction(async (tx) => {
		// Never published before: this row lock settles two publications racing on one « first ».
		const first = options.publish
			? await tx
					.update(event)
					.set({ publishedAt: new Date() })
					.where(and(eq(event.id, id), isNull(event.publishedAt)))
					.returning({ id: event.id })
			: []
		const publication = options.publish === undefined ? {} : options.publish ? { published: true } : { published: false }
		const updated = await tx
			.update(event)
			.set({ ...values, ...publication, updatedBy: userId, updatedAt: new Date() })
			.where(eq(event.id, id))
			.returning({ id: event.id })
		if (updated.length === 0) return false
		if (first.length > 0) await options.onFirstPublication?.(tx, id)
		return true
	})
	if (!saved) return false
	await publicContentChanged()
	return true
}

/** Deletes an event; returns its title, or null when there was none. Its cover image stays in the media library. */
export async function deleteEvent(db: Db, id: string): Promise<{ title: string } | null> {
	if (!isEventId(id)) return null
	const [deleted] = await db.delete(event).where(eq(event.id, id)).returning({ title: event.title })
	if (!deleted) return null
	await publicContentChanged()
	return deleted
}
