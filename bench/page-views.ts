/*
 * What counting page views costs the landing page, measured in one run:
 *
 *   node_modules/.bin/node bench/page-views.ts             (builds into build-bench-views/ first)
 *   BUILD_DIR=build node_modules/.bin/node bench/page-views.ts --no-build
 *
 * Two servers on the same build, each on a fresh data folder: one with PAGE_VIEWS=on, one with
 * PAGE_VIEWS=off. autocannon (50 connections) loads the landing with a browser's document request
 * (user agent, Accept, Sec-Fetch-Dest, a referring site), so that every request of the first server
 * is a page view to count; the two are measured in interleaved rounds. Afterwards the counting
 * server is stopped (it writes what it buffered) and its database read back: the views stored must
 * equal the requests it answered. Writes bench/RESULTS-page-views.md. Loopback only; every process
 * started here is stopped before exit.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { count, sql } from 'drizzle-orm'
import { openPglite } from '../app/platform/db/client.server.ts'
import { pageViewDaily } from '../app/platform/db/schema.ts'
import { stop } from './processes.ts'
import {
	buildSite,
	cannon,
	loadPlan,
	makeLog,
	median,
	runBench,
	startSite,
	tempDir,
	type Round,
	type RunningSite,
	type Target,
} from './support/harness.ts'

const BUILD_DIR = process.env.BUILD_DIR ?? 'build-bench-views'
const RESULTS = path.join(import.meta.dirname, 'RESULTS-page-views.md')
const LOAD = loadPlan({ warmupSeconds: 3, seconds: 10, rounds: 3 })
const started = new Date()
const log = makeLog('views bench', started.getTime())

/** A browser opening the landing from a link on another site. */
const DOCUMENT_REQUEST = {
	'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0',
	accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
	'sec-fetch-dest': 'document',
	'sec-fetch-mode': 'navigate',
	referer: 'https://www.instagram.com/',
}

await runBench(async () => {
	buildSite(BUILD_DIR, { log })
	const servers = {} as Record<'on' | 'off', { dataDir: string; site: RunningSite; target: Target }>
	for (const mode of ['on', 'off'] as const) {
		const dataDir = tempDir(`band-bench-views-${mode}-`)
		const site = await startSite(`views-server-${mode}`, { buildDir: BUILD_DIR, dataDir, env: { PAGE_VIEWS: mode } })
		servers[mode] = { dataDir, site, target: { name: mode, url: `${site.origin}/`, pids: [site.pid], headers: DOCUMENT_REQUEST } }
	}
	const load = { connections: LOAD.connections, timeoutSeconds: 30 }
	const rounds: Record<'on' | 'off', Round[]> = { on: [], off: [] }
	// Views the counting server must have stored: at least every 200 received, at most every request
	// sent (a request the client gave up on may still have been answered, and counted, by the server).
	let answeredByCounting = 0
	let sentToCounting = 0
	// autocannon stops with up to one request per connection in flight, which the server still answers and counts.
	let inFlightAtEnd = 0
	for (const mode of ['on', 'off'] as const) {
		log(`warming up PAGE_VIEWS=${mode}`)
		const warm = await cannon(servers[mode].target, LOAD.warmupSeconds, load)
		if (mode === 'on') inFlightAtEnd += LOAD.connections
		if (mode === 'on') {
			answeredByCounting += warm.ok
			sentToCounting += warm.ok + warm.unexpected + warm.errors
		}
	}
	for (let round = 1; round <= LOAD.rounds; round++) {
		for (const mode of round % 2 ? (['on', 'off'] as const) : (['off', 'on'] as const)) {
			const result = await cannon(servers[mode].target, LOAD.seconds, load)
			if (mode === 'on') inFlightAtEnd += LOAD.connections
			rounds[mode].push(result)
			if (mode === 'on') {
				answeredByCounting += result.ok
				sentToCounting += result.ok + result.unexpected + result.errors
			}
			log(`round ${round} PAGE_VIEWS=${mode}: ${Math.round(result.reqPerSec)} req/s, p99 ${result.p99} ms`)
		}
	}
	// The counting server writes what it buffered as it stops; its database is then read back.
	await stop(servers.on.site.child)
	await stop(servers.off.site.child)
	const readViews = async (dataDir: string) => {
		const database = await openPglite(dataDir)
		try {
			const [row] = await database.db
				.select({ views: sql<number>`coalesce(sum(${pageViewDaily.views}), 0)::int`, rows: count() })
				.from(pageViewDaily)
			return row ?? { views: 0, rows: 0 }
		} finally {
			await database.close()
		}
	}
	const stored = await readViews(servers.on.dataDir)
	const storedOff = await readViews(servers.off.dataDir)

	const allCounted = stored.views >= answeredByCounting && stored.views <= sentToCounting + inFlightAtEnd
	const on = median(rounds.on.map((r) => r.reqPerSec))
	const off = median(rounds.off.map((r) => r.reqPerSec))
	const p99 = (mode: 'on' | 'off') => median(rounds[mode].map((r) => r.p99))
	const cpuPerRequest = (mode: 'on' | 'off') =>
		rounds[mode].reduce((n, r) => n + r.cpuMs, 0) / rounds[mode].reduce((n, r) => n + r.ok + r.unexpected, 0)
	const problems = [...rounds.on, ...rounds.off].reduce((n, r) => n + r.unexpected + r.errors, 0)
	const lines = [
		'# Page-view counting: the landing with counting on and off',
		'',
		`Run ${started.toISOString()} on ${os.cpus().length} CPU(s), ${os.cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}.`,
		`autocannon: ${LOAD.connections} connections, ${LOAD.rounds} interleaved rounds of ${LOAD.seconds} s (after ${LOAD.warmupSeconds} s of warm-up each),`,
		'every request a browser document request from another site (each one a page view to count).',
		'',
		'| server | req/s (median) | p99 latency (ms) | server CPU per request (ms) |',
		'| --- | ---: | ---: | ---: |',
		`| PAGE_VIEWS=on | ${Math.round(on)} | ${p99('on')} | ${cpuPerRequest('on').toFixed(2)} |`,
		`| PAGE_VIEWS=off | ${Math.round(off)} | ${p99('off')} | ${cpuPerRequest('off').toFixed(2)} |`,
		'',
		`**Ratio on/off: ${(on / off).toFixed(2)} in req/s, ${(cpuPerRequest('on') / cpuPerRequest('off')).toFixed(2)} in CPU per request** (1.00 = counting costs nothing measurable;`,
		`req/s moves with whatever else the machine runs, CPU per request hardly does). Machine load average at the end: ${os.loadavg()[0]!.toFixed(1)}.`,
		'',
		`Views stored by the counting server: ${stored.views} in ${stored.rows} row(s), for ${answeredByCounting} pages received with status 200` +
			` out of ${sentToCounting} requests sent (+ up to ${inFlightAtEnd} still in flight when each load stopped) (${allCounted ? 'none lost' : 'VIEWS LOST OR INVENTED'}); the server with PAGE_VIEWS=off stored ${storedOff.views}.`,
		`Non-200 answers, errors or client timeouts under load: ${problems}${problems ? ' (the machine was busy: other work shares its CPUs)' : ''}.`,
		'',
	]
	fs.writeFileSync(RESULTS, lines.join('\n'))
	console.log(lines.join('\n'))
	return !allCounted || storedOff.views !== 0 ? 1 : 0
})
