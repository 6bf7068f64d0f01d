/*
 * Long work in bounded slices, with progress in steps: the one mechanism every heavy admin job goes
 * through (imports, exports, code batches, a campaign's fan-out). See
 * docs/decisions/0022-heavy-work-in-slices.md.
 *
 * The embedded database (PGlite) runs on the server's own thread, and a query to it resolves without
 * ever giving the event loop a turn: a loop of `await db…` statements, however small each one,
 * holds every socket, timer and request until the loop ends (measured: 20 inserts in a row, 477 ms,
 * and not one timer fired). So a long job does a bounded amount per statement and calls
 * `nextSlice()` between statements: what waits (a visitor's page, `/healthz`, the progress events)
 * runs, then the job goes on. On PostgreSQL the same slices keep one job from holding a connection
 * and its locks for minutes.
 */

/** Lets everything waiting on the event loop (requests, timers, sockets) run before the next slice. */
export function nextSlice(): Promise<void> {
	return new Promise((resolve) => setImmediate(resolve))
}

/** How far a long job is: `done` of `total` units (codes, lines, rows). */
export interface ProgressStep {
	done: number
	total: number
}

export interface ProgressSteps {
	/** Tells where the job is; announces it when a step is due (every `fraction` of the total, or after `everyMs`). */
	advance(done: number): Promise<void>
	/** Announces the last value, whatever was announced before. */
	finish(done: number): Promise<void>
}

/** At most this long between two announcements while something moves. */
export const PROGRESS_EVERY_MS = 2_000
/** And at least every such share of the total. */
export const PROGRESS_EVERY_FRACTION = 0.05

/**
 * Progress in steps for a job of `total` units: the admin's screen moves at least every 5 % of the
 * work or every 2 s while it moves, and is not flooded (one announcement per step, not per row).
 * `announce` failing (a lost notification) never stops the job.
 */
export function progressSteps(
	total: number,
	announce: (step: ProgressStep) => Promise<unknown> | unknown,
	options: { everyMs?: number; everyFraction?: number; now?: () => number } = {},
): ProgressSteps {
	const everyMs = options.everyMs ?? PROGRESS_EVERY_MS
	const stepUnits = Math.max(1, Math.floor(total * (options.everyFraction ?? PROGRESS_EVERY_FRACTION)))
	const now = options.now ?? Date.now
	let lastDone = -1
	let lastAt = now()
	const send = async (done: number) => {
		lastDone = done
		lastAt = now()
		try {
			await announce({ done, total })
		} catch {
			// The next step says it again.
		}
	}
	return {
		async advance(done) {
			if (done === lastDone) return
			if (lastDone < 0 || done - lastDone >= stepUnits || now() - lastAt >= everyMs) await send(done)
		},
		async finish(done) {
			await send(done)
		},
	}
}
