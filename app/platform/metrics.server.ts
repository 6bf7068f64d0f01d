import { sql } from 'drizzle-orm'
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'
import type { Platform } from './platform.server.ts'

/*
 * Prometheus metrics of this process (prom-client, text exposition format 0.0.4), read at /metrics
 * with METRICS_TOKEN. Requests are counted by the HTTP server (server/index.ts) for every response,
 * static files included, labelled by route (the route module's id, a bounded set) and status.
 * Queue depth and the outbox are read from the database at scrape time: they are the site's, the
 * same seen from any instance. Node's own figures (memory, CPU, event loop, GC) come from
 * prom-client's default metrics, under the same `band_` prefix. Like the request context, the
 * registry hangs on a global symbol, shared by the server and the app's build.
 */

/** Upper bounds of the latency histogram, in seconds. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
const JOB_STATES = ['queued', 'active', 'failed'] as const
const OUTBOX_STATUSES = ['queued', 'sent', 'failed'] as const

function createMetrics() {
	const registry = new Registry()
	const registers = [registry]
	collectDefaultMetrics({ register: registry, prefix: 'band_' })
	const started = Date.now()
	new Gauge({
		name: 'band_process_uptime_seconds',
		help: 'Seconds since this process started.',
		registers,
		collect() {
			this.set(Math.round((Date.now() - started) / 1000))
		},
	})
	const mails = new Counter({
		name: 'band_mails_total',
		help: 'Mails this process handed to the relay (sent) or gave up on (failed).',
		labelNames: ['result'] as const,
		registers,
	})
	for (const result of ['sent', 'failed']) mails.inc({ result }, 0)
	// Requests are counted in plain numbers (`requestSeries`) and added to the counter when it is read.
	const requestSeries = new Map<string, RequestSeries>()
	return {
		registry,
		requestSeries,
		requests: new Counter({
			name: 'band_http_requests_total',
			help: 'HTTP responses by route, method and status.',
			labelNames: ['route', 'method', 'status'] as const,
			registers,
			collect() {
				for (const series of requestSeries.values())
					if (series.pending > 0) {
						this.inc(series.labels, series.pending)
						series.pending = 0
					}
			},
		}),
		latency: new Histogram({
			name: 'band_http_request_duration_seconds',
			help: 'Time to answer a request, by route.',
			labelNames: ['route'] as const,
			buckets: LATENCY_BUCKETS,
			registers,
		}),
		mails,
		takeovers: new Counter({
			name: 'band_newsletter_takeovers_total',
			help: 'Newsletter sends this process took over from a sender that stopped answering.',
			registers,
		}),
		outbox: new Gauge({
			name: 'band_outbox_mails',
			help: 'Mails in the outbox by status (the whole site, all instances).',
			labelNames: ['status'] as const,
			registers,
		}),
		jobs: new Gauge({
			name: 'band_job_queue_jobs',
			help: 'Background jobs by queue and state (queued: waiting, including deferred; active: running; failed: kept after failing).',
			labelNames: ['queue', 'state'] as const,
			registers,
		}),
	}
}

const KEY = Symbol.for('band-site.prom-metrics')
const holder = globalThis as typeof globalThis & { [KEY]?: ReturnType<typeof createMetrics> }
const metrics = (holder[KEY] ??= createMetrics())

/** Counts one answered request. */
export function recordRequest(route: string, method: string, status: number, seconds: number): void {
	const series = seriesOf(route, method, status)
	series.pending += 1
	series.latency.observe(seconds)
}

/**
 * The recorder of one (route, method, status), for a caller that answers many of the same (the
 * server, per page of its anonymous cache): a call per request adds one to a plain number (the
 * counter reads it when scraped) and observes the duration.
 */
export function requestRecorder(route: string, method: string, status: number): (seconds: number) => void {
	const series = seriesOf(route, method, status)
	return (seconds) => {
		series.pending += 1
		series.latency.observe(seconds)
	}
}

/**
 * Each (route, method, status)'s series, made once: prom-client finds a series by hashing its
 * labels on every call otherwise, a good part of what a cached page costs. Routes are a bounded
 * set, statuses and methods too, so this stays small.
 */
interface RequestSeries {
	labels: { route: string; method: string; status: number }
	/** Requests not yet added to the counter (it adds them when read). */
	pending: number
	latency: { observe(seconds: number): void }
}

function seriesOf(route: string, method: string, status: number): RequestSeries {
	const key = `${route} ${method} ${status}`
	let series = metrics.requestSeries.get(key)
	if (!series) {
		series = { labels: { route, method, status }, pending: 0, latency: metrics.latency.labels({ route }) }
		metrics.requestSeries.set(key, series)
	}
	return series
}

/** Counts one mail handed to the relay, or given up on (the outbox worker calls it). */
export function recordMail(result: 'sent' | 'failed'): void {
	metrics.mails.inc({ result })
}

/** Counts one newsletter send this process took over from a sender whose lease had lapsed. */
export function recordNewsletterTakeover(): void {
	metrics.takeovers.inc()
}

/** The content type of what `renderMetrics` writes. */
export const METRICS_CONTENT_TYPE = metrics.registry.contentType

export async function renderMetrics(platform: Pick<Platform, 'database' | 'jobs'>): Promise<string> {
	const outbox = (await platform.database.db.execute(sql`select status, count(*) as n from outbox_mail group by status`)) as unknown as {
		rows: { status: string; n: string | number }[]
	}
	const queues = await (await platform.jobs.boss()).getQueues()
	// Both read, then set at once: a scrape never sees half of one reading and half of another.
	const byStatus = new Map(outbox.rows.map((row) => [row.status, Number(row.n)]))
	for (const status of OUTBOX_STATUSES) metrics.outbox.set({ status }, byStatus.get(status) ?? 0)
	metrics.jobs.reset()
	for (const queue of queues) {
		const counts = { queued: queue.queuedCount, active: queue.activeCount, failed: queue.failedCount }
		for (const state of JOB_STATES) metrics.jobs.set({ queue: queue.name, state }, counts[state])
	}
	return metrics.registry.metrics()
}
