/*
 * What every bench script shares: building the site into a folder of its own, the environment of a
 * site process, seeding the demo events, starting our server or the static baseline, a throwaway
 * PostgreSQL database, the load rounds (autocannon + CPU time from /proc) and their statistics, and
 * the run's clean-up on exit or Ctrl-C. One copy here, so that every figure of bench/ is measured
 * the same way.
 */
import '../../scripts/check-node.mjs'
import { execFileSync, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import pg from 'pg'
import { freePort, start, startPiped, stopAll, waitForHttp } from '../processes.ts'

export const ROOT = path.resolve(import.meta.dirname, '..', '..')
/** Server logs and saved pages (git-ignored). */
export const TMP = path.join(ROOT, 'bench', '.tmp')
export const nodeBin = process.execPath
export const CHROMIUM = '/usr/bin/chromium'
export const CHROMIUM_FLAGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
]
export const DEFAULT_POSTGRES_ADMIN_URL =
	process.env.BENCH_POSTGRES_URL ?? process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'

/** A log line prefixed with the bench's name and the seconds since it started. */
export function makeLog(name: string, started = Date.now()) {
	return (message: string) => console.log(`[${name} ${((Date.now() - started) / 1000).toFixed(0).padStart(3)} s] ${message}`)
}

// ---------------------------------------------------------------------------------------------
// Clean-up

const cleanups: (() => Promise<unknown> | unknown)[] = []
/** Run at exit (last registered first), after every child process is stopped. */
export function onCleanup(run: () => Promise<unknown> | unknown) {
	cleanups.push(run)
}
export function tempDir(prefix: string): string {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
	onCleanup(() => fs.rmSync(dir, { recursive: true, force: true }))
	return dir
}
export async function cleanup() {
	await stopAll()
	for (const run of cleanups.splice(0).reverse()) await Promise.resolve(run()).catch(() => {})
}

/**
 * Runs a bench's main: Ctrl-C and SIGTERM clean up (exit 130), an error is printed (exit 1), and
 * the process exits with `main`'s code (or process.exitCode) once everything is cleaned up.
 */
export async function runBench(main: () => Promise<number | void>): Promise<never> {
	for (const signal of ['SIGINT', 'SIGTERM'] as const) {
		process.once(signal, () => void cleanup().finally(() => process.exit(130)))
	}
	fs.mkdirSync(TMP, { recursive: true })
	let code = 0
	try {
		code = (await main()) ?? Number(process.exitCode ?? 0)
	} catch (error) {
		console.error(error)
		code = 1
	}
	await cleanup()
	process.exit(code)
}

// ---------------------------------------------------------------------------------------------
// The site

/**
 * `react-router build` into `buildDir`, then the .br/.gz siblings as `npm run build` makes them.
 * With `--no-build` on the command line an existing build is reused. `sourcemaps`: the client maps
 * are made ("hidden": the same code) and moved to `<buildDir>/sourcemaps/`, out of the served folder.
 * `serverSourcemaps`: the server bundle's maps beside it (to read a CPU profile by source file).
 */
export function buildSite(
	buildDir: string,
	options: { sourcemaps?: boolean; serverSourcemaps?: boolean; log?: (message: string) => void } = {},
) {
	const build = path.join(ROOT, buildDir)
	if (process.argv.includes('--no-build') && fs.existsSync(path.join(build, 'server', 'index.js'))) return
	options.log?.(`building into ${buildDir}/`)
	fs.rmSync(build, { recursive: true, force: true })
	const env = { ...process.env, BUILD_DIR: buildDir, PATH: `${path.join(ROOT, 'node_modules/.bin')}${path.delimiter}${process.env.PATH}` }
	const run = (args: string[]) => execFileSync(nodeBin, args, { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'], timeout: 300_000 })
	run([
		fs.realpathSync(path.join(ROOT, 'node_modules/.bin/react-router')),
		'build',
		...(options.sourcemaps ? ['--sourcemapClient', 'hidden'] : []),
		...(options.serverSourcemaps ? ['--sourcemapServer'] : []),
	])
	if (options.sourcemaps) {
		const maps = path.join(build, 'sourcemaps')
		const assets = path.join(build, 'client', 'assets')
		fs.mkdirSync(maps, { recursive: true })
		for (const file of fs.readdirSync(assets)) if (file.endsWith('.map')) fs.renameSync(path.join(assets, file), path.join(maps, file))
	}
	run([path.join(ROOT, 'scripts/compress-assets.mjs')])
}

/** Where bench/bare/ (a React Router app with one route and one paragraph) is built. */
export const BARE_BUILD_DIR = path.join(ROOT, 'build-bench-bare')

/** `react-router build` of bench/bare/ into BARE_BUILD_DIR (kept with `--no-build` when there). */
export function buildBareApp(options: { log?: (message: string) => void } = {}) {
	if (process.argv.includes('--no-build') && fs.existsSync(path.join(BARE_BUILD_DIR, 'server', 'index.js'))) return
	options.log?.('building bench/bare/')
	fs.rmSync(BARE_BUILD_DIR, { recursive: true, force: true })
	execFileSync(nodeBin, [fs.realpathSync(path.join(ROOT, 'node_modules/.bin/react-router')), 'build'], {
		cwd: path.join(ROOT, 'bench', 'bare'),
		env: { ...process.env, NODE_ENV: 'production', BUILD_DIR: BARE_BUILD_DIR },
		stdio: ['ignore', 'ignore', 'inherit'],
		timeout: 120_000,
	})
}

export interface SiteOptions {
	buildDir: string
	dataDir: string
	port: number
	/** Empty: the embedded PGlite in dataDir. */
	databaseUrl?: string
	/** Added to (or overriding) the defaults below. */
	env?: NodeJS.ProcessEnv
}

/**
 * The environment of a site process: production, embedded defaults, loopback. Service variables are
 * blanked rather than removed, so that a .env file cannot fill them in and point the bench at real
 * services.
 */
export function siteEnv(options: SiteOptions): NodeJS.ProcessEnv {
	return {
		PATH: process.env.PATH,
		HOME: process.env.HOME,
		TMPDIR: os.tmpdir(),
		IGNORE_DOTENV: '1',
		NODE_ENV: 'production',
		BUILD_DIR: options.buildDir,
		DATA_DIR: options.dataDir,
		PORT: String(options.port),
		HOST: '127.0.0.1',
		SITE_URL: `http://127.0.0.1:${options.port}`,
		DATABASE_URL: options.databaseUrl ?? '',
		SMTP_URL: '',
		TRUST_PROXY: '',
		ADMIN_EMAILS: '',
		S3_BUCKET: '',
		LOG_LEVEL: 'warn',
		...options.env,
	}
}

/**
 * scripts/seed-demo.ts on that data folder (and database): the ids of the demo events it made.
 * `args`: the script's own options (`--admin email:password`).
 */
export function seedDemo(options: Omit<SiteOptions, 'port'>, args: string[] = []): { scheduled: string } {
	const out = execFileSync(path.join(ROOT, 'node_modules/.bin/tsx'), ['scripts/seed-demo.ts', ...args], {
		cwd: ROOT,
		env: { ...siteEnv({ ...options, port: 3000 }), LOG_LEVEL: 'silent' },
		encoding: 'utf8',
		timeout: 600_000,
	})
	return JSON.parse(out.trim().split('\n').at(-1)!) as { scheduled: string }
}

export interface RunningSite {
	origin: string
	child: ChildProcess
	pid: number | undefined
	/** Spawn → first /healthz answer. */
	startMs: number
}

/**
 * Our server (server/index.ts) on a free port, once /healthz answers; its output goes to
 * bench/.tmp/<name>.log. `nodeArgs`: options for Node itself (`--inspect=…`).
 */
export async function startSite(
	name: string,
	options: Omit<SiteOptions, 'port'> & {
		nodeArgs?: string[]
		/** Another checkout's server (its own buildDir inside it). */ root?: string
		/** Another Node binary than the bench's own. */ node?: string
	},
): Promise<RunningSite> {
	const port = await freePort()
	const spawnedAt = performance.now()
	const root = options.root ?? ROOT
	const child = start(options.node ?? nodeBin, [...(options.nodeArgs ?? []), path.join(root, 'server/index.ts')], {
		cwd: root,
		env: siteEnv({ ...options, port }),
		logFile: path.join(TMP, `${name}.log`),
	})
	const origin = `http://127.0.0.1:${port}`
	await waitForHttp(`${origin}/healthz`, child, 120_000)
	return { origin, child, pid: child.pid, startMs: performance.now() - spawnedAt }
}

/** bench/static-server.ts serving `file` (the baseline: plain node:http, streamed from disk). */
/** Signs in through the form as a browser would; the cookies the site set, as a Cookie header. */
export async function signIn(origin: string, email: string, password: string): Promise<string> {
	const response = await fetch(`${origin}/auth/signin`, {
		method: 'POST',
		redirect: 'manual',
		headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams({ email, password, redirectTo: '/dashboard' }),
	})
	await response.arrayBuffer()
	const cookies = response.headers.getSetCookie().map((line) => line.split(';')[0]!)
	if (response.status !== 302 || !cookies.some((c) => c.includes('session_token=')))
		throw new Error(`sign-in answered ${response.status} without a session cookie`)
	return cookies.join('; ')
}

export async function startStatic(file: string): Promise<RunningSite> {
	const port = await freePort()
	const spawnedAt = performance.now()
	const child = start(nodeBin, [path.join(ROOT, 'bench/static-server.ts'), file, String(port)], { cwd: ROOT })
	const origin = `http://127.0.0.1:${port}`
	await waitForHttp(`${origin}/`, child)
	return { origin, child, pid: child.pid, startMs: performance.now() - spawnedAt }
}

/** Debian's Chromium, headless, with a DevTools port on 127.0.0.1 (for Lighthouse and Playwright). */
export async function startChromium() {
	const profile = tempDir('band-bench-chromium-')
	const child = startPiped(CHROMIUM, [...CHROMIUM_FLAGS, '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'])
	const port = await new Promise<number>((resolve, reject) => {
		let seen = ''
		const timer = setTimeout(() => reject(new Error(`Chromium gave no DevTools address in 30 s:\n${seen.slice(-2000)}`)), 30_000)
		child.stderr!.setEncoding('utf8')
		child.stderr!.on('data', (text: string) => {
			seen += text
			const match = /DevTools listening on ws:\/\/127\.0\.0\.1:(\d+)\//.exec(seen)
			if (match) {
				clearTimeout(timer)
				resolve(Number(match[1]))
			}
		})
		child.once('exit', (code) => reject(new Error(`Chromium exited (code ${code}) at start:\n${seen.slice(-2000)}`)))
	})
	child.stderr!.resume() // keep draining
	const version = (await (await fetch(`http://127.0.0.1:${port}/json/version`)).json()) as { Browser?: string }
	return { child, port, version: version.Browser ?? 'unknown' }
}

/** A fresh database on the PostgreSQL server of `adminUrl`, dropped at clean-up; its URL. */
export async function createPostgresDatabase(adminUrl = DEFAULT_POSTGRES_ADMIN_URL, prefix = 'band_bench'): Promise<string> {
	const name = `${prefix}_${randomBytes(4).toString('hex')}`
	const admin = async (sql: string) => {
		const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5_000 })
		await client.connect()
		try {
			await client.query(sql)
		} finally {
			await client.end()
		}
	}
	await admin(`create database "${name}"`)
	onCleanup(() => admin(`drop database if exists "${name}" with (force)`))
	const url = new URL(adminUrl)
	url.pathname = `/${name}`
	return url.href
}

// ---------------------------------------------------------------------------------------------
// Processes: CPU time and memory from /proc

const CLOCK_TICKS = (() => {
	try {
		return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
	} catch {
		return 100
	}
})()

/** User + system CPU time the processes have used so far, in ms (NaN when one is gone). */
export function cpuMs(...pids: (number | undefined)[]): number {
	let total = 0
	for (const pid of pids) {
		if (pid === undefined) return Number.NaN
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

/** Resident memory of a process, in MB (NaN when it is gone). */
export function rssMb(pid: number | undefined): number {
	try {
		const kb = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
		return Number(kb) / 1024
	} catch {
		return Number.NaN
	}
}

/** CPU time the whole machine spent busy so far (all cores), in ms, from /proc/stat. */
export function machineBusyMs(): number {
	try {
		const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!
		const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number)
		return (((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) * 1000) / CLOCK_TICKS
	} catch {
		return Number.NaN
	}
}

// ---------------------------------------------------------------------------------------------
// Load

export interface Target {
	name: string
	url: string
	/** Every process serving it (instances, proxy): their CPU time is added up. */
	pids: (number | undefined)[]
	headers?: Record<string, string>
	/** The status every answer should have (default 200). */
	status?: number
}

export interface Round {
	reqPerSec: number
	p50: number
	p99: number
	maxLatency: number
	requests: number
	/** Answers with the expected status. */
	ok: number
	/** Answers with another status. */
	unexpected: number
	/** Connection errors and timeouts. */
	errors: number
	/** CPU time of the target's processes over the round. */
	cpuMs: number
	/** Responses of the least and of the most served connection. */
	fewestPerConnection: number
	mostPerConnection: number
}

export type CannonResult = {
	requests: { average: number; total: number }
	latency: { p50: number; p99: number; max: number }
	errors: number
	timeouts: number
}

/** The figures of a Round that autocannon's result gives, however it was run. */
export function cannonFigures(r: CannonResult) {
	return {
		reqPerSec: r.requests.average,
		p50: r.latency.p50,
		p99: r.latency.p99,
		maxLatency: r.latency.max,
		requests: r.requests.total,
		errors: r.errors + r.timeouts,
	}
}

/** One autocannon run on a target (no pipelining), with the CPU its processes spent meanwhile. */
export async function cannon(
	target: Target,
	seconds: number,
	options: { connections?: number; timeoutSeconds?: number } = {},
): Promise<Round> {
	const connections = options.connections ?? 50
	const before = cpuMs(...target.pids)
	let ok = 0
	let unexpected = 0
	const perClient = new Map<object, number>()
	const instance = autocannon({
		url: target.url,
		connections,
		duration: seconds,
		pipelining: 1,
		timeout: options.timeoutSeconds ?? 10,
		headers: target.headers,
	} as never)
	;(instance as unknown as { on(event: 'response', listener: (client: object, status: number) => void): void }).on(
		'response',
		(client, status) => {
			perClient.set(client, (perClient.get(client) ?? 0) + 1)
			if (status === (target.status ?? 200)) ok++
			else unexpected++
		},
	)
	const r = (await instance) as unknown as CannonResult
	const perConnection = [...perClient.values()]
	while (perConnection.length < connections) perConnection.push(0) // connections never answered
	perConnection.sort((a, b) => a - b)
	return {
		...cannonFigures(r),
		ok,
		unexpected,
		cpuMs: cpuMs(...target.pids) - before,
		fewestPerConnection: perConnection[0] ?? 0,
		mostPerConnection: perConnection.at(-1) ?? 0,
	}
}

/** A bench's load: 50 connections (or BENCH_CONNECTIONS), its own defaults, BENCH_SECONDS and BENCH_ROUNDS over them. */
export function loadPlan(defaults: { warmupSeconds: number; seconds: number; rounds: number }): LoadPlan & { connections: number } {
	return {
		connections: Number(process.env.BENCH_CONNECTIONS ?? 50),
		warmupSeconds: defaults.warmupSeconds,
		seconds: Number(process.env.BENCH_SECONDS ?? defaults.seconds),
		rounds: Number(process.env.BENCH_ROUNDS ?? defaults.rounds),
	}
}

export interface LoadPlan {
	connections?: number
	warmupSeconds: number
	/**
	 * Before each measured round of a target, this long of the same load, not measured: the round
	 * then starts with that server's code and data in the processor's caches, whichever target came
	 * before it (without it, a target measured right after another server's round paid for the caches
	 * that one had taken: bench/dashboard.ts's A/A pair came out 0.82–0.86× instead of 1).
	 */
	settleSeconds?: number
	seconds: number
	rounds: number
	timeoutSeconds?: number
}

/**
 * Every target warmed up, then measured in `plan.rounds` rounds. By default each round takes the
 * targets in turn in a rotating order (a, b, c; b, c, a; …) so that whatever else the machine does
 * weighs on all alike; `order` can choose another order per round. Returns each target's rounds.
 */
export async function loadRounds(
	targets: Target[],
	plan: LoadPlan,
	options: {
		log?: (message: string) => void
		order?: (round: number) => Target[]
		/** Called with each measured round (the warm-ups are not reported). */
		onRound?: (target: Target, round: Round, index: number) => void
		/** What sends the load (default autocannon in this process; support/load-generator.ts runs it apart). */
		generate?: typeof cannon
	} = {},
): Promise<Map<string, Round[]>> {
	const load = options.generate ?? cannon
	const cannonOptions = { connections: plan.connections, timeoutSeconds: plan.timeoutSeconds }
	for (const target of targets) {
		options.log?.(`warm-up ${target.name}: ${plan.warmupSeconds} s`)
		await load(target, plan.warmupSeconds, cannonOptions)
	}
	const results = new Map<string, Round[]>(targets.map((t) => [t.name, []]))
	const rotate = (round: number) => targets.map((_, k) => targets[(k + round) % targets.length]!)
	for (let round = 0; round < plan.rounds; round++) {
		for (const target of (options.order ?? rotate)(round)) {
			if (plan.settleSeconds) await load(target, plan.settleSeconds, cannonOptions)
			const result = await load(target, plan.seconds, cannonOptions)
			results.get(target.name)!.push(result)
			options.onRound?.(target, result, round)
			options.log?.(
				`round ${round + 1} ${target.name}: ${num(result.reqPerSec)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, ${(result.cpuMs / result.requests).toFixed(3)} ms CPU/request, unexpected ${result.unexpected}, errors ${result.errors}`,
			)
		}
	}
	return results
}

// ---------------------------------------------------------------------------------------------
// Statistics and formatting

export const median = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b)
	const mid = Math.floor(sorted.length / 2)
	return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}
export const sum = (values: number[]) => values.reduce((a, b) => a + b, 0)
export const num = (n: number) => Math.round(n).toLocaleString('en-US')
/** Median req/s over the rounds. */
export const medianRps = (rounds: Round[]) => median(rounds.map((r) => r.reqPerSec))
/** CPU ms per request over all rounds. */
export const cpuPerRequest = (rounds: Round[]) => sum(rounds.map((r) => r.cpuMs)) / sum(rounds.map((r) => r.requests))
/** "2 cores, <model>; Node vX; load average a / b / c": the machine line of every RESULTS file. */
export function machineLine(): string {
	return `${os.cpus().length} cores, ${os.cpus()[0]?.model ?? '?'}; Node ${process.version}; load average ${os
		.loadavg()
		.map((n) => n.toFixed(1))
		.join(' / ')} (1 / 5 / 15 min)`
}

/** The floor of the paint benches: a page with no stylesheet, font or script, what the machine allows right now. */
export const FLOOR_HTML = `<!doctype html><html lang="fr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Plancher</title></head><body><h1>Le plancher</h1><p>Une page sans feuille de style, sans police et sans script, pour savoir ce que la machine permet en ce moment.</p></body></html>\n`

/** What Chromium 13x sends for a document it navigates to by typing the address. */
export const CHROMIUM_DOCUMENT_HEADERS = {
	'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
	accept:
		'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7',
	'accept-encoding': 'gzip, deflate, br, zstd',
	'accept-language': 'fr-FR,fr;q=0.9',
	'sec-fetch-dest': 'document',
	'sec-fetch-mode': 'navigate',
	'sec-fetch-site': 'none',
	'sec-fetch-user': '?1',
	'upgrade-insecure-requests': '1',
}

/** `'NAME=value NAME2=value'` (a bench's ENV_* or RSS_ENVS option) as variables for a server's environment. */
export function envPairs(text: string | undefined): NodeJS.ProcessEnv {
	return Object.fromEntries(
		(text ?? '')
			.split(/\s+/)
			.filter(Boolean)
			.map((pair) => pair.split('=', 2) as [string, string]),
	)
}
