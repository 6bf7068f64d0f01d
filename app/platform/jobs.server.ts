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
	/**
	 * A job on a cron expression, in the site's time zone. On the embedded database, a timer set to
	 * the next occurrence sends it (SOLE_WRITER below); on PostgreSQL, pg-boss's cron pass does.
	 */
	schedule(name: string, cron: string, data?: object): Promise<void>
	/**
	 * Whether this process is the database's only writer (PGlite): nothing changes it behind this
	 * process's back, so nothing polls it for changes; work is woken by what this process does
	 * (docs/decisions/0036-no-polling-on-the-embedded-database.md). False on PostgreSQL, where other
	 * instances may write and polls stay the safety net.
	 */
	soleWriter: boolean
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
 * workers when it falls due. On PostgreSQL the poll that remains is a safety net for what no signal
 * announces (a retry coming due, a job deferred by another instance, a signal lost in a
 * reconnection): a fetch per queue every SAFETY_POLL_SECONDS rather than every second or two.
 * Without the listener (it failed to start) the workers poll every FALLBACK_POLL_SECONDS as before.
 */
const SAFETY_POLL_SECONDS = 30
const FALLBACK_POLL_SECONDS = 2
/** The longest a Node timer waits; a longer wait is a chain of these. */
const LONGEST_TIMER_MS = 2 ** 31 - 1

/*
 * pg-boss's own rounds, made rare where nothing here needs them often: instance registry heartbeats
 * (unused), job dependency flows (unused), background schema migrations (only after an upgrade, which
 * a start runs anyway), and the queue statistics cache. On PostgreSQL, kept at pg-boss's pace:
 * supervision (expired jobs go back to their queue; 60 s) and the cron monitor (30 s). The cron
 * worker, which turns a due schedule into its job, looks every 30 s instead of 5: every schedule here
 * is daily, or every minute or ten with nothing that needs the second.
 */
const QUIET_ROUNDS = {
	registerInstance: false,
	flowIntervalSeconds: 24 * 3600,
	bamIntervalSeconds: 3600,
	queueCacheIntervalSeconds: 600,
	cronWorkerIntervalSeconds: 30,
} as const

/*
 * On the embedded database this process is the only writer (the data folder is locked to it), so
 * every change the queue could wait for is made here, and this process knows when work falls due
 * (docs/decisions/0036-no-polling-on-the-embedded-database.md):
 * - a job sent now wakes its workers (`send`), one sent for later at its time (`wakeAt`);
 * - after jobs of a queue ran (and failed: a retry), the queue's waiting jobs are looked at
 *   (`look`), and its workers woken when the earliest falls due; the same for every queue at start
 *   (jobs left waiting by the previous run);
 * - schedules are timers set to their next occurrence in the site's time zone, not a cron pass;
 * - supervision (jobs left active past their expiry or heartbeat go back to their queue; old jobs
 *   pruned) runs at start, SUPERVISE_AFTER_MS after jobs ran (at least every SUPERVISE_EVERY_MS
 *   while they keep running), and again while jobs are still active, not on a clock.
 * pg-boss's own timers are left with one round a day at most (the longest a worker's poll or its
 * queue cache may wait): a safety net, not the mechanism.
 */
const SOLE_WRITER_ROUNDS = {
	...QUIET_ROUNDS,
	supervise: false,
	schedule: false,
	bamIntervalSeconds: 24 * 3600,
	queueCacheIntervalSeconds: 24 * 3600,
	// The expiry claim a supervision pass takes: passes come when this process asks for them.
	monitorIntervalSeconds: 5,
} as const
const SOLE_WRITER_POLL_SECONDS = 24 * 3600
/** A queue's waiting jobs are looked at this long after its jobs ran (pg-boss has recorded their outcome). */
const LOOK_AFTER_MS = 500
const SUPERVISE_AFTER_MS = 15_000
const SUPERVISE_EVERY_MS = 60_000

/**
 * The job queue of this database, started on first use: sending, declaring or working a queue starts
 * it, and the server's first answer does not wait for it (pg-boss's start is a second of CPU on PGlite;
 * the workers start once that answer is out, app/background.server.ts).
 */
export function createJobs(database: Database, logger: Logger): Jobs {
	const soleWriter = database.kind === 'pglite'
	let starting: Promise<PgBoss> | undefined
	const boss = () =>
		(starting ??= (async () => {
			const boss =
				database.kind === 'pglite'
					? new PgBoss({
							db: fromPglite(database.pglite!),
							backend: 'pglite',
							schema: 'pgboss',
							useListenNotify: true,
							...SOLE_WRITER_ROUNDS,
						})
					: new PgBoss({ connectionString: database.url!, schema: 'pgboss', max: 4, useListenNotify: true, ...QUIET_ROUNDS })
			boss.on('error', (error: unknown) => logger.error({ err: error }, 'job queue error'))
			boss.on('warning', (warning: { message?: string }) => logger.warn({ warning }, warning.message ?? 'job queue warning'))
			await boss.start()
			return boss
		})().catch((error: unknown) => {
			starting = undefined
			throw error
		}))
	const stopping = new AbortController()
	// Timers of this process's own (wakes, schedules, supervision): cleared once it stops taking jobs.
	const timers = new Set<NodeJS.Timeout>()
	/** Runs `run` at `at` (a chain of timers past the longest one), unless the process is stopping by then. */
	const at = (when: number, run: () => void) => {
		if (stopping.signal.aborted) return
		const timer = setTimeout(
			() => {
				timers.delete(timer)
				if (stopping.signal.aborted) return
				if (Date.now() < when) at(when, run)
				else run()
			},
			Math.min(Math.max(0, when - Date.now()), LONGEST_TIMER_MS),
		).unref()
		timers.add(timer)
		return timer
	}
	// This process's workers, by queue.
	const workers = new Map<string, string[]>()
	const wake = (queue: PgBoss, name: string) => {
		for (const id of workers.get(name) ?? []) queue.notifyWorker(id)
	}
	// The earliest wake set for each queue's waiting jobs: a later one is covered by it, since the
	// look that follows each wake sets the next.
	const wakes = new Map<string, { at: number; timer: NodeJS.Timeout }>()
	const wakeAt = (queue: PgBoss, name: string, startAfter: SendOptions['startAfter']) => {
		const when =
			startAfter instanceof Date
				? startAfter.getTime()
				: typeof startAfter === 'number'
					? Date.now() + startAfter * 1000
					: Date.parse(startAfter ?? '')
		if (!Number.isFinite(when)) return
		if (!soleWriter) {
			// On PostgreSQL the safety poll covers what a timer cannot wait for.
			const wait = when - Date.now()
			if (wait > 0 && wait < LONGEST_TIMER_MS) at(when + 50, () => wake(queue, name))
			return
		}
		const set = wakes.get(name)
		if (set && set.at <= when && set.at > Date.now()) return
		if (set) {
			clearTimeout(set.timer)
			timers.delete(set.timer)
		}
		const timer = at(when + 50, () => {
			wakes.delete(name)
			wake(queue, name)
			look(name)
		})
		if (timer) wakes.set(name, { at: when, timer })
	}
	/** The embedded database: when the waiting jobs of a queue fall due, its workers are woken. */
	const looking = new Map<string, Promise<void>>()
	const look = (name: string) => {
		if (looking.has(name) || stopping.signal.aborted) return
		const done = (async () => {
			const queue = await boss()
			const waiting = await queue.findJobs(name, { queued: true })
			const now = Date.now()
			let due = false
			let next = Infinity
			for (const job of waiting) {
				const dueAt = new Date(job.startAfter).getTime()
				if (dueAt <= now) due = true
				else next = Math.min(next, dueAt)
			}
			if (due) wake(queue, name)
			if (next < Infinity) wakeAt(queue, name, new Date(next))
		})()
			.catch((error: unknown) => logger.warn({ err: error, queue: name }, 'job queue: could not look at waiting jobs'))
			.finally(() => looking.delete(name))
		looking.set(name, done)
	}
	// Supervision on the embedded database: one pass at a time, when asked (see SOLE_WRITER_ROUNDS).
	let supervision: { timer: NodeJS.Timeout | undefined; since: number } | undefined
	let supervising = false
	const superviseIn = (ms: number) => {
		if (!soleWriter || stopping.signal.aborted) return
		const now = Date.now()
		// Jobs running one after the other push the pass back, but not past SUPERVISE_EVERY_MS.
		const since = supervision?.since ?? now
		const due = Math.min(now + ms, since + SUPERVISE_EVERY_MS)
		if (supervision?.timer) {
			clearTimeout(supervision.timer)
			timers.delete(supervision.timer)
		}
		supervision = { timer: at(due, () => void supervise()), since }
	}
	const supervise = async () => {
		supervision = undefined
		if (supervising) return superviseIn(SUPERVISE_AFTER_MS)
		supervising = true
		try {
			const queue = await boss()
			await queue.supervise()
			// Jobs that went back to their queue are worked; jobs still active (running here, or left by
			// a crash before their expiry) need another pass.
			const queues = await queue.getQueues([...workers.keys()])
			for (const { name, queuedCount, activeCount } of queues) if (queuedCount > 0 || activeCount > 0) look(name)
			if (queues.some((q) => q.activeCount > 0)) superviseIn(SUPERVISE_EVERY_MS)
		} catch (error) {
			logger.warn({ err: error }, 'job queue supervision failed')
			superviseIn(SUPERVISE_EVERY_MS)
		} finally {
			supervising = false
		}
	}
	/** Jobs of `name` ran here: what they left waiting (a retry) is looked at, and supervision follows. */
	const ran = (name: string) => {
		if (!soleWriter) return
		at(Date.now() + LOOK_AFTER_MS, () => look(name))
		superviseIn(SUPERVISE_AFTER_MS)
	}
	// One declaration per queue and process, shared by concurrent callers (two creations would collide).
	const declared = new Map<string, Promise<void>>()
	let released: Promise<void> | undefined
	const release = () => {
		stopping.abort()
		for (const timer of timers) clearTimeout(timer)
		timers.clear()
		// pg-boss's own graceful stop, with the pool kept open: no fetch, a wait, then running jobs failed
		// back. A queue never started has nothing to hand back.
		released ??= starting
			? starting.then((queue) => queue.stop({ close: false, graceful: true, timeout: RELEASE_TIMEOUT_MS }))
			: Promise.resolve()
		return released
	}
	return {
		boss,
		soleWriter,
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
			else wake(queue, name)
			return id
		},
		async work(name, handler, options) {
			// A shutdown that began before the workers started: they start no more.
			if (stopping.signal.aborted) return
			// On the embedded database a worker's own poll is the daily net whatever the caller asked
			// (a faster fallback poll is for when the database's signal may not come).
			const polls = soleWriter
				? { pollingIntervalSeconds: SOLE_WRITER_POLL_SECONDS, notifyPollingIntervalSeconds: SOLE_WRITER_POLL_SECONDS }
				: { pollingIntervalSeconds: FALLBACK_POLL_SECONDS, notifyPollingIntervalSeconds: SAFETY_POLL_SECONDS }
			const id = await (
				await boss()
			).work(name, soleWriter ? { ...options, ...polls } : { ...polls, ...options }, (async (batch: Job<never>[]) => {
				try {
					await handler(batch as never)
				} finally {
					ran(name)
				}
			}) as never)
			const first = !workers.has(name)
			workers.set(name, [...(workers.get(name) ?? []), id])
			// Jobs the previous run left waiting (a retry, a send for later) are woken at their time, and
			// those it left active go back to their queue once past their expiry (supervision at start).
			if (soleWriter && first) {
				look(name)
				superviseIn(SUPERVISE_AFTER_MS)
			}
		},
		async schedule(name, cron, data) {
			const queue = await boss()
			if (!soleWriter) {
				await queue.schedule(name, cron, data ?? null, { tz: SITE_TIME_ZONE })
				return
			}
			// The next occurrence after `from`, in the site's time zone (daylight saving included).
			const arm = (from: Date) => {
				const [next] = queue.previewSchedule(cron, { tz: SITE_TIME_ZONE, from, count: 1 })
				if (!next) return
				at(next.getTime(), () => {
					queue.send(name, data ?? {}).then(
						() => wake(queue, name),
						(error: unknown) => logger.error({ err: error, queue: name }, 'scheduled job not sent'),
					)
					arm(next)
				})
			}
			arm(new Date())
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
