/*
 * The event page under load, on its own (bench/run.ts measures the landing; this one the page a
 * shared link opens):
 *
 *   node_modules/.bin/node bench/event-page.ts            (builds into build-bench-events/ first)
 *   BUILD_DIR=build-events node_modules/.bin/node bench/event-page.ts --no-build
 *
 * A data folder is seeded with the demo events (scripts/seed-demo.ts, the page measured has a
 * ready cover), our server starts on it, and autocannon (50 connections, no pipelining) takes, in
 * interleaved rounds: the SSR event page for an anonymous visitor, the same HTML as a static file
 * (plain node:http), the page revalidated with If-None-Match (304), and the landing with its next
 * events. req/s, latency and the server's CPU per request (from /proc) go to
 * bench/RESULTS-event-page.md. Loopback only; every process started here is stopped before exit.
 */
import '../scripts/check-node.mjs'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import { freePort, start, stop, stopAll, waitForHttp } from './processes.ts'

const ROOT = path.resolve(import.meta.dirname, '..')
const BUILD_DIR = process.env.BUILD_DIR ?? 'build-bench-events'
const BUILD = path.join(ROOT, BUILD_DIR)
const TMP = path.join(import.meta.dirname, '.tmp')
const RESULTS = path.join(import.meta.dirname, 'RESULTS-event-page.md')
const LOAD = { connections: 50, warmupSeconds: 3, seconds: 10, rounds: 3 }
const nodeBin = process.execPath
const started = new Date()
const log = (message: string) =>
	console.log(`[event bench ${((Date.now() - started.getTime()) / 1000).toFixed(0).padStart(3)} s] ${message}`)
const tempDirs: string[] = []

function build() {
	if (process.argv.includes('--no-build') && fs.existsSync(path.join(BUILD, 'server', 'index.js'))) return
	log(`building into ${BUILD_DIR}/`)
	const env = { ...process.env, BUILD_DIR, PATH: `${path.join(ROOT, 'node_modules/.bin')}${path.delimiter}${process.env.PATH}` }
	execFileSync(nodeBin, [fs.realpathSync(path.join(ROOT, 'node_modules/.bin/react-router')), 'build'], {
		cwd: ROOT,
		env,
		stdio: ['ignore', 'ignore', 'inherit'],
		timeout: 180_000,
	})
	execFileSync(nodeBin, [path.join(ROOT, 'scripts/compress-assets.mjs')], {
		cwd: ROOT,
		env,
		stdio: ['ignore', 'ignore', 'inherit'],
		timeout: 120_000,
	})
}

/** The site's environment: embedded defaults, service variables blanked (a .env file cannot fill them in). */
function siteEnv(port: number, dataDir: string): NodeJS.ProcessEnv {
	return {
		PATH: process.env.PATH,
		HOME: process.env.HOME,
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
	}
}

interface Round {
	reqPerSec: number
	p50: number
	p99: number
	requests: number
	non2xx: number
	errors: number
	cpuMs: number
}
interface Target {
	name: string
	label: string
	url: string
	pid: number | undefined
	headers?: Record<string, string>
	/** The status every answer should have. */
	status: number
}

const CLOCK_TICKS = (() => {
	try {
		return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
	} catch {
		return 100
	}
})()
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

type CannonResult = {
	requests: { average: number; total: number }
	latency: { p50: number; p99: number }
	errors: number
	timeouts: number
}

async function cannon(target: Target, seconds: number): Promise<Round> {
	const before = cpuMs(target.pid)
	let unexpected = 0
	const instance = autocannon({
		url: target.url,
		connections: LOAD.connections,
		duration: seconds,
		pipelining: 1,
		headers: target.headers,
	} as never)
	instance.on('response', (_client, statusCode) => {
		if (statusCode !== target.status) unexpected++
	})
	const r = (await instance) as CannonResult
	return {
		reqPerSec: r.requests.average,
		p50: r.latency.p50,
		p99: r.latency.p99,
		requests: r.requests.total,
		non2xx: unexpected,
		errors: r.errors + r.timeouts,
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

async function main() {
	fs.mkdirSync(TMP, { recursive: true })
	build()
	const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'band-bench-events-'))
	tempDirs.push(dataDir)
	const port = await freePort()
	const origin = `http://127.0.0.1:${port}`
	log('seeding demo events')
	const seeded = execFileSync(path.join(ROOT, 'node_modules/.bin/tsx'), ['scripts/seed-demo.ts'], {
		cwd: ROOT,
		env: { ...siteEnv(port, dataDir), LOG_LEVEL: 'silent' },
		encoding: 'utf8',
		timeout: 120_000,
	})
	const ids = JSON.parse(seeded.trim().split('\n').at(-1)!) as { scheduled: string }

	log('starting our server')
	const ours = start(nodeBin, [path.join(ROOT, 'server/index.ts')], {
		cwd: ROOT,
		env: siteEnv(port, dataDir),
		logFile: path.join(TMP, 'event-server.log'),
	})
	await waitForHttp(`${origin}/healthz`, ours, 90_000)
	const pageUrl = `${origin}/events/${ids.scheduled}`
	const first = await fetch(pageUrl)
	const html = await first.text()
	if (first.status !== 200 || !html.includes('og:image')) throw new Error(`the event page answered ${first.status}, or without its cover`)
	const etag = first.headers.get('etag')
	if (!etag) throw new Error('the event page has no ETag')
	const htmlFile = path.join(TMP, 'event-page.html')
	fs.writeFileSync(htmlFile, html)

	const staticPort = await freePort()
	const staticServer = start(nodeBin, [path.join(import.meta.dirname, 'static-server.ts'), htmlFile, String(staticPort)], { cwd: ROOT })
	await waitForHttp(`http://127.0.0.1:${staticPort}/`, staticServer)

	const targets: Target[] = [
		{ name: 'ssr', label: 'SSR event page with a cover, anonymous (our server)', url: pageUrl, pid: ours.pid, status: 200 },
		{
			name: 'static',
			label: 'the same HTML as a static file (plain node:http)',
			url: `http://127.0.0.1:${staticPort}/`,
			pid: staticServer.pid,
			status: 200,
		},
		{
			name: '304',
			label: 'the event page revalidated (If-None-Match → 304)',
			url: pageUrl,
			pid: ours.pid,
			headers: { 'if-none-match': etag },
			status: 304,
		},
		{ name: 'landing', label: 'the landing with its 5 next events (our server)', url: `${origin}/`, pid: ours.pid, status: 200 },
	]
	for (const target of targets) {
		log(`warm-up ${target.name}: ${LOAD.warmupSeconds} s`)
		await cannon(target, LOAD.warmupSeconds)
	}
	const rounds = new Map<string, Round[]>(targets.map((t) => [t.name, []]))
	for (let round = 0; round < LOAD.rounds; round++) {
		for (let k = 0; k < targets.length; k++) {
			const target = targets[(k + round) % targets.length]!
			const result = await cannon(target, LOAD.seconds)
			rounds.get(target.name)!.push(result)
			log(
				`round ${round + 1} ${target.name}: ${num(result.reqPerSec)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, ${(result.cpuMs / result.requests).toFixed(2)} ms CPU/request, unexpected statuses ${result.non2xx}, errors ${result.errors}`,
			)
		}
	}
	await Promise.all([stop(ours), stop(staticServer)])

	const rps = (name: string) => median(rounds.get(name)!.map((r) => r.reqPerSec))
	const cpu = (name: string) => sum(rounds.get(name)!.map((r) => r.cpuMs)) / sum(rounds.get(name)!.map((r) => r.requests))
	const out: string[] = ['# Event page under load', '']
	out.push(
		`Written by \`node bench/event-page.ts\`; ${started.toISOString()}; ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? '?'}; Node ${process.version}; build \`${BUILD_DIR}/\`; load average ${os.loadavg()[0]?.toFixed(1)} at the end.`,
		'',
	)
	out.push(
		`Method: autocannon, ${LOAD.connections} connections, no pipelining, on 127.0.0.1; ${LOAD.warmupSeconds} s warm-up per target, then ${LOAD.rounds} rounds of ${LOAD.seconds} s taking the targets in turn (rotating order). Our server: production build, fresh PGlite data folder seeded with the demo events (scripts/seed-demo.ts), the page measured has a ready cover (AVIF, WebP, JPEG at 4 widths). HTML size ${num(Buffer.byteLength(html))} bytes, no compression (autocannon sends no Accept-Encoding).`,
		'',
	)
	out.push('| target | req/s (median round) | rounds | p50 | p99 | CPU per request | unexpected status / errors |')
	out.push('| --- | ---: | --- | ---: | ---: | ---: | ---: |')
	for (const target of targets) {
		const r = rounds.get(target.name)!
		out.push(
			`| ${target.label} | **${num(rps(target.name))}** | ${r.map((x) => num(x.reqPerSec)).join(' / ')} | ${median(r.map((x) => x.p50))} ms | ${median(r.map((x) => x.p99))} ms | ${cpu(target.name).toFixed(2)} ms | ${sum(r.map((x) => x.non2xx))} / ${sum(r.map((x) => x.errors))} |`,
		)
	}
	out.push('')
	out.push(
		`- Static ÷ SSR event page = **${(rps('static') / rps('ssr')).toFixed(1)}×** in req/s (SSR reaches ${((rps('ssr') / rps('static')) * 100).toFixed(1)} % of the static file).`,
	)
	out.push(
		`- A revalidation (304) costs ${((cpu('304') / cpu('ssr')) * 100).toFixed(0)} % of the CPU of a 200 answer: ${num(rps('304'))} req/s.`,
	)
	out.push(
		`- Anonymous event pages come from the in-process cache (features/events/cache.server.ts): rendered once per version of the event, then served from memory with a fresh CSP nonce; the database is asked at most once per event every 5 s (one indexed lookup). The landing (for comparison) renders on every request; its list of next events is cached the same way.`,
	)
	out.push('')
	fs.writeFileSync(RESULTS, out.join('\n'))
	log(`wrote ${path.relative(ROOT, RESULTS)}`)
	console.log(out.slice(4).join('\n'))
}

async function cleanup() {
	await stopAll()
	for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true })
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
