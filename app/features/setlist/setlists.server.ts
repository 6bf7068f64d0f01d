import { and, asc, desc, eq, inArray, ne, sql } from 'drizzle-orm'
import { LRUCache } from 'lru-cache'
import type { Db } from '#app/platform/db/client.server.ts'
import { event, setlist, setlistItem, song } from '#app/platform/db/schema.ts'
import type { SetlistItemInput } from './forms.ts'
import { sectionsOf, type SectionItem } from './sections.ts'
import { isRecordId, newSetlistId, touchEvents } from './songs.server.ts'

/*
 * Setlists: ordered items built from the song library. A save names the version it started from;
 * a save from an older copy is refused (the second of two admins is told, and sees the newer
 * version), and a save either happens whole or not at all. Callers check the admin role first.
 */

export interface SetlistItemView extends SectionItem {
	position: number
}

export interface SetlistView {
	id: string
	name: string
	version: number
	published: boolean
	publishedAt: string | null
	updatedAt: string
	event: { id: string; title: string; startsAt: string; city: string; venueName: string; published: boolean } | null
	items: SetlistItemView[]
}

export interface SetlistListRow {
	id: string
	name: string
	published: boolean
	updatedAt: string
	songCount: number
	durationSeconds: number
	event: { id: string; title: string; startsAt: string; city: string } | null
}

/** Every setlist, the last worked on first, with its song count and known duration. */
export async function listSetlists(db: Db): Promise<SetlistListRow[]> {
	const rows = await db
		.select({
			id: setlist.id,
			name: setlist.name,
			published: setlist.published,
			updatedAt: setlist.updatedAt,
			eventId: event.id,
			eventTitle: event.title,
			eventStartsAt: event.startsAt,
			eventCity: event.city,
			songCount:
				sql<number>`(select count(*) from ${setlistItem} where ${setlistItem.setlistId} = ${setlist.id} and ${setlistItem.kind} = 'song')`.mapWith(
					Number,
				),
			durationSeconds:
				sql<number>`(select coalesce(sum(${song.durationSeconds}), 0) from ${setlistItem} join ${song} on ${song.id} = ${setlistItem.songId} where ${setlistItem.setlistId} = ${setlist.id})`.mapWith(
					Number,
				),
		})
		.from(setlist)
		.leftJoin(event, eq(event.id, setlist.eventId))
		.orderBy(desc(setlist.updatedAt), asc(setlist.id))
		.limit(500)
	return rows.map((row) => ({
		id: row.id,
		name: row.name,
		published: row.published,
		updatedAt: row.updatedAt.toISOString(),
		songCount: row.songCount,
		durationSeconds: row.durationSeconds,
		event:
			row.eventId && row.eventTitle && row.eventStartsAt
				? { id: row.eventId, title: row.eventTitle, startsAt: row.eventStartsAt.toISOString(), city: row.eventCity ?? '' }
				: null,
	}))
}

export async function createSetlist(db: Db, name: string, userId: string): Promise<string> {
	const id = newSetlistId()
	await db.insert(setlist).values({ id, name, createdBy: userId, updatedBy: userId })
	return id
}

/** Items of a setlist in order, each song with what the stage needs. */
async function itemsOf(db: Db, setlistId: string): Promise<SetlistItemView[]> {
	const rows = await db
		.select({ item: setlistItem, song })
		.from(setlistItem)
		.leftJoin(song, eq(song.id, setlistItem.songId))
		.where(eq(setlistItem.setlistId, setlistId))
		.orderBy(asc(setlistItem.position))
	return rows.map(({ item, song: s }) => ({
		id: item.id,
		position: item.position,
		kind: item.kind,
		label: item.label,
		notes: item.notes,
		song: s
			? {
					id: s.id,
					title: s.title,
					originalArtist: s.originalArtist,
					durationSeconds: s.durationSeconds,
					musicalKey: s.musicalKey,
					tempo: s.tempo,
				}
			: null,
	}))
}

/** A setlist with its items and its event; null when there is none with that id. */
export async function getSetlist(db: Db, id: string): Promise<SetlistView | null> {
	if (!isRecordId(id)) return null
	const [row] = await db
		.select({
			setlist,
			event: {
				id: event.id,
				title: event.title,
				startsAt: event.startsAt,
				city: event.city,
				venueName: event.venueName,
				published: event.published,
			},
		})
		.from(setlist)
		.leftJoin(event, eq(event.id, setlist.eventId))
		.where(eq(setlist.id, id))
	if (!row) return null
	return {
		id: row.setlist.id,
		name: row.setlist.name,
		version: row.setlist.version,
		published: row.setlist.published,
		publishedAt: row.setlist.publishedAt?.toISOString() ?? null,
		updatedAt: row.setlist.updatedAt.toISOString(),
		event: row.event?.id ? { ...row.event, startsAt: row.event.startsAt.toISOString() } : null,
		items: await itemsOf(db, id),
	}
}

/** Why a save was refused. `stale`: someone saved first; the current version comes with it. */
export type SaveRefusal = 'not-found' | 'stale' | 'foreign-items' | 'duplicate-items' | 'unknown-songs'

class Refused extends Error {
	constructor(readonly reason: SaveRefusal) {
		super(reason)
	}
}

export type SaveResult = { ok: true; version: number } | { ok: false; reason: SaveRefusal; current: SetlistView | null }

/**
 * Saves a setlist's name and items (in the order given), if it is still at `expectedVersion`. Item
 * ids that belong to another setlist, an id twice, or a song that does not exist refuse the whole
 * save; nothing is half-written (one transaction). Returns the new version.
 */
export async function saveSetlist(
	db: Db,
	id: string,
	values: { name: string; version: number; items: SetlistItemInput[] },
	userId: string,
): Promise<SaveResult> {
	if (!isRecordId(id)) return { ok: false, reason: 'not-found', current: null }
	let eventToTouch: string | null = null
	try {
		const version = await db.transaction(async (tx) => {
			// The version moves first, under the row's lock: a concurrent save waits, then finds it moved.
			const [moved] = await tx
				.update(setlist)
				.set({ name: values.name, version: sql`${setlist.version} + 1`, updatedBy: userId, updatedAt: new Date() })
				.where(and(eq(setlist.id, id), eq(setlist.version, values.version)))
				.returning({ version: setlist.version, eventId: setlist.eventId, published: setlist.published })
			if (!moved) {
				const [exists] = await tx.select({ id: setlist.id }).from(setlist).where(eq(setlist.id, id))
				throw new Refused(exists ? 'stale' : 'not-found')
			}
			const ids = values.items.map((item) => item.id)
			if (new Set(ids).size !== ids.length) throw new Refused('duplicate-items')
			if (ids.length > 0) {
				const foreign = await tx
					.select({ id: setlistItem.id })
					.from(setlistItem)
					.where(and(inArray(setlistItem.id, ids), ne(setlistItem.setlistId, id)))
					.limit(1)
				if (foreign.length > 0) throw new Refused('foreign-items')
			}
			const songIds = [...new Set(values.items.flatMap((item) => (item.kind === 'song' && item.songId ? [item.songId] : [])))]
			if (songIds.length > 0) {
				const found = await tx.select({ id: song.id }).from(song).where(inArray(song.id, songIds))
				if (found.length !== songIds.length) throw new Refused('unknown-songs')
			}
			await tx.delete(setlistItem).where(eq(setlistItem.setlistId, id))
			if (values.items.length > 0) {
				await tx.insert(setlistItem).values(
					values.items.map((item, position) => ({
						id: item.id,
						setlistId: id,
						position,
						kind: item.kind,
						songId: item.kind === 'song' ? item.songId! : null,
						label: item.kind === 'song' ? '' : item.label,
						notes: item.notes,
					})),
				)
			}
			if (moved.published && moved.eventId) {
				eventToTouch = moved.eventId
				await tx.update(event).set({ updatedAt: new Date() }).where(eq(event.id, moved.eventId))
			}
			return moved.version
		})
		if (eventToTouch) await touchEvents(db, [eventToTouch])
		return { ok: true, version }
	} catch (error) {
		if (!(error instanceof Refused)) throw error
		return { ok: false, reason: error.reason, current: error.reason === 'not-found' ? null : await getSetlist(db, id) }
	}
}

/** A copy of a setlist (« … (copie) »), attached to no event and unpublished; returns its id. */
export async function duplicateSetlist(db: Db, id: string, userId: string, copyName: (name: string) => string): Promise<string | null> {
	const source = await getSetlist(db, id)
	if (!source) return null
	const copyId = newSetlistId()
	await db.transaction(async (tx) => {
		await tx.insert(setlist).values({ id: copyId, name: copyName(source.name).slice(0, 120), createdBy: userId, updatedBy: userId })
		if (source.items.length > 0) {
			await tx.insert(setlistItem).values(
				source.items.map((item, position) => ({
					id: newSetlistId(),
					setlistId: copyId,
					position,
					kind: item.kind,
					songId: item.song?.id ?? null,
					label: item.label,
					notes: item.notes,
				})),
			)
		}
	})
	return copyId
}

export async function deleteSetlist(db: Db, id: string): Promise<{ name: string } | null> {
	if (!isRecordId(id)) return null
	const [deleted] = await db
		.delete(setlist)
		.where(eq(setlist.id, id))
		.returning({ name: setlist.name, eventId: setlist.eventId, published: setlist.published })
	if (!deleted) return null
	if (deleted.eventId && deleted.published) await touchEvents(db, [deleted.eventId])
	return { name: deleted.name }
}

export type AttachResult = { ok: true } | { ok: false; reason: 'not-found' | 'event-not-found' | 'event-taken'; takenBy?: string }

/**
 * Attaches a setlist to an event (or detaches it, `eventId` null). An event has one setlist at most:
 * one that already has another is refused, naming it, rather than silently losing it.
 */
export async function attachSetlist(db: Db, setlistId: string, eventId: string | null): Promise<AttachResult> {
	if (!isRecordId(setlistId)) return { ok: false, reason: 'not-found' }
	if (eventId !== null && !isRecordId(eventId)) return { ok: false, reason: 'event-not-found' }
	const touched: string[] = []
	const result = await db.transaction(async (tx): Promise<AttachResult> => {
		const [current] = await tx.select().from(setlist).where(eq(setlist.id, setlistId)).for('update')
		if (!current) return { ok: false, reason: 'not-found' }
		if (eventId !== null) {
			const [target] = await tx.select({ id: event.id }).from(event).where(eq(event.id, eventId))
			if (!target) return { ok: false, reason: 'event-not-found' }
			const [other] = await tx
				.select({ name: setlist.name })
				.from(setlist)
				.where(and(eq(setlist.eventId, eventId), ne(setlist.id, setlistId)))
			if (other) return { ok: false, reason: 'event-taken', takenBy: other.name }
		}
		if (current.eventId === eventId) return { ok: true }
		await tx.update(setlist).set({ eventId, updatedAt: new Date() }).where(eq(setlist.id, setlistId))
		if (current.published) {
			if (current.eventId) touched.push(current.eventId)
			if (eventId) touched.push(eventId)
		}
		return { ok: true }
	})
	await touchEvents(db, touched)
	return result
}

export type PublishResult =
	| { ok: true }
	| { ok: false; reason: 'not-found' }
	/** The concert has not begun: a setlist says what was played, so it waits for the show. */
	| { ok: false; reason: 'not-started'; startsAt: Date }
	/** The setlist changed since the screen that asked was loaded: publish what was seen, or nothing. */
	| { ok: false; reason: 'stale'; version: number }

/**
 * Publishes a setlist on its event's page, or withdraws it. Publishing is refused before its
 * concert has begun (the page says « joués ce soir-là »), and, when the caller names the version it
 * shows (the builder), if another save came in since. A setlist attached to no concert may be
 * published: it shows nowhere until it is attached to a concert that has begun.
 */
export async function setSetlistPublished(
	db: Db,
	id: string,
	published: boolean,
	options: { version?: number; now?: Date } = {},
): Promise<PublishResult> {
	if (!isRecordId(id)) return { ok: false, reason: 'not-found' }
	const now = options.now ?? new Date()
	const result = await db.transaction(async (tx): Promise<PublishResult & { eventId?: string | null }> => {
		const [current] = await tx
			.select({ version: setlist.version, eventId: setlist.eventId })
			.from(setlist)
			.where(eq(setlist.id, id))
			.for('update')
		if (!current) return { ok: false, reason: 'not-found' }
		if (published) {
			if (options.version !== undefined && options.version !== current.version) {
				return { ok: false, reason: 'stale', version: current.version }
			}
			if (current.eventId) {
				const [show] = await tx.select({ startsAt: event.startsAt }).from(event).where(eq(event.id, current.eventId))
				if (show && show.startsAt > now) return { ok: false, reason: 'not-started', startsAt: show.startsAt }
			}
		}
		await tx
			.update(setlist)
			.set({
				published,
				publishedAt: published ? sql`coalesce(${setlist.publishedAt}, now())` : setlist.publishedAt,
				updatedAt: new Date(),
			})
			.where(eq(setlist.id, id))
		return { ok: true, eventId: current.eventId }
	})
	if (!result.ok) return result
	if (result.eventId) await touchEvents(db, [result.eventId])
	return { ok: true }
}

/** The events a setlist may be attached to: the latest first, each with the setlist it already has. */
export async function eventsForAttach(
	db: Db,
): Promise<Array<{ id: string; title: string; startsAt: string; city: string; setlistName: string | null; setlistId: string | null }>> {
	const rows = await db
		.select({
			id: event.id,
			title: event.title,
			startsAt: event.startsAt,
			city: event.city,
			setlistName: setlist.name,
			setlistId: setlist.id,
		})
		.from(event)
		.leftJoin(setlist, eq(setlist.eventId, event.id))
		.orderBy(desc(event.startsAt))
		.limit(300)
	return rows.map((row) => ({ ...row, startsAt: row.startsAt.toISOString() }))
}

/** The setlist attached to an event (for its editor), with every setlist it could have instead. */
export async function setlistOfEvent(
	db: Db,
	eventId: string,
): Promise<{ id: string; name: string; published: boolean; version: number } | null> {
	if (!isRecordId(eventId)) return null
	const [row] = await db
		.select({ id: setlist.id, name: setlist.name, published: setlist.published, version: setlist.version })
		.from(setlist)
		.where(eq(setlist.eventId, eventId))
	return row ?? null
}

// ---------------------------------------------------------------------------------------------
// The public page

export interface PublicSetlistSong {
	title: string
	/** « reprise de … »: the original artist of a cover. */
	originalArtist: string | null
	notes: string
	number: number
}

export interface PublicSetlist {
	sections: Array<{ kind: 'main' | 'set' | 'encore'; label: string; encoreNumber: number; songs: PublicSetlistSong[] }>
	songCount: number
}

/** What the public sees of a setlist: songs, sets and encores, covers credited; free notes (stage cues) stay private. */
export function toPublicSetlist(items: SectionItem[]): PublicSetlist {
	const summary = sectionsOf(items)
	return {
		songCount: summary.songCount,
		sections: summary.sections
			.map((section) => ({
				kind: section.kind,
				label: section.label,
				encoreNumber: section.encoreNumber,
				songs: section.entries.flatMap(({ item, number }) =>
					item.kind === 'song' && item.song && number !== null
						? [{ title: item.song.title, originalArtist: item.song.originalArtist, notes: item.notes, number }]
						: [],
				),
			}))
			.filter((section) => section.songs.length > 0),
	}
}

/** Read public setlists, by event id and the event's version (which moves whenever its setlist changes). */
const publicCache = new LRUCache<string, { version: string; value: PublicSetlist | null }>({ max: 500 })

/**
 * The published setlist of an event, for its page; null when it has none. `eventVersion` is the
 * event page's version: every change to the published setlist (or to a song in it) moves it, on
 * every instance, so a cached answer for the same version is current.
 */
export async function publishedSetlistOfEvent(db: Db, eventId: string, eventVersion?: string): Promise<PublicSetlist | null> {
	const hit = eventVersion ? publicCache.get(eventId) : undefined
	if (hit && hit.version === eventVersion) return hit.value
	const [row] = await db
		.select({ id: setlist.id, startsAt: event.startsAt })
		.from(setlist)
		.innerJoin(event, eq(event.id, setlist.eventId))
		.where(and(eq(setlist.eventId, eventId), eq(setlist.published, true)))
	// Never before the show (a published setlist whose concert was moved later waits for it); such an
	// answer changes with the clock alone, so it is not kept.
	if (row && row.startsAt > new Date()) return null
	const value = row ? toPublicSetlist(await itemsOf(db, row.id)) : null
	const publicValue = value && value.songCount > 0 ? value : null
	if (eventVersion) publicCache.set(eventId, { version: eventVersion, value: publicValue })
	return publicValue
}

/** schema.org works for a MusicEvent's JSON-LD: each song played, a cover credited to its original artist. */
export function setlistWorksJsonLd(setlistValue: PublicSetlist): Record<string, unknown>[] {
	return setlistValue.sections.flatMap((section) =>
		section.songs.map((s) => ({
			'@type': 'MusicComposition',
			name: s.title,
			...(s.originalArtist
				? { recordedAs: { '@type': 'MusicRecording', byArtist: { '@type': 'MusicGroup', name: s.originalArtist } } }
				: {}),
		})),
	)
}
