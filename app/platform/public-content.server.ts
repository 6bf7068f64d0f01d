import { randomUUID } from 'node:crypto'
import { getLogger } from './logger.server.ts'
import { getRealtime } from './platform.server.ts'

/*
 * One signal for "what anonymous visitors see has changed": an admin saved, published or deleted
 * something public, or a job finished a cover image. Every cache of public content listens to it
 * (the anonymous page cache in server/, the events' data cache) and forgets what it holds.
 *
 * `publicContentChanged()` drops this process's copies at once (so the admin's next anonymous
 * visitor never sees the old page) and tells every other instance through the live-update channel
 * (LISTEN/NOTIFY: PGlite in one process, PostgreSQL across N). A notification lost while an
 * instance reconnects is covered by the caches' own short lifetimes.
 */

const TOPIC = 'public-content.changed'
/** This process, so that it does not clear its caches twice for its own signal. */
const INSTANCE = randomUUID()

type Listener = () => void
const holder = globalThis as typeof globalThis & {
	__bandPublicContent?: { generation: number; listeners: Set<Listener>; listening?: Promise<void> }
}
const state = (holder.__bandPublicContent ??= { generation: 0, listeners: new Set() })

/** Moves on every change: a cache fill that started before a change must not be kept after it. */
export function publicContentGeneration(): number {
	return state.generation
}

/** Calls `listener` on every change, from this instance or another; returns the way to stop. */
export function onPublicContentChange(listener: Listener): () => void {
	state.listeners.add(listener)
	return () => state.listeners.delete(listener)
}

function changedHere() {
	state.generation++
	for (const listener of state.listeners) {
		try {
			listener()
		} catch (error) {
			getLogger().error({ err: error }, 'public content listener failed')
		}
	}
}

/**
 * Public content changed: forget it here now and tell the other instances. Call it once the write
 * is committed (after the transaction, never inside it): a page rendered between a signal and the
 * commit would otherwise be kept with the old content.
 */
export async function publicContentChanged(): Promise<void> {
	changedHere()
	try {
		await (await getRealtime()).publish(TOPIC, { from: INSTANCE })
	} catch (error) {
		getLogger().warn({ err: error }, 'could not tell the other instances that public content changed')
	}
}

/** Hears the other instances' changes; called once at start (app/background.server.ts). */
export function listenForPublicContentChanges(): Promise<void> {
	state.listening ??= (async () => {
		const realtime = await getRealtime()
		realtime.subscribe(TOPIC, (data) => {
			if ((data as { from?: unknown } | null)?.from !== INSTANCE) changedHere()
		})
	})()
	return state.listening
}
