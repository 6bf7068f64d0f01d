import { hash } from 'node:crypto'
import { LRUCache } from 'lru-cache'
import { MEMBER_CHANGE_TOPIC, type Realtime } from './realtime.server.ts'

/*
 * A short memory of the sessions Better Auth has just validated, so that a signed-in visitor's
 * requests do not each ask the database for the same session and user rows (each statement costs
 * about 2 ms of CPU on PGlite, more than the rest of the page).
 *
 * - Key: a SHA-256 of the session cookie exactly as the browser sent it (token and signature), so a
 *   hit needs the very cookie Better Auth accepted; the token itself is never kept.
 * - An entry lives SESSION_CACHE_TTL_MS at most, never past the session's own expiry; the cache
 *   holds SESSION_CACHE_MAX entries (least recently used go first). Unknown or refused cookies are
 *   never remembered: every one of them goes to Better Auth.
 * - Revocation guarantee, with nothing for a writer to remember: the database itself signals every
 *   committed statement that changes what a session shows (the member's account row, their
 *   sessions, their avatars, the contents their codes unlocked, the newsletter row of their address:
 *   triggers of drizzle/0014_member_change_signal.sql and 0016_newsletter_and_event_signals.sql, on
 *   MEMBER_CHANGE_TOPIC), whoever made it (the site,
 *   Better Auth, a script, an administrator by hand). On the instance that made the change the
 *   member's entries are gone before the write returns, so the very next request there reads the
 *   database. Every other instance drops them when the signal arrives, in practice milliseconds;
 *   should a signal be lost (a listening connection broken), an entry still dies within
 *   SESSION_CACHE_TTL_MS.
 * - A read that started before a change and ends after it is not remembered (`epoch`), so a stale
 *   answer cannot come back into the cache after its invalidation.
 * - Requests for the same key that arrive while it is being read wait for that read instead of
 *   starting their own: when an entry expires under load, the 50 requests in flight made 50 pairs
 *   of queries, now one. A request that arrives after an invalidation never joins a read started
 *   before it.
 *
 * See docs/decisions/0008-session-memory.md and 0023-session-memory-forgotten-by-the-database.md.
 */

export const SESSION_CACHE_TTL_MS = 5_000
const SESSION_CACHE_MAX = 5_000

interface Entry {
	userId: string
	value: unknown
}

const entries = new LRUCache<string, Entry>({ max: SESSION_CACHE_MAX, ttl: SESSION_CACHE_TTL_MS })
/** Moves on at every invalidation: a read that saw another epoch at its start is not stored. */
let epoch = 0

/** The cache key of this request's session cookie(s), or null when it carries none. */
export function sessionCacheKey(cookieHeader: string | null): string | null {
	if (!cookieHeader?.includes('session_token=')) return null
	const parts = cookieHeader
		.split(';')
		.map((part) => part.trim())
		.filter((part) => SESSION_COOKIE.test(part))
	if (parts.length === 0) return null
	// One-shot hashing: a Hash object per request cost more than the rest of this function.
	return hash('sha256', parts.sort().join('\n'), 'base64url')
}
const SESSION_COOKIE = /^[^=]*session_token=/

/**
 * The remembered answer for this key, or else `read()` (Better Auth), remembered when it is a valid
 * session and nothing was invalidated meanwhile.
 */
export async function cachedSession<T extends { userId: string; expiresAt: Date }>(
	key: string,
	read: () => Promise<T | null>,
): Promise<T | null> {
	const hit = entries.get(key)
	if (hit) {
		const value = hit.value as T
		if (value.expiresAt.getTime() > Date.now()) return value
		entries.delete(key)
	}
	return readOnce(`session\u0000${key}`, async () => {
		const startedAt = epoch
		const value = await read()
		const ttl = value ? Math.min(SESSION_CACHE_TTL_MS, value.expiresAt.getTime() - Date.now()) : 0
		if (value && ttl > 0 && startedAt === epoch) entries.set(key, { userId: value.userId, value }, { ttl })
		return value
	})
}

/** Reads in progress, by key, with the epoch they started in. */
const reading = new Map<string, { epoch: number; promise: Promise<unknown> }>()

/** `read()`, or the same read already in progress for this key if nothing was invalidated since it began. */
function readOnce<T>(key: string, read: () => Promise<T>): Promise<T> {
	const current = reading.get(key)
	if (current && current.epoch === epoch) return current.promise as Promise<T>
	const promise = read().finally(() => {
		if (reading.get(key)?.promise === promise) reading.delete(key)
	})
	reading.set(key, { epoch, promise })
	return promise
}

/*
 * The same memory, for what every page of the member's dashboard shows and only they change: read
 * once per SESSION_CACHE_TTL_MS, and forgotten with their sessions when the database signals a
 * change of the table it comes from. A new kind of data goes in MEMBER_DATA with its table, and that
 * table gets the triggers (tests/integration/session-cache.test.ts checks that every one has them).
 */
export const MEMBER_DATA = {
	/** Their latest ready avatar. */
	avatar: 'media',
	/** The campaigns their codes unlocked. */
	grants: 'code_redemption',
	/** The newsletter row of their address (its status and town), found by address, not by id. */
	newsletter: 'newsletter_subscriber',
} as const
/** The tables a session is read from (Better Auth's `getSession`). */
export const SESSION_TABLES = ['user', 'session'] as const

const memberData = new LRUCache<string, { userId: string; value: unknown }>({ max: SESSION_CACHE_MAX, ttl: SESSION_CACHE_TTL_MS })

/** This member's `name` data, from memory or from `read()`. Treat the answer as read-only. */
export async function cachedForMember<T>(userId: string, name: keyof typeof MEMBER_DATA, read: () => Promise<T>): Promise<T> {
	const key = `${userId}\u0000${name}`
	const hit = memberData.get(key)
	if (hit) return hit.value as T
	return readOnce(`member\u0000${key}`, async () => {
		const startedAt = epoch
		const value = await read()
		if (startedAt === epoch) memberData.set(key, { userId, value })
		return value
	})
}

function forgetEveryone() {
	epoch += 1
	entries.clear()
	memberData.clear()
}

/** Forgets what the database's signal names: some members' ids, or anything else for everyone. */
export function forgetSignalled(members: unknown): void {
	if (!Array.isArray(members)) return forgetEveryone()
	const ids = new Set(members.filter((id): id is string => typeof id === 'string'))
	epoch += 1
	for (const [key, entry] of entries.entries()) if (ids.has(entry.userId)) entries.delete(key)
	for (const [key, entry] of memberData.entries()) if (ids.has(entry.userId)) memberData.delete(key)
}

/** Listens to the database's signals of member changes (every instance's); returns the way to stop. */
export function connectSessionCache(realtime: Realtime): () => void {
	const stop = realtime.subscribe(MEMBER_CHANGE_TOPIC, forgetSignalled)
	return () => {
		stop()
		forgetEveryone()
	}
}
