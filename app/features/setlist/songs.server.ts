import { and, asc, desc, eq, inArray, or, sql, type AnyColumn, type SQL } from 'drizzle-orm'
import { newShortId } from '#app/platform/random-token.server.ts'
import { publicContentChanged } from '#app/platform/public-content.server.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import { event, setlist, setlistItem, song } from '#app/platform/db/schema.ts'
import type { SongValues } from './forms.ts'

/*
 * The song library: search, sort, create, edit, archive. Callers check the admin role first. A
 * song that appears in a published setlist shows on an event's page: changing it changes that page.
 */

/** 12 URL-safe random characters. */
export function newSetlistId(): string {
	return newShortId()
}

export const isRecordId = (value: unknown): value is string => typeof value === 'string' && /^[A-Za-z0-9_-]{8,40}$/.test(value)

export const SONG_SORTS = ['title', 'artist', 'duration', 'tempo', 'recent'] as const
export type SongSort = (typeof SONG_SORTS)[number]
export const SONG_SEARCH_MAX = 100

const ACCENTED = 'àâäáãåçéèêëíìîïñóòôöõúùûüýÿÀÂÄÁÃÅÇÉÈÊËÍÌÎÏÑÓÒÔÖÕÚÙÛÜÝŸ'
const PLAIN = 'aaaaaaceeeeiiiinooooouuuuyyaaaaaaceeeeiiiinooooouuuuyy'
/** A column without accents or capitals, so that « ete » finds « Été indien ». */
const folded = (column: AnyColumn | SQL) => sql`lower(translate(${column}, ${ACCENTED}, ${PLAIN}))`

/** A text folded the way `folded` folds a column (accents off, lower case). */
export function foldText(text: string): string {
	return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim()
}

function searchCondition(query: string): SQL | undefined {
	const q = query.trim()
	if (!q) return undefined
	const pattern = `%${foldText(q).replace(/[\\%_]/g, (c) => `\\${c}`)}%`
	return or(sql`${folded(song.title)} like ${pattern}`, sql`${folded(sql`coalesce(${song.originalArtist}, '')`)} like ${pattern}`)
}

const ORDER: Record<SongSort, SQL[]> = {
	title: [asc(folded(song.title)), asc(song.id)],
	artist: [sql`${song.originalArtist} is null`, asc(folded(sql`coalesce(${song.originalArtist}, '')`)), asc(folded(song.title))],
	duration: [sql`${song.durationSeconds} is null`, desc(song.durationSeconds), asc(folded(song.title))],
	tempo: [sql`${song.tempo} is null`, desc(song.tempo), asc(folded(song.title))],
	recent: [desc(song.updatedAt), asc(song.id)],
}

export interface SongRow {
	id: string
	title: string
	originalArtist: string | null
	durationSeconds: number | null
	musicalKey: string | null
	tempo: number | null
	notes: string
	archived: boolean
	updatedAt: string
}

const columns = {
	id: song.id,
	title: song.title,
	originalArtist: song.originalArtist,
	durationSeconds: song.durationSeconds,
	musicalKey: song.musicalKey,
	tempo: song.tempo,
	notes: song.notes,
	archived: song.archived,
	updatedAt: song.updatedAt,
}

const toRow = (row: Omit<SongRow, 'updatedAt'> & { updatedAt: Date }): SongRow => ({ ...row, updatedAt: row.updatedAt.toISOString() })

/** The library, searched and sorted; archived songs only when asked. */
export async function listSongs(
	db: Db,
	options: { query?: string; sort?: SongSort; archived?: boolean; limit?: number } = {},
): Promise<{ rows: SongRow[]; counts: { active: number; archived: number } }> {
	const search = searchCondition((options.query ?? '').slice(0, SONG_SEARCH_MAX))
	const [counted] = await db
		.select({
			active: sql<number>`count(*) filter (where ${song.archived} = false)`.mapWith(Number),
			archived: sql<number>`count(*) filter (where ${song.archived} = true)`.mapWith(Number),
		})
		.from(song)
		.where(search)
	const rows = await db
		.select(columns)
		.from(song)
		.where(and(eq(song.archived, options.archived === true), search))
		.orderBy(...ORDER[options.sort ?? 'title'])
		.limit(options.limit ?? 1000)
	return { rows: rows.map(toRow), counts: { active: counted?.active ?? 0, archived: counted?.archived ?? 0 } }
}

export async function getSong(db: Db, id: string): Promise<SongRow | null> {
	if (!isRecordId(id)) return null
	const [row] = await db.select(columns).from(song).where(eq(song.id, id))
	return row ? toRow(row) : null
}

function songColumns(values: SongValues) {
	return {
		title: values.title,
		originalArtist: values.originalArtist,
		durationSeconds: values.duration,
		musicalKey: values.musicalKey,
		tempo: values.tempo,
		notes: values.notes,
	}
}

export async function createSong(db: Db, values: SongValues): Promise<string> {
	const id = newSetlistId()
	await db.insert(song).values({ id, ...songColumns(values) })
	return id
}

/**
 * The published events whose setlist plays one of these songs: their pages show the song, so they
 * are marked changed (which moves their version, here and on every other instance).
 */
export async function touchEventsOfSongs(db: Db, songIds: string[]): Promise<void> {
	if (songIds.length === 0) return
	const events = await db
		.selectDistinct({ eventId: setlist.eventId })
		.from(setlistItem)
		.innerJoin(setlist, eq(setlist.id, setlistItem.setlistId))
		.where(and(inArray(setlistItem.songId, songIds), eq(setlist.published, true)))
	const ids = events.map((e) => e.eventId).filter((id): id is string => Boolean(id))
	await touchEvents(db, ids)
}

/**
 * Marks events changed (their pages show a setlist) and tells every cache of public pages, on every
 * instance, that public content changed. Call it after the write's transaction, never inside.
 */
export async function touchEvents(db: Db, eventIds: string[]): Promise<void> {
	if (eventIds.length === 0) return
	await db.update(event).set({ updatedAt: new Date() }).where(inArray(event.id, eventIds))
	await publicContentChanged()
}

/** Saves a song; false when there is none with that id. */
export async function updateSong(db: Db, id: string, values: SongValues): Promise<boolean> {
	if (!isRecordId(id)) return false
	const updated = await db
		.update(song)
		.set({ ...songColumns(values), updatedAt: new Date() })
		.where(eq(song.id, id))
		.returning({ id: song.id })
	if (updated.length === 0) return false
	await touchEventsOfSongs(db, [id])
	return true
}

/** Archives a song (it leaves the picker, stays in the setlists that have it) or brings it back. */
export async function setSongArchived(db: Db, id: string, archived: boolean): Promise<{ title: string } | null> {
	if (!isRecordId(id)) return null
	const [row] = await db.update(song).set({ archived, updatedAt: new Date() }).where(eq(song.id, id)).returning({ title: song.title })
	return row ?? null
}

export type PickerSong = Pick<SongRow, 'id' | 'title' | 'originalArtist' | 'durationSeconds' | 'musicalKey' | 'tempo'>

/** The songs the builder offers: every song not archived, by title. */
export async function songsForPicker(db: Db): Promise<PickerSong[]> {
	return db
		.select({
			id: song.id,
			title: song.title,
			originalArtist: song.originalArtist,
			durationSeconds: song.durationSeconds,
			musicalKey: song.musicalKey,
			tempo: song.tempo,
		})
		.from(song)
		.where(eq(song.archived, false))
		.orderBy(asc(folded(song.title)))
		.limit(5000)
}

/** Folded « title / artist » keys of the library, to tell an import's duplicates apart. */
export async function librarySongKeys(db: Db): Promise<Set<string>> {
	const rows = await db.select({ title: song.title, artist: song.originalArtist }).from(song)
	return new Set(rows.map((row) => songKey(row.title, row.artist)))
}

export function songKey(title: string, artist: string | null): string {
	return `${foldText(title)}\u0000${foldText(artist ?? '')}`
}
