import { fromPglite, PgBoss, type SendOptions, type WorkOptions, type Job } from 'pg-boss'
import type { Database } from './db/client.server.ts'
import type { Logger } from 'pino'
import { SITE_TIME_ZONE } from './time-zone.ts'

/**
 * The background job queue (pg-boss), on the same database as everything else: PGlite through its
 * adapter, or PostgreSQL with its own small pool. Jobs survive a crash and are retried with backoff.
 */
export interface Jobs {
	/** pg-boss itself, started on first use (createJobs). */
	boss(): Promise<PgBoss>
	/** Whether the queue was started (or is starting) in this process. */
	started(): boolean
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

/*
 * A worker sleeps until there is work: a job sent to a queue wakes this process's workers at once
 * (`notifyWorker`, in `send` below), the other instances' through the database (pg-boss's
 * LISTEN/NOTIFY on PostgreSQL), and a job sent from here for later (startAfter) wakes this process's
 * workers when it falls due. The poll
 * that remains is a safety net for what no signal announces (a retry coming due, a job deferred by
 * another instance, a signal lost in a reconnection): at rest, a fetch per queue every
 * SAFETY_POLL_SECONDS rather than every second or two, which on PGlite was most of the idle
 * process's CPU (bench/RESULTS-start-and-memory.md). Without the listener (it failed to start) the
 * workers poll every FALLBACK_POLL_SECONDS as before.
 */
const SAFETY_POLL_SECONDS = 30
const FALLBACK_POLL_SECONDS = 2
/** Longer than this, a deferred job is left to the safety poll (a timer cannot wait that long). */
const LONGEST_WAKE_MS = 2 ** 31 - 1

/*
 * pg-boss's own rounds, made rare where nothing here needs them often: instance registry heartbeats
 * (unused), job dependency flows (unused), background schema migrations (only after an upgrade, which
 * a start runs anyway), and the queue statistics cache. Kept at pg-boss's pace: supervision (expired
 * jobs go back to their queue; 60 s) and the cron monitor (30 s). The cron worker, which turns a due
 * schedule into its job, looks every 30 s instead of 5: every schedule here is daily, or every minute
 * or ten with nothing that needs the second.
 */
const QUIET_ROUNDS = {
	registerInstance: false,
	flowIntervalSeconds: 24 * 3600,
	bamIntervalSeconds: 3600,
	queueCacheIntervalSeconds: 600,
	cronWorkerIntervalSeconds: 30,
} as const

/**
 * The job queue of this database, started on first use: sending, declaring or working a queue starts
 * it, and the server's first answer does not wait for it (pg-boss's start is a second of CPU on PGlite;
 * the workers start once that answer is out, app/background.server.ts).
 */
export function createJobs(database: Database, logger: Logger): Jobs {
	let starting: Promise<PgBoss> | undefined
	const boss = () =>
		(starting ??= (async () => {
			const boss =
				database.kind === 'pglite'
					? new PgBoss({ db: fromPglite(database.pglite!), backend: 'pglite', schema: 'pgboss', useListenNotify: true, ...QUIET_ROUNDS })
					: new PgBoss({ connectionString: database.url!, schema: 'pgboss', max: 4, useListenNotify: true, ...QUIET_ROUNDS })
			boss.on('error', (error: unknown) => logger.error({ err: error }, 'job queue error'))
			boss.on('warning', (warning: { message?: string }) => logger.warn({ warning }, warning.message ?? 'job queue warning'))
			await boss.start()
			return boss
		})().catch((error: unknown) => {
			starting = undefined
			throw error
		}))
	// This process's workers, by queue: woken when a job sent from here for later falls due.
	const workers = new Map<string, string[]>()
	const wakeAt = (queue: PgBoss, name: string, startAfter: SendOptions['startAfter']) => {
		const at =
			startAfter instanceof Date
				? startAfter.getTime()
				: typeof startAfter === 'number'
					? Date.now() + startAfter * 1000
					: Date.parse(startAfter ?? '')
		const wait = at - Date.now()
		if (!(wait > 0 && wait < LONGEST_WAKE_MS)) return
		setTimeout(() => {
			for (const id of workers.get(name) ?? []) queue.notifyWorker(id)
		}, wait + 50).unref()
	}
	// One declaration per queue and process, shared by concurrent callers (two creations would collide).
	const declared = new Map<string, Promise<void>>()
	const stopping = new AbortController()
	let released: Promise<void> | undefined
	const release = () => {
		stopping.abort()
		// pg-boss's own graceful stop, with the pool kept open: no fetch, a wait, then running jobs failed
		// back. A queue never started has nothing to hand back.
		released ??= starting
			? starting.then((queue) => queue.stop({ close: false, graceful: true, timeout: RELEASE_TIMEOUT_MS }))
			: Promise.resolve()
		return released
	}
	return {
		boss,
		started: () => starting !== undefined,
		queue(name, options = {}) {
			let declaring = declared.get(name)
			if (!declaring) {
				declaring = (async () => {
					const queue = await boss()
					const existing = await queue.getQueue(name)
					// `notify`: a job sent to the queue wakes its workers (see SAFETY_POLL_SECONDS).
					if (!existing) await queue.createQueue(name, { ...options, notify: true })
					else await queue.updateQueue(name, { ...options, notify: true })
				})()
				declared.set(name, declaring)
				declaring.catch(() => declared.delete(name))
			}
			return declaring
		},
		async send(name, data, options) {
			const queue = await boss()
			const id = await queue.send(name, data, options)
			if (options?.startAfter !== undefined) wakeAt(queue, name, options.startAfter)
			// This process's own workers are woken here and now, whether or not the database's signal
			// reaches them (measured: on PGlite a mail waited for the safety poll, 30 s, without this).
			else for (const worker of workers.get(name) ?? []) queue.notifyWorker(worker)
			return id
		},
		async work(name, handler, options) {
			// A shutdown that began before the workers started: they start no more.
			if (stopping.signal.aborted) return
			const id = await (
				await boss()
			).work(
				name,
				{ pollingIntervalSeconds: FALLBACK_POLL_SECONDS, notifyPollingIntervalSeconds: SAFETY_POLL_SECONDS, ...options },
				handler as never,
			)
			workers.set(name, [...(workers.get(name) ?? []), id])
		},
		async schedule(name, cron, data) {
			await (await boss()).schedule(name, cron, data ?? null, { tz: SITE_TIME_ZONE })
		},
		stopping: stopping.signal,
		release,
		async stop() {
			await release()
			const queue = await starting?.catch(() => undefined)
			await queue?.stop({ graceful: true, timeout: RELEASE_TIMEOUT_MS })
		},
	}
}

/** The job queue, started now (command-line tools and tests that want its schema in place). */
export async function startJobs(database: Database, logger: Logger): Promise<Jobs> {
	const jobs = createJobs(database, logger)
	await jobs.boss()
	return jobs
}
