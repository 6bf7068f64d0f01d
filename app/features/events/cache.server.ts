import { createHash } from 'node:crypto'
import fs from 'node:fs'
import { fileURLToPath } from 'node:url'
import { getBand } from '#app/features/site/band.server.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import { getEnv } from '#app/platform/env.server.ts'
import { LRUCache } from 'lru-cache'
import { onPublicContentChange } from '#app/platform/public-content.server.ts'
import {
	eventsPage,
	loadEventDetail,
	nextEvents,
	publishedEventVersion,
	type EventDetail,
	type EventsPage,
	type EventSummary,
} from './events.server.ts'

/*
 * What anonymous visitors see of events, kept in memory so that a link shared under load costs no
 * database work.
 *
 * - Event pages, by id. An entry is trusted as is for FRESH_MS; after that, one indexed lookup
 *   (the event's `updated_at` joined with its cover's) tells whether it still holds: same version,
 *   it is trusted again; otherwise the page is read afresh. So another instance's edit (N
 *   processes on one PostgreSQL) shows here within FRESH_MS, and the cover's background job
 *   finishing (which changes the media row, not the event) is seen too.
 * - The landing's next events and the pages of /events: re-read every FRESH_MS (MAX_LISTS kept).
 * (The rendered page itself, as cookie-less visitors get it, is kept by server/page-cache.ts.)
 * - Every change of public content (`publicContentChanged`, sent by the admin editor after every
 *   save, publish or delete, on any instance) drops every entry at once.
 *
 * Concurrent misses for one key share one read (no stampede: lru-cache's fetchMethod), and a read
 * that started before an invalidation is never stored after it.
 */

/** How long an entry is trusted without asking the database. */
export const FRESH_MS = 5_000
/** Entries kept at most (least recently used go first): unknown ids are never stored. */
const MAX_PAGES = 500
/** Lists kept at most: the landing's, and the pages of /events a visitor may number at will. */
const MAX_LISTS = 100

/**
 * The clock the page cache reads (performance-free, so that a test can hand its own `now`): set by
 * each call just before it asks the cache.
 */
let clock = Date.now()

/**
 * Event pages by id. lru-cache's `fetchMethod` merges concurrent reads of one key into one, and
 * drops a read that was under way when its key was deleted (an invalidation) instead of storing it.
 * An entry older than FRESH_MS is handed back to `fetchMethod`, which keeps it when its version
 * still holds.
 */
const pages = new LRUCache<string, EventDetail, Db>({
	max: MAX_PAGES,
	ttl: FRESH_MS,
	ttlResolution: 0,
	perf: { now: () => clock },
	async fetchMethod(id, stale, { context: db }) {
		if (stale && (await publishedEventVersion(db, id)) === stale.version) return stale
		// Unknown or unpublished: nothing is stored (undefined drops the key).
		return (await loadEventDetail(db, id)) ?? undefined
	},
})
/** The landing's next events and the pages of /events, each trusted for FRESH_MS. */
const lists = new LRUCache<string, { value: unknown }>({ max: MAX_LISTS, ttl: FRESH_MS, ttlResolution: 0, perf: { now: () => clock } })
let generation = 0

/** Forget what is cached about this event (and every list), or about every event. */
export function invalidateEventCache(eventId?: string): void {
	generation++
	if (eventId === undefined) {
		pages.clear()
	} else {
		pages.delete(eventId)
	}
	lists.clear()
}

onPublicContentChange(() => invalidateEventCache())

/** A published event's page data, from memory when it is known to be current. */
export async function cachedEventDetail(db: Db, id: string, now: number = Date.now()): Promise<EventDetail | null> {
	for (let attempt = 0; ; attempt++) {
		clock = now
		try {
			return (await pages.fetch(id, { context: db })) ?? null
		} catch (error) {
			// The event was invalidated while it was being read: read it again, once, as it is now.
			if (attempt > 0 || !isAbort(error)) throw error
		}
	}
}

/** lru-cache rejects a read whose key was deleted, evicted or replaced meanwhile, with these reasons. */
const ABORT_REASONS = new Set(['deleted', 'evicted', 'replaced'])
function isAbort(error: unknown): boolean {
	return error instanceof Error && ABORT_REASONS.has(error.message)
}

/** The landing's next events, re-read at most every FRESH_MS. */
export async function cachedNextEvents(
	db: Db,
	limit: number,
	now: number = Date.now(),
): Promise<{ events: EventSummary[]; hasPast: boolean }> {
	return cachedList(`next:${limit}`, now, () => nextEvents(db, limit, new Date(now)))
}

/** A page of /events (upcoming, then past), re-read at most every FRESH_MS: the same for every visitor. */
export async function cachedEventsPage(db: Db, page: number, now: number = Date.now()): Promise<EventsPage> {
	return cachedList(`events:${page}`, now, () => eventsPage(db, page, { now: new Date(now) }))
}

/** A list from memory while fresh, else read and kept unless an invalidation came meanwhile. */
async function cachedList<T>(key: string, now: number, read: () => Promise<T>): Promise<T> {
	clock = now
	const hit = lists.get(key)
	if (hit) return hit.value as T
	const startedAt = generation
	const value = await read()
	clock = now
	if (startedAt === generation) lists.set(key, { value })
	return value
}

// ---------------------------------------------------------------------------------------------
// HTTP validators

let renderStamp: string | undefined

/**
 * What else an unchanged event's page depends on: the build that renders it (its scripts' hashed
 * names, its strings) and the site's configuration (band, address). Read once per process.
 */
function currentRenderStamp(): string {
	if (renderStamp) return renderStamp
	const hash = createHash('sha256')
	try {
		// In production this module is part of the server bundle: its bytes identify the build.
		hash.update(fs.readFileSync(fileURLToPath(import.meta.url)))
	} catch {
		hash.update(String(process.pid))
	}
	hash.update(JSON.stringify(getBand()))
	hash.update(getEnv().SITE_URL)
	renderStamp = hash.digest('base64url').slice(0, 12)
	return renderStamp
}

/** The build's own modification time, so that Last-Modified moves with a deploy too. */
let buildTime: number | undefined
function currentBuildTime(): number {
	if (buildTime !== undefined) return buildTime
	try {
		buildTime = Math.floor(fs.statSync(fileURLToPath(import.meta.url)).mtimeMs / 1000) * 1000
	} catch {
		buildTime = 0
	}
	return buildTime
}

/** A weak validator for an anonymous visitor's copy of something built from these parts. */
export function weakEtag(...parts: string[]): string {
	const digest = createHash('sha256')
		.update([currentRenderStamp(), ...parts].join('|'))
		.digest('base64url')
		.slice(0, 22)
	return `W/"${digest}"`
}

/** Last-Modified: the later of the data's change and the build's. */
export function lastModified(dataChangedAt: string | Date): string {
	const changed = new Date(dataChangedAt).getTime()
	return new Date(Math.max(changed, currentBuildTime())).toUTCString()
}

/** Whether the visitor's copy is current (If-None-Match; If-Modified-Since only when there is none). */
export function isNotModified(request: Request, validators: { etag: string; lastModified?: string }): boolean {
	if (request.method !== 'GET' && request.method !== 'HEAD') return false
	const ifNoneMatch = request.headers.get('if-none-match')
	if (ifNoneMatch !== null) {
		if (ifNoneMatch.trim() === '*') return true
		const opaque = (tag: string) => tag.trim().replace(/^W\//, '')
		const wanted = opaque(validators.etag)
		return ifNoneMatch.split(',').some((tag) => opaque(tag) === wanted)
	}
	const since = request.headers.get('if-modified-since')
	if (since && validators.lastModified) {
		const sinceMs = Date.parse(since)
		const modifiedMs = Date.parse(validators.lastModified)
		return Number.isFinite(sinceMs) && Number.isFinite(modifiedMs) && modifiedMs <= sinceMs
	}
	return false
}

/** Shared caches (and the browser) may keep a public copy for a minute, then serve it stale while revalidating. */
export const PUBLIC_CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=300'

/** A signed-in visitor's page (it carries their session): their browser only, always revalidated. */
export const PRIVATE_CACHE_CONTROL = 'private, no-cache'

/** A draft previewed by an admin: kept nowhere. */
export const NO_STORE = 'private, no-store'
