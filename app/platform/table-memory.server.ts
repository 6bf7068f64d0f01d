import { LRUCache } from 'lru-cache'
import { TABLE_CHANGE_TOPIC, type Realtime } from './realtime.server.ts'

/*
 * Reads kept whole until the table they come from changes: an admin screen asked again and again
 * (the list of events) costs no database work while nothing was written.
 *
 * - Forgotten by the database's own signal: every committed statement that writes one of
 *   REMEMBERED_TABLES sends its name (triggers of drizzle/0016_newsletter_and_event_signals.sql,
 *   on TABLE_CHANGE_TOPIC), whoever made it (the site, a job, a script, an administrator by hand).
 *   On the instance that wrote, the entries are gone before the write returns; other instances
 *   drop theirs when the signal arrives, in practice milliseconds. Should a signal be lost, an
 *   entry still dies within TABLE_MEMORY_TTL_MS.
 * - A read may also say when its answer stops holding by itself (an event passing from upcoming to
 *   past as time goes by): it is not kept past that moment.
 * - A read that started before a change and ends after it is not kept, and requests for the same
 *   key while it is being read wait for that read (as in session-cache.server.ts).
 * - Nothing is kept until the platform has connected the memory to the database's signals.
 */

/** The tables whose reads may be kept here; each has the triggers (tests/integration/admin-events.test.ts checks). */
export const REMEMBERED_TABLES = ['event'] as const
export type RememberedTable = (typeof REMEMBERED_TABLES)[number]

export const TABLE_MEMORY_TTL_MS = 5_000
const TABLE_MEMORY_MAX = 500

const entries = new LRUCache<string, { value: unknown }>({ max: TABLE_MEMORY_MAX, ttl: TABLE_MEMORY_TTL_MS })
/** Per table, moves on at every change: a read that saw another epoch at its start is not kept. */
const epochs = new Map<string, number>()
const reading = new Map<string, { epoch: number; promise: Promise<unknown> }>()
let connections = 0

/**
 * `read()`'s answer for this key of `table`, from memory while the table is unchanged. `until`:
 * the moment (ms since the epoch) after which the answer no longer holds whatever happens to the
 * table, or null. Treat the answer as read-only.
 */
export async function cachedUntilChanged<T>(
	table: RememberedTable,
	key: string,
	read: () => Promise<T>,
	until: (value: T) => number | null = () => null,
): Promise<T> {
	if (connections === 0) return read()
	const fullKey = `${table}\u0000${key}`
	const hit = entries.get(fullKey)
	if (hit) return hit.value as T
	const epoch = epochs.get(table) ?? 0
	const current = reading.get(fullKey)
	if (current && current.epoch === epoch) return current.promise as Promise<T>
	const promise = read()
		.then((value) => {
			const ttl = Math.min(TABLE_MEMORY_TTL_MS, (until(value) ?? Number.POSITIVE_INFINITY) - Date.now())
			if (ttl > 0 && epoch === (epochs.get(table) ?? 0)) entries.set(fullKey, { value }, { ttl: Math.ceil(ttl) })
			return value
		})
		.finally(() => {
			if (reading.get(fullKey)?.promise === promise) reading.delete(fullKey)
		})
	reading.set(fullKey, { epoch, promise })
	return promise
}

/** Forgets every read of the table the database named (anything else: of every table). */
export function forgetTable(table: unknown): void {
	const tables: readonly string[] =
		typeof table === 'string' && (REMEMBERED_TABLES as readonly string[]).includes(table) ? [table] : REMEMBERED_TABLES
	for (const name of tables) {
		epochs.set(name, (epochs.get(name) ?? 0) + 1)
		for (const key of entries.keys()) if (key.startsWith(`${name}\u0000`)) entries.delete(key)
	}
}

/** Listens to the database's signals of table changes (every instance's); returns the way to stop. */
export function connectTableMemory(realtime: Realtime): () => void {
	const stop = realtime.subscribe(TABLE_CHANGE_TOPIC, forgetTable)
	connections += 1
	return () => {
		stop()
		connections -= 1
		forgetTable(undefined)
	}
}
