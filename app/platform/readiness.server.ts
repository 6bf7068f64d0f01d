import { getPlatform } from './platform.server.ts'

/*
 * Once SIGTERM arrives, the instance says it is not ready, so that a load balancer stops sending
 * it new requests while the server finishes those in flight (server/index.ts closes on the same signal).
 */
const KEY = Symbol.for('band-site.draining')
const holder = globalThis as typeof globalThis & { [KEY]?: { draining: boolean } }
const state = (holder[KEY] ??= (() => {
	const flag = { draining: false }
	process.once('SIGTERM', () => {
		flag.draining = true
		// Alone on the signal (no server/index.ts: a tool, the dev server), keep its default: exit.
		if (process.listenerCount('SIGTERM') === 0) process.kill(process.pid, 'SIGTERM')
	})
	return flag
})())

/** Says « not ready » from now on: the server calls it first thing on SIGTERM or SIGINT (server/main.ts). */
export function markDraining(): void {
	state.draining = true
}

export interface Readiness {
	status: 'ready' | 'not-ready'
	checks: { database: 'ok' | 'unavailable'; jobs: 'ok' | 'unavailable'; draining: boolean }
	latencyMs: number
}

export async function readiness(timeoutMs = 2_000): Promise<Readiness> {
	const started = performance.now()
	const checks: Readiness['checks'] = { database: 'unavailable', jobs: 'unavailable', draining: state.draining }
	// Stopping: say so at once, without queueing behind the requests being finished for the database.
	if (checks.draining) return { status: 'not-ready', checks, latencyMs: 0 }
	const within = <T>(promise: Promise<T>) =>
		Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), timeoutMs).unref())])
	try {
		const platform = await within(getPlatform())
		await within(platform.database.ping())
		checks.database = 'ok'
		// A queue not started yet (it starts on first use) lives in the database that just answered.
		if (!platform.jobs.started() || (await within(platform.jobs.boss().then((boss) => boss.isInstalled())))) checks.jobs = 'ok'
	} catch {
		// reported as unavailable
	}
	const ready = checks.database === 'ok' && checks.jobs === 'ok' && !checks.draining
	return { status: ready ? 'ready' : 'not-ready', checks, latencyMs: Math.round(performance.now() - started) }
}
