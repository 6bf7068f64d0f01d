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
import '../scripts/check-node.mjs'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import { count, sql } from 'drizzle-orm'
import { openPglite } from '../app/platform/db/client.server.ts'
import { pageViewDaily } from '../app/platform/db/schema.ts'
import { freePort, start, stop, stopAll, waitForHttp } from './processes.ts'

const ROOT = path.resolve(import.meta.dirname, '..')
const BUILD_DIR = process.env.BUILD_DIR ?? 'build-bench-views'
const BUILD = path.join(ROOT, BUILD_DIR)
const TMP = path.join(import.meta.dirname, '.tmp')
const RESULTS = path.join(import.meta.dirname, 'RESULTS-page-views.md')
const LOAD = { connections: 50, warmupSeconds: 3, seconds: 10, rounds: 3 }
const nodeBin = process.execPath
const started = new Date()
const log = (message: string) =>
	console.log(`[views bench ${((Date.now() - started.getTime()) / 1000).toFixed(0).padStart(3)} s] ${message}`)
const tempDirs: string[] = []

/** A browser opening the landing from a link on another site. */
const DOCUMENT_REQUEST = {
	'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0',
	accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
	'sec-fetch-dest': 'document',
	'sec-fetch-mode': 'navigate',
	referer: 'https://www.instagram.com/',
}

function build() {
	if (process.argv.includes('--no-build') && fs.existsSync(path.join(BUILD, 'server', 'index.js'))) return
	log(`building into ${BUILD_DIR}/`)
	const env = { ...process.env, BUILD_DIR, PATH: `${path.join(ROOT, 'node_modules/.bin')}${path.delimiter}${process.env.PATH}` }
	const run = (args: string[]) => execFileSync(nodeBin, args, { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'], timeout: 180_000 })
	run([fs.realpathSync(path.join(ROOT, 'node_modules/.bin/react-router')), 'build'])
	run([path.join(ROOT, 'scripts/compress-assets.mjs')])
}

function siteEnv(port: number, dataDir: string, pageViews: 'on' | 'off'): NodeJS.ProcessEnv {
	return {
		PATH: process.env.PATH,
		HOME: process.env.HOME,
		IGNORE_DOTENV: '1',
		NODE_ENV: 'production',
		BUILD_DIR,
		DATA_DIR: dataDir,
		PORT: String(port),
		HOST: '127.0.0.1',
		SITE_URL: `http://127.0.0.1:${port}`,
		DATABASE_URL: '',
		SMTP_URL: '',
		TRUST_PROXY: '',
		ADMIN_EMAILS: '',
		LOG_LEVEL: 'warn',
		PAGE_VIEWS: pageViews,
	}
}

interface Round {
	reqPerSec: number
	p50: number
	p99: number
	requests: number
	/** Answers with status 200 (each one a counted view). */
	ok: number
	non200: number
	errors: number
	/** The server's CPU time over the round. */
	cpuMs: number
}

const CLOCK_TICKS = (() => {
	try {
		return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
	} catch {
		return 100
	}
})()
/** User + system CPU time of a process so far, from /proc (Linux). */
function cpuMs(pid: number | undefined): number {
	if (pid === undefined) return Number.NaN
	try {
		const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
		return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS
	} catch {
		return Number.NaN
	}
}

async function cannon(url: string, seconds: number, pid?: number): Promise<Round> {
	const cpuBefore = cpuMs(pid)
	let non200 = 0
	let ok = 0
	const instance = autocannon({
		url,
		connections: LOAD.connections,
		duration: seconds,
		pipelining: 1,
		timeout: 30,
		headers: DOCUMENT_REQUEST,
	} as never)
	;(instance as unknown as { on(event: 'response', listener: (client: unknown, status: number) => void): void }).on(
		'response',
		(_c, status) => {
			if (status === 200) ok++
			else non200++
		},
	)
	const r = (await instance) as unknown as {
		requests: { average: number; total: number }
		latency: { p50: number; p99: number }
		errors: number
		timeouts: number
	}
	return {
		reqPerSec: r.requests.average,
		p50: r.latency.p50,
		p99: r.latency.p99,
		requests: r.requests.total,
		ok,
		non200,
		errors: r.errors + r.timeouts,
		cpuMs: cpuMs(pid) - cpuBefore,
	}
}

const median = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b)
	const mid = Math.floor(sorted.length / 2)
	return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

async function main() {
	fs.mkdirSync(TMP, { recursive: true })
	build()
	const servers = {} as Record<'on' | 'off', { origin: string; dataDir: string; child: ReturnType<typeof start> }>
	for (const mode of ['on', 'off'] as const) {
		const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `band-bench-views-${mode}-`))
		tempDirs.push(dataDir)
		const port = await freePort()
		const child = start(nodeBin, [path.join(ROOT, 'server/index.ts')], {
			cwd: ROOT,
			env: siteEnv(port, dataDir, mode),
			logFile: path.join(TMP, `views-server-${mode}.log`),
		})
		servers[mode] = { origin: `http://127.0.0.1:${port}`, dataDir, child }
		await waitForHttp(`http://127.0.0.1:${port}/healthz`, child, 90_000)
	}
	const rounds: Record<'on' | 'off', Round[]> = { on: [], off: [] }
	// Views the counting server must have stored: at least every 200 received, at most every request
	// sent (a request the client gave up on may still have been answered, and counted, by the server).
	let answeredByCounting = 0
	let sentToCounting = 0
	// autocannon stops with up to one request per connection in flight, which the server still answers and counts.
	let inFlightAtEnd = 0
	for (const mode of ['on', 'off'] as const) {
		log(`warming up PAGE_VIEWS=${mode}`)
		const warm = await cannon(`${servers[mode].origin}/`, LOAD.warmupSeconds)
		if (mode === 'on') inFlightAtEnd += LOAD.connections
		if (mode === 'on') {
			answeredByCounting += warm.ok
			sentToCounting += warm.ok + warm.non200 + warm.errors
		}
	}
	for (let round = 1; round <= LOAD.rounds; round++) {
		for (const mode of round % 2 ? (['on', 'off'] as const) : (['off', 'on'] as const)) {
			const result = await cannon(`${servers[mode].origin}/`, LOAD.seconds, servers[mode].child.pid)
			if (mode === 'on') inFlightAtEnd += LOAD.connections
			rounds[mode].push(result)
			if (mode === 'on') {
				answeredByCounting += result.ok
				sentToCounting += result.ok + result.non200 + result.errors
			}
			log(`round ${round} PAGE_VIEWS=${mode}: ${Math.round(result.reqPerSec)} req/s, p99 ${result.p99} ms`)
		}
	}
	// The counting server writes what it buffered as it stops; its database is then read back.
	await stop(servers.on.child)
	await stop(servers.off.child)
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
		rounds[mode].reduce((n, r) => n + r.cpuMs, 0) / rounds[mode].reduce((n, r) => n + r.ok + r.non200, 0)
	const problems = [...rounds.on, ...rounds.off].reduce((n, r) => n + r.non200 + r.errors, 0)
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
	if (!allCounted || storedOff.views !== 0) process.exitCode = 1
}

try {
	await main()
} catch (error) {
	console.error(error)
	process.exitCode = 1
} finally {
	await stopAll()
	for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true })
}
