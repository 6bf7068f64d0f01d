/*
 * The public pages against static files, on both databases, with memory and start-up:
 *
 *   node_modules/.bin/node bench/pages.ts                  (builds into build-bench-pages/ first)
 *   BUILD_DIR=build-x node_modules/.bin/node bench/pages.ts --no-build
 *   BENCH_SECONDS=10 BENCH_ROUNDS=3 …                      (longer rounds; defaults 5 s × 2)
 *   BENCH_POSTGRES_URL=postgres://…/postgres …             (an admin URL: a database is created and
 *                                                           dropped; default the tests' own server)
 *
 * For each database: a fresh data folder (and database) seeded with the demo events, our server
 * started on it (spawn → first /healthz answer = start-up), its resident memory after 5 s idle,
 * then for `/`, `/events`, an event page with a cover and `/auth/signin`: the SSR page for an
 * anonymous visitor (as a browser asks: Accept-Encoding br) against the very bytes it returned,
 * served as a static file by plain node:http (bench/static-server.ts), in interleaved rounds so that
 * other work on the machine weighs on both alike. The server's resident memory is sampled every
 * 200 ms through the load: peak and growth over idle. Results: bench/RESULTS-pages.md.
 * Loopback only; every process and database started here is removed before exit.
 */
import '../scripts/check-node.mjs'
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import pg from 'pg'
import { freePort, start, stop, stopAll, waitForHttp } from './processes.ts'

const ROOT = path.resolve(import.meta.dirname, '..')
const BUILD_DIR = process.env.BUILD_DIR ?? 'build-bench-pages'
const BUILD = path.join(ROOT, BUILD_DIR)
const TMP = path.join(import.meta.dirname, '.tmp')
const RESULTS = path.join(import.meta.dirname, 'RESULTS-pages.md')
const LOAD = {
	connections: 50,
	warmupSeconds: 2,
	seconds: Number(process.env.BENCH_SECONDS ?? 5),
	rounds: Number(process.env.BENCH_ROUNDS ?? 2),
}
const POSTGRES_ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const nodeBin = process.execPath
const started = new Date()
const log = (message: string) =>
	console.log(`[pages bench ${((Date.now() - started.getTime()) / 1000).toFixed(0).padStart(3)} s] ${message}`)
const cleanups: (() => Promise<void> | void)[] = []

function build() {
	if (process.argv.includes('--no-build') && fs.existsSync(path.join(BUILD, 'server', 'index.js'))) return
	log(`building into ${BUILD_DIR}/`)
	const env = { ...process.env, BUILD_DIR, PATH: `${path.join(ROOT, 'node_modules/.bin')}${path.delimiter}${process.env.PATH}` }
	execFileSync(nodeBin, [fs.realpathSync(path.join(ROOT, 'node_modules/.bin/react-router')), 'build'], {
		cwd: ROOT,
		env,
		stdio: ['ignore', 'ignore', 'inherit'],
		timeout: 300_000,
	})
	execFileSync(nodeBin, [path.join(ROOT, 'scripts/compress-assets.mjs')], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] })
}

function siteEnv(port: number, dataDir: string, databaseUrl = ''): NodeJS.ProcessEnv {
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
		DATABASE_URL: databaseUrl,
		SMTP_URL: '',
		TRUST_PROXY: '',
		ADMIN_EMAILS: '',
		S3_BUCKET: '',
		LOG_LEVEL: 'warn',
	}
}

const CLOCK_TICKS = (() => {
	try {
		return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
	} catch {
		return 100
	}
})()
function cpuMs(pid: number | undefined): number {
	try {
		const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
		return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS
	} catch {
		return Number.NaN
	}
}
function rssMb(pid: number | undefined): number {
	try {
		const kb = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
		return Number(kb) / 1024
	} catch {
		return Number.NaN
	}
}

interface Round {
	reqPerSec: number
	p50: number
	p99: number
	requests: number
	bad: number
	cpuMs: number
}
interface Target {
	page: string
	kind: 'ssr' | 'static'
	url: string
	pid: number | undefined
}

async function cannon(target: Target, seconds: number): Promise<Round> {
	const before = cpuMs(target.pid)
	let bad = 0
	const instance = autocannon({
		url: target.url,
		connections: LOAD.connections,
		duration: seconds,
		pipelining: 1,
		headers: { 'accept-encoding': 'br' },
	} as never)
	instance.on('response', (_client, statusCode) => {
		if (statusCode !== 200) bad++
	})
	const r = (await instance) as {
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
		bad: bad + r.errors + r.timeouts,
		cpuMs: cpuMs(target.pid) - before,
	}
}

const median = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b)
	const mid = Math.floor(sorted.length / 2)
	return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0)
const num = (n: number) => Math.round(n).toLocaleString('en-US')

interface DatabaseRun {
	kind: 'PGlite' | 'PostgreSQL'
	startMs: number
	idleMb: number
	peakMb: number
	loadSeconds: number
	rounds: Map<string, Round[]>
	sizes: Map<string, number>
}

async function createPostgresDatabase(): Promise<string> {
	const name = `band_bench_${randomBytes(4).toString('hex')}`
	const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 5_000 })
	await admin.connect()
	await admin.query(`create database ${name}`)
	await admin.end()
	cleanups.push(async () => {
		const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL })
		await client.connect()
		await client.query(`drop database if exists ${name} with (force)`)
		await client.end()
	})
	const url = new URL(POSTGRES_ADMIN_URL)
	url.pathname = `/${name}`
	return url.href
}

async function measure(kind: DatabaseRun['kind']): Promise<DatabaseRun> {
	const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'band-bench-pages-'))
	cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }))
	const databaseUrl = kind === 'PostgreSQL' ? await createPostgresDatabase() : ''
	const port = await freePort()
	const origin = `http://127.0.0.1:${port}`
	log(`${kind}: seeding the demo events`)
	const seeded = execFileSync(path.join(ROOT, 'node_modules/.bin/tsx'), ['scripts/seed-demo.ts'], {
		cwd: ROOT,
		env: { ...siteEnv(port, dataDir, databaseUrl), LOG_LEVEL: 'silent' },
		encoding: 'utf8',
		timeout: 300_000,
	})
	const ids = JSON.parse(seeded.trim().split('\n').at(-1)!) as { scheduled: string }

	log(`${kind}: starting our server`)
	const spawnedAt = performance.now()
	const ours = start(nodeBin, [path.join(ROOT, 'server/index.ts')], {
		cwd: ROOT,
		env: siteEnv(port, dataDir, databaseUrl),
		logFile: path.join(TMP, `pages-server-${kind}.log`),
	})
	await waitForHttp(`${origin}/healthz`, ours, 120_000)
	const startMs = performance.now() - spawnedAt
	await new Promise((resolve) => setTimeout(resolve, 5_000))
	const idleMb = rssMb(ours.pid)

	const pages = ['/', '/events', `/events/${ids.scheduled}`, '/auth/signin']
	const targets: Target[] = []
	const sizes = new Map<string, number>()
	const statics = []
	for (const page of pages) {
		// The bytes as our server sent them (brotli): the static server streams the file as is.
		const { status, body: raw } = await rawBody(origin + page)
		if (status !== 200 || raw.length === 0) throw new Error(`${page} answered ${status} with ${raw.length} bytes`)
		sizes.set(page, raw.length)
		const file = path.join(TMP, `page-${pages.indexOf(page)}.br`)
		fs.writeFileSync(file, raw)
		const staticPort = await freePort()
		const staticServer = start(nodeBin, [path.join(import.meta.dirname, 'static-server.ts'), file, String(staticPort)], { cwd: ROOT })
		await waitForHttp(`http://127.0.0.1:${staticPort}/`, staticServer)
		statics.push(staticServer)
		targets.push({ page, kind: 'ssr', url: origin + page, pid: ours.pid })
		targets.push({ page, kind: 'static', url: `http://127.0.0.1:${staticPort}/`, pid: staticServer.pid })
	}

	let peakMb = idleMb
	const sampler = setInterval(() => {
		const now = rssMb(ours.pid)
		if (now > peakMb) peakMb = now
	}, 200)
	const loadStarted = performance.now()
	for (const target of targets) await cannon(target, LOAD.warmupSeconds)
	const rounds = new Map<string, Round[]>(targets.map((t) => [`${t.kind} ${t.page}`, []]))
	for (let round = 0; round < LOAD.rounds; round++) {
		for (let k = 0; k < pages.length; k++) {
			const page = pages[(k + round) % pages.length]!
			// The page and its static copy back to back, in alternating order.
			const pair = targets.filter((t) => t.page === page)
			if (round % 2) pair.reverse()
			for (const target of pair) {
				const result = await cannon(target, LOAD.seconds)
				rounds.get(`${target.kind} ${target.page}`)!.push(result)
				log(
					`${kind} round ${round + 1} ${target.kind} ${page}: ${num(result.reqPerSec)} req/s, p99 ${result.p99} ms, ${(result.cpuMs / result.requests).toFixed(3)} ms CPU/request, bad ${result.bad}`,
				)
			}
		}
	}
	clearInterval(sampler)
	const loadSeconds = (performance.now() - loadStarted) / 1000
	await Promise.all([stop(ours), ...statics.map((s) => stop(s))])
	return { kind, startMs, idleMb, peakMb, loadSeconds, rounds, sizes }
}

/** The body as sent, without fetch()'s decoding (the static copy must be the same bytes). */
async function rawBody(url: string): Promise<{ status: number; body: Buffer }> {
	const http = await import('node:http')
	return new Promise((resolve, reject) => {
		http
			.get(url, { headers: { 'accept-encoding': 'br' } }, (res) => {
				const chunks: Buffer[] = []
				res.on('data', (chunk: Buffer) => chunks.push(chunk))
				res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }))
				res.on('error', reject)
			})
			.on('error', reject)
	})
}

function report(runs: DatabaseRun[]): string {
	const out: string[] = ['# Public pages against static files, memory and start-up', '']
	out.push(
		`Written by \`node bench/pages.ts\`; ${started.toISOString()}; ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? '?'}; Node ${process.version}; build \`${BUILD_DIR}/\`; load average ${os.loadavg()[0]?.toFixed(1)} at the end (other processes share the cores: absolute req/s are noisy, ratios taken side by side much less).`,
		'',
		`Method: autocannon, ${LOAD.connections} connections, no pipelining, \`Accept-Encoding: br\`, on 127.0.0.1; a ${LOAD.warmupSeconds} s warm-up per target, then ${LOAD.rounds} rounds of ${LOAD.seconds} s; in each round every page and its static copy run back to back. The static copy is the exact bytes our server answered (brotli), streamed from disk per request by bench/static-server.ts. CPU per request: the server process's user + system time (/proc) over its rounds ÷ requests. Memory: VmRSS of the server, after 5 s idle, and its peak sampled every 200 ms through warm-ups and rounds.`,
		'',
	)
	for (const run of runs) {
		const rps = (key: string) => median(run.rounds.get(key)!.map((r) => r.reqPerSec))
		const cpu = (key: string) => sum(run.rounds.get(key)!.map((r) => r.cpuMs)) / sum(run.rounds.get(key)!.map((r) => r.requests))
		out.push(`## ${run.kind}`, '')
		out.push(
			`Start-up (spawn → first /healthz answer, migrated and seeded folder): **${(run.startMs / 1000).toFixed(1)} s**. Resident memory: **${num(run.idleMb)} MB** idle, **${num(run.peakMb)} MB** peak under ${num(run.loadSeconds)} s of load (growth ${num(run.peakMb - run.idleMb)} MB).`,
			'',
		)
		out.push(
			'| page | bytes (br) | SSR req/s | static req/s | SSR ÷ static | SSR p50 / p99 | static p50 / p99 | SSR CPU/request | static CPU/request | non-200 / errors |',
		)
		out.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |')
		for (const page of run.sizes.keys()) {
			const ssr = run.rounds.get(`ssr ${page}`)!
			const st = run.rounds.get(`static ${page}`)!
			const label = page.startsWith('/events/') ? '/events/:id (cover)' : page
			out.push(
				`| \`${label}\` | ${num(run.sizes.get(page)!)} | ${num(rps(`ssr ${page}`))} | ${num(rps(`static ${page}`))} | **${(rps(`ssr ${page}`) / rps(`static ${page}`)).toFixed(2)}** | ${median(ssr.map((r) => r.p50))} / ${median(ssr.map((r) => r.p99))} ms | ${median(st.map((r) => r.p50))} / ${median(st.map((r) => r.p99))} ms | ${cpu(`ssr ${page}`).toFixed(3)} ms | ${cpu(`static ${page}`).toFixed(3)} ms | ${sum([...ssr, ...st].map((r) => r.bad))} |`,
			)
		}
		out.push('')
	}
	return out.join('\n')
}

async function main() {
	fs.mkdirSync(TMP, { recursive: true })
	build()
	const runs: DatabaseRun[] = [await measure('PGlite')]
	try {
		runs.push(await measure('PostgreSQL'))
	} catch (error) {
		log(`PostgreSQL not measured: ${(error as Error).message}`)
	}
	const text = report(runs)
	fs.writeFileSync(RESULTS, text + '\n')
	log(`wrote ${path.relative(ROOT, RESULTS)}`)
	console.log(text)
}

async function cleanup() {
	await stopAll()
	for (const run of cleanups.reverse()) await Promise.resolve(run()).catch(() => {})
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
	process.once(signal, () => void cleanup().finally(() => process.exit(130)))
}
let code = 0
try {
	await main()
} catch (error) {
	console.error(error)
	code = 1
}
await cleanup()
process.exit(code)
