import { fromPglite, PgBoss, type SendOptions, type WorkOptions, type Job } from 'pg-boss'
import type { Database } from './db/client.server.ts'
import type { Logger } from 'pino'
import { SITE_TIME_ZONE } from './time-zone.ts'

/**
 * The background job queue (pg-boss), on the same database as everything else: PGlite through its
 * adapter, or PostgreSQL with its own small pool. Jobs survive a crash and are retried with backoff.
 */
export interface Jobs {
	boss: PgBoss
	/** Declares a queue (idempotent); must happen before sending to it or working it. */
	queue(
		name: string,
		options?: { retryLimit?: number; retryDelay?: number; retryBackoff?: boolean; expireInSeconds?: number },
	): Promise<void>
	send(name: string, data: object, options?: SendOptions): Promise<string | null>
	work<T extends object>(name: string, handler: (jobs: Job<T>[]) => Promise<void>, options?: WorkOptions): Promise<void>
	schedule(name: string, cron: string, data?: object): Promise<void>
	/**
	 * Aborted once the process is stopping: a long job (a newsletter slice) lets go at its next step
	 * and hands its work back, rather than being cut off when the process exits.
	 */
	stopping: AbortSignal
	/**
	 * Stops taking jobs: `stopping` is aborted, the workers fetch no more, running jobs get a few
	 * seconds to finish, and those still running then go back to the queue (failed, hence retried)
	 * for another instance. Sending jobs still works (requests in flight may send some).
	 */
	release(): Promise<void>
	/** Releases (if not done yet), then closes the queue's connections. */
	stop(): Promise<void>
}

/** How long running jobs get to finish when the process stops, before they go back to the queue. */
const RELEASE_TIMEOUT_MS = 5_000

export async function startJobs(database: Database, logger: Logger): Promise<Jobs> {
	const boss =
		database.kind === 'pglite'
			? new PgBoss({ db: fromPglite(database.pglite!), backend: 'pglite', schema: 'pgboss' })
			: new PgBoss({ connectionString: database.url!, schema: 'pgboss', max: 4 })
	boss.on('error', (error: unknown) => logger.error({ err: error }, 'job queue error'))
	await boss.start()
	// One declaration per queue and process, shared by concurrent callers (two creations would collide).
	const declared = new Map<string, Promise<void>>()
	const stopping = new AbortController()
	let released: Promise<void> | undefined
	const release = () => {
		stopping.abort()
		// pg-boss's own graceful stop, with the pool kept open: no fetch, a wait, then running jobs failed back.
		released ??= boss.stop({ close: false, graceful: true, timeout: RELEASE_TIMEOUT_MS })
		return released
	}
	return {
		boss,
		queue(name, options = {}) {
			let declaring = declared.get(name)
			if (!declaring) {
				declaring = (async () => {
					const existing = await boss.getQueue(name)
					if (!existing) await boss.createQueue(name, options)
					else await boss.updateQueue(name, options)
				})()
				declared.set(name, declaring)
				declaring.catch(() => declared.delete(name))
			}
			return declaring
		},
		send: (name, data, options) => boss.send(name, data, options),
		async work(name, handler, options) {
			await boss.work(name, { pollingIntervalSeconds: 2, ...options }, handler as never)
		},
		async schedule(name, cron, data) {
			await boss.schedule(name, cron, data ?? null, { tz: SITE_TIME_ZONE })
		},
		stopping: stopping.signal,
		release,
		async stop() {
			await release()
			await boss.stop({ graceful: true, timeout: RELEASE_TIMEOUT_MS })
		},
	}
}
