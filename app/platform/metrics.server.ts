import { sql } from 'drizzle-orm'
import type { Platform } from './platform.server.ts'

/*
 * Prometheus metrics of this process (text exposition format 0.0.4), read at /metrics with
 * METRICS_TOKEN. Requests are counted by the HTTP server (server/index.ts) for every response,
 * static files included, labelled by route (the route module's id, a bounded set) and status.
 * Queue depth and the outbox are read from the database at scrape time: they are the site's,
 * the same seen from any instance. Like the request context, the registry hangs on a global
 * symbol, shared by the server and the app's build.
 */

/** Upper bounds of the latency histogram, in seconds. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

interface Registry {
	started: number
	requests: Map<string, number>
	latency: Map<string, { buckets: number[]; sum: number; count: number }>
	mails: { sent: number; failed: number }
	takeovers: number
}

const KEY = Symbol.for('band-site.metrics')
const holder = globalThis as typeof globalThis & { [KEY]?: Registry }
const registry = (holder[KEY] ??= {
	started: Date.now(),
	requests: new Map(),
	latency: new Map(),
	mails: { sent: 0, failed: 0 },
	takeovers: 0,
})

const escape = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')

/** Counts one answered request. */
export function recordRequest(route: string, method: string, status: number, seconds: number): void {
	const key = `route="${escape(route)}",method="${escape(method)}",status="${status}"`
	registry.requests.set(key, (registry.requests.get(key) ?? 0) + 1)
	let histogram = registry.latency.get(route)
	if (!histogram) registry.latency.set(route, (histogram = { buckets: LATENCY_BUCKETS.map(() => 0), sum: 0, count: 0 }))
	for (let i = 0; i < LATENCY_BUCKETS.length; i++) if (seconds <= LATENCY_BUCKETS[i]!) histogram.buckets[i]! += 1
	histogram.sum += seconds
	histogram.count += 1
}

/** Counts one mail handed to the relay, or given up on (the outbox worker calls it). */
export function recordMail(result: 'sent' | 'failed'): void {
	registry.mails[result] += 1
}

/** Counts one newsletter send this process took over from a sender whose lease had lapsed. */
export function recordNewsletterTakeover(): void {
	registry.takeovers = (registry.takeovers ?? 0) + 1
}

export async function renderMetrics(platform: Pick<Platform, 'database' | 'jobs'>): Promise<string> {
	const lines: string[] = []
	const family = (name: string, type: string, help: string) => lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`)

	family('band_http_requests_total', 'counter', 'HTTP responses by route, method and status.')
	for (const [labels, value] of registry.requests) lines.push(`band_http_requests_total{${labels}} ${value}`)

	family('band_http_request_duration_seconds', 'histogram', 'Time to answer a request, by route.')
	for (const [route, h] of registry.latency) {
		const label = `route="${escape(route)}"`
		LATENCY_BUCKETS.forEach((bound, i) => lines.push(`band_http_request_duration_seconds_bucket{${label},le="${bound}"} ${h.buckets[i]}`))
		lines.push(`band_http_request_duration_seconds_bucket{${label},le="+Inf"} ${h.count}`)
		lines.push(`band_http_request_duration_seconds_sum{${label}} ${h.sum.toFixed(6)}`)
		lines.push(`band_http_request_duration_seconds_count{${label}} ${h.count}`)
	}

	family('band_mails_total', 'counter', 'Mails this process handed to the relay (sent) or gave up on (failed).')
	lines.push(`band_mails_total{result="sent"} ${registry.mails.sent}`, `band_mails_total{result="failed"} ${registry.mails.failed}`)

	family('band_newsletter_takeovers_total', 'counter', 'Newsletter sends this process took over from a sender that stopped answering.')
	lines.push(`band_newsletter_takeovers_total ${registry.takeovers ?? 0}`)

	family('band_outbox_mails', 'gauge', 'Mails in the outbox by status (the whole site, all instances).')
	const outbox = (await platform.database.db.execute(sql`select status, count(*) as n from outbox_mail group by status`)) as unknown as {
		rows: { status: string; n: string | number }[]
	}
	const byStatus = new Map(outbox.rows.map((row) => [row.status, Number(row.n)]))
	for (const status of ['queued', 'sent', 'failed']) lines.push(`band_outbox_mails{status="${status}"} ${byStatus.get(status) ?? 0}`)

	family(
		'band_job_queue_jobs',
		'gauge',
		'Background jobs by queue and state (queued: waiting, including deferred; active: running; failed: kept after failing).',
	)
	for (const queue of await platform.jobs.boss.getQueues()) {
		const label = `queue="${escape(queue.name)}"`
		lines.push(
			`band_job_queue_jobs{${label},state="queued"} ${queue.queuedCount}`,
			`band_job_queue_jobs{${label},state="active"} ${queue.activeCount}`,
			`band_job_queue_jobs{${label},state="failed"} ${queue.failedCount}`,
		)
	}

	family('band_process_uptime_seconds', 'gauge', 'Seconds since this process started.')
	lines.push(`band_process_uptime_seconds ${Math.round((Date.now() - registry.started) / 1000)}`)
	family('band_process_resident_memory_bytes', 'gauge', 'Resident memory of this process.')
	lines.push(`band_process_resident_memory_bytes ${process.memoryUsage.rss()}`)
	return `${lines.join('\n')}\n`
}
