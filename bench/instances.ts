/*
 * One machine or several: the landing and an event page under load, in one run, on
 *   - one instance on the embedded database (PGlite), as a band starts;
 *   - one instance on PostgreSQL;
 *   - two instances on one PostgreSQL behind a round-robin proxy (bench/round-robin-proxy.ts),
 *     as the site grows past one machine (here both on this machine's cores).
 *
 *   node_modules/.bin/node bench/instances.ts               (builds into build-bench-instances/ first)
 *   BUILD_DIR=build-ops node_modules/.bin/node bench/instances.ts --no-build
 *
 * Each site is seeded with the demo events (scripts/seed-demo.ts); the PostgreSQL instances share
 * one database (created and dropped here, on BENCH_POSTGRES_URL's server) and one data folder for
 * the cover files. autocannon (50 connections, no pipelining) takes every target in turn, in
 * rotating rounds. Results in bench/RESULTS-instances.md. Loopback only; every process and the
 * database made here are removed before exit.
 */
import '../scripts/check-node.mjs'
import { execFileSync, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import pg from 'pg'
import { freePort, start, stop, stopAll, waitForHttp } from './processes.ts'

const ROOT = path.resolve(import.meta.dirname, '..')
const BUILD_DIR = process.env.BUILD_DIR ?? 'build-bench-instances'
const BUILD = path.join(ROOT, BUILD_DIR)
const TMP = path.join(import.meta.dirname, '.tmp')
const RESULTS = path.join(import.meta.dirname, 'RESULTS-instances.md')
const ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const LOAD = { connections: 50, warmupSeconds: 2, seconds: 8, rounds: 3 }
const nodeBin = process.execPath
const started = new Date()
const log = (message: string) =>
	console.log(`[instances bench ${((Date.now() - started.getTime()) / 1000).toFixed(0).padStart(3)} s] ${message}`)
const tempDirs: string[] = []
let databaseName: string | undefined

function build() {
	if (process.argv.includes('--no-build') && fs.existsSync(path.join(BUILD, 'server', 'index.js'))) return
	log(`building into ${BUILD_DIR}/`)
	const env = { ...process.env, BUILD_DIR, IGNORE_DOTENV: '1' }
	execFileSync('npm', ['run', 'build'], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'], timeout: 300_000 })
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
		LOG_LEVEL: 'warn',
	}
}

function seed(dataDir: string, databaseUrl = ''): { scheduled: string } {
	const out = execFileSync(path.join(ROOT, 'node_modules/.bin/tsx'), ['scripts/seed-demo.ts'], {
		cwd: ROOT,
		env: { ...siteEnv(3000, dataDir, databaseUrl), LOG_LEVEL: 'silent' },
		encoding: 'utf8',
		timeout: 600_000,
	})
	return JSON.parse(out.trim().split('\n').at(-1)!) as { scheduled: string }
}

async function startSite(name: string, dataDir: string, databaseUrl = ''): Promise<{ origin: string; child: ChildProcess }> {
	const port = await freePort()
	const child = start(nodeBin, [path.join(ROOT, 'server/index.ts')], {
		cwd: ROOT,
		env: siteEnv(port, dataDir, databaseUrl),
		logFile: path.join(TMP, `instances-${name}.log`),
	})
	const origin = `http://127.0.0.1:${port}`
	await waitForHttp(`${origin}/healthz`, child, 120_000)
	return { origin, child }
}

const CLOCK_TICKS = (() => {
	try {
		return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
	} catch {
		return 100
	}
})()
function cpuMs(pids: (number | undefined)[]): number {
	let total = 0
	for (const pid of pids) {
		try {
			const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
			total += ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS
		} catch {
			return Number.NaN
		}
	}
	return total
}

interface Target {
	name: string
	label: string
	url: string
	/** Every process serving it (instances and proxy): their CPU per request is added up. */
	pids: (number | undefined)[]
}
interface Round {
	reqPerSec: number
	p50: number
	p99: number
	requests: number
	unexpected: number
	errors: number
	cpuMs: number
}

async function cannon(target: Target, seconds: number): Promise<Round> {
	const before = cpuMs(target.pids)
	let unexpected = 0
	const instance = autocannon({ url: target.url, connections: LOAD.connections, duration: seconds, pipelining: 1 } as never)
	instance.on('response', (_client, statusCode) => {
		if (statusCode !== 200) unexpected++
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
		unexpected,
		errors: r.errors + r.timeouts,
		cpuMs: cpuMs(target.pids) - before,
	}
}

const median = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b)
	const mid = Math.floor(sorted.length / 2)
	return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0)
const num = (n: number) => Math.round(n).toLocaleString('en-US')

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
	const client = new pg.Client({ connectionString: ADMIN_URL })
	await client.connect()
	try {
		return await run(client)
	} finally {
		await client.end()
	}
}

async function main() {
	fs.mkdirSync(TMP, { recursive: true })
	build()

	log('seeding the embedded site')
	const embeddedDir = fs.mkdtempSync(path.join(os.tmpdir(), 'band-bench-instances-'))
	tempDirs.push(embeddedDir)
	const embeddedIds = seed(embeddedDir)

	log('creating and seeding the PostgreSQL site')
	databaseName = `band_bench_${randomBytes(4).toString('hex')}`
	await admin((client) => client.query(`create database "${databaseName}"`))
	const url = new URL(ADMIN_URL)
	url.pathname = `/${databaseName}`
	const databaseUrl = url.toString()
	const sharedDir = fs.mkdtempSync(path.join(os.tmpdir(), 'band-bench-instances-'))
	tempDirs.push(sharedDir)
	const pgIds = seed(sharedDir, databaseUrl)

	log('starting the servers')
	const embedded = await startSite('pglite', embeddedDir)
	const [one, two] = await Promise.all([startSite('pg-a', sharedDir, databaseUrl), startSite('pg-b', sharedDir, databaseUrl)])
	const proxyPort = await freePort()
	const proxy = start(nodeBin, [path.join(import.meta.dirname, 'round-robin-proxy.ts'), String(proxyPort), one.origin, two.origin], {
		cwd: ROOT,
		logFile: path.join(TMP, 'instances-proxy.log'),
	})
	const proxied = `http://127.0.0.1:${proxyPort}`
	await waitForHttp(`${proxied}/healthz`, proxy)

	const setups = [
		{ key: 'pglite', label: 'one instance, PGlite', origin: embedded.origin, event: embeddedIds.scheduled, pids: [embedded.child.pid] },
		{ key: 'pg1', label: 'one instance, PostgreSQL', origin: one.origin, event: pgIds.scheduled, pids: [one.child.pid] },
		{
			key: 'pg2',
			label: 'two instances, PostgreSQL, round-robin proxy',
			origin: proxied,
			event: pgIds.scheduled,
			pids: [one.child.pid, two.child.pid, proxy.pid],
		},
	]
	const targets: Target[] = setups.flatMap((setup) => [
		{ name: `${setup.key}-landing`, label: `landing \`/\` — ${setup.label}`, url: `${setup.origin}/`, pids: setup.pids },
		{
			name: `${setup.key}-event`,
			label: `event page — ${setup.label}`,
			url: `${setup.origin}/events/${setup.event}`,
			pids: setup.pids,
		},
	])
	for (const target of targets) {
		const check = await fetch(target.url)
		await check.arrayBuffer()
		if (check.status !== 200) throw new Error(`${target.url} answered ${check.status}`)
		log(`warm-up ${target.name}`)
		await cannon(target, LOAD.warmupSeconds)
	}
	const rounds = new Map<string, Round[]>(targets.map((t) => [t.name, []]))
	for (let round = 0; round < LOAD.rounds; round++) {
		for (let k = 0; k < targets.length; k++) {
			const target = targets[(k + round) % targets.length]!
			const result = await cannon(target, LOAD.seconds)
			rounds.get(target.name)!.push(result)
			log(`round ${round + 1} ${target.name}: ${num(result.reqPerSec)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms`)
		}
	}
	await Promise.all([stop(embedded.child), stop(one.child), stop(two.child), stop(proxy)])

	const rps = (name: string) => median(rounds.get(name)!.map((r) => r.reqPerSec))
	const cpu = (name: string) => sum(rounds.get(name)!.map((r) => r.cpuMs)) / sum(rounds.get(name)!.map((r) => r.requests))
	const out: string[] = ['# One instance or two', '']
	out.push(
		`Written by \`node bench/instances.ts\`; ${started.toISOString()}; ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? '?'}; Node ${process.version}; build \`${BUILD_DIR}/\`; load average ${os.loadavg()[0]?.toFixed(1)} at the end.`,
		'',
		`Method: autocannon, ${LOAD.connections} connections, no pipelining, on 127.0.0.1; ${LOAD.warmupSeconds} s warm-up per target, then ${LOAD.rounds} rounds of ${LOAD.seconds} s taking the targets in turn (rotating order). Every site is a production build seeded with the demo events; the event page has a ready cover. The two PostgreSQL instances share one database and sit behind bench/round-robin-proxy.ts (kept-alive upstream connections). All processes, the load generator included, share this machine's cores, so two instances here measure the overhead of the shared database and the proxy, not the gain of a second machine. CPU per request adds up every serving process (both instances and the proxy).`,
		'',
		'| target | req/s (median round) | rounds | p50 | p99 | CPU per request | non-200 / errors |',
		'| --- | ---: | --- | ---: | ---: | ---: | ---: |',
	)
	for (const target of targets) {
		const r = rounds.get(target.name)!
		out.push(
			`| ${target.label} | **${num(rps(target.name))}** | ${r.map((x) => num(x.reqPerSec)).join(' / ')} | ${median(r.map((x) => x.p50))} ms | ${median(r.map((x) => x.p99))} ms | ${cpu(target.name).toFixed(2)} ms | ${sum(r.map((x) => x.unexpected))} / ${sum(r.map((x) => x.errors))} |`,
		)
	}
	out.push('')
	for (const page of ['landing', 'event']) {
		out.push(
			`- ${page === 'landing' ? 'Landing' : 'Event page'}: PostgreSQL ÷ PGlite = **${(rps(`pg1-${page}`) / rps(`pglite-${page}`)).toFixed(2)}×**, two behind the proxy ÷ one on PostgreSQL = **${(rps(`pg2-${page}`) / rps(`pg1-${page}`)).toFixed(2)}×** in req/s.`,
		)
	}
	out.push('')
	fs.writeFileSync(RESULTS, out.join('\n'))
	log(`wrote ${path.relative(ROOT, RESULTS)}`)
	console.log(out.slice(4).join('\n'))
}

async function cleanup() {
	await stopAll()
	for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true })
	if (databaseName) await admin((client) => client.query(`drop database if exists "${databaseName}" with (force)`)).catch(() => {})
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
