/*
 * `npm run bench`: builds the site into build-bench/ and measures, in one run,
 *   1. req/s and latency of the SSR landing page on our server vs the same HTML as a static file,
 *   2. the same page on react-router-serve,
 *   3. Lighthouse (mobile, default throttling) on / and /auth/signin,
 *   4. the gzipped JavaScript each public page loads, split into runtime and ours, against the budget.
 * Writes bench/RESULTS-run.md (then update its line in bench/RESULTS.md); exits non-zero when the JavaScript budget fails or a measure could not be
 * taken. Only the loopback is used; every process started here is stopped before exit.
 * See bench/README.md.
 */
import '../scripts/check-node.mjs'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import lighthouse from 'lighthouse'
import { chromium } from 'playwright-core'
import { heaviestOurs, isPrivateSource, readChunks, runtimePackages, type Chunk } from './js-weight.ts'
import { freePort, start, stop, waitForHttp } from './processes.ts'
import {
	ROOT,
	TMP,
	buildSite,
	cannon,
	cleanup,
	cpuMs,
	machineBusyMs,
	median,
	nodeBin,
	num,
	siteEnv as benchSiteEnv,
	startChromium,
	startStatic,
	sum,
	tempDir,
	type Round,
	type Target,
} from './support/harness.ts'

const BUILD_DIR = process.env.BUILD_DIR ?? 'build-bench'
const BUILD = path.join(ROOT, BUILD_DIR)
const CLIENT = path.join(BUILD, 'client')
const SOURCEMAPS = path.join(BUILD, 'sourcemaps')
const RESULTS = path.join(import.meta.dirname, 'RESULTS-run.md')

const LOAD = { connections: 50, warmupSeconds: 3, seconds: 10, rounds: 3 }
const LIGHTHOUSE_PAGES = ['/', '/auth/signin']
const PUBLIC_PAGES = ['/', '/auth/signin', '/auth/signup', '/banner', '/redeem']
/** Our JavaScript on top of the runtime, per public page, gzipped: 20 kB = 20,000 bytes. */
const BUDGET_BYTES = 20_000
/** A hard ceiling on the whole run; the bench stops everything and exits past it. */
const RUN_LIMIT_MS = 8 * 60_000

const started = new Date()
/** Measures that could not be taken: they make the exit code non-zero. */
const problems: string[] = []
/** Worth a look, but the measure stands (errors under load, for instance). */
const warnings: string[] = []
const log = (message: string) => console.log(`[bench ${((Date.now() - started.getTime()) / 1000).toFixed(0).padStart(3)} s] ${message}`)

// ---------------------------------------------------------------------------------------------
// Processes

/** Where /banner sends visitors in the bench: a loopback address nobody listens on (never fetched). */
const LINK_IN_BIO_URL = 'http://127.0.0.1:9/lien-bench'

/** The environment of a site process: embedded defaults, a fresh data folder, /banner's onward link. */
function siteEnv(port: number): NodeJS.ProcessEnv {
	return benchSiteEnv({
		port,
		buildDir: BUILD_DIR,
		dataDir: path.join(tempDir('band-bench-data-'), 'data'),
		env: { AUTH_SECRET: authSecret, LINK_IN_BIO_URL },
	})
}
const authSecret = randomBytes(32).toString('hex')

async function startOurServer() {
	const port = await freePort()
	const t0 = Date.now()
	const child = start(nodeBin, [path.join(ROOT, 'server/index.ts')], {
		cwd: ROOT,
		env: siteEnv(port),
		logFile: path.join(TMP, 'our-server.log'),
	})
	await waitForHttp(`http://127.0.0.1:${port}/healthz`, child, 90_000)
	report.startupMs.ours = Date.now() - t0
	return { child, origin: `http://127.0.0.1:${port}` }
}

async function startReactRouterServe() {
	const port = await freePort()
	const cli = fs.realpathSync(path.join(ROOT, 'node_modules/.bin/react-router-serve'))
	// react-router-serve logs every request (morgan "tiny") to stdout: sent to /dev/null here.
	const t0 = Date.now()
	const child = start(nodeBin, [cli, path.join(BUILD, 'server/index.js')], { cwd: ROOT, env: siteEnv(port) })
	await waitForHttp(`http://127.0.0.1:${port}/healthz`, child, 90_000)
	report.startupMs['react-router-serve'] = Date.now() - t0
	return { child, origin: `http://127.0.0.1:${port}` }
}

// ---------------------------------------------------------------------------------------------
// 0. Build

function build() {
	log(`building into ${BUILD_DIR}/ (client source maps "hidden": same code, maps moved out of the served folder)`)
	buildSite(BUILD_DIR, { sourcemaps: true })
}

// ---------------------------------------------------------------------------------------------
// 1–2. Throughput

interface LoadResult {
	name: string
	rounds: Round[]
}

/** Of the machine's CPU during the load tests, the share used by processes other than ours. */
function foreignShare(startMachine: number, startOurs: number, targets: Target[], seconds: number): number {
	const ours = sum(targets.map((t) => cpuMs(...t.pids))) + benchCpuMs()
	return (machineBusyMs() - startMachine - (ours - startOurs)) / (seconds * 1000 * os.cpus().length)
}
const benchCpuMs = () => {
	const usage = process.cpuUsage()
	return (usage.user + usage.system) / 1000
}

async function measureRound(target: Target, seconds: number): Promise<Round> {
	const round = await cannon(target, seconds, { connections: LOAD.connections })
	log(
		`  ${target.name}: ${Math.round(round.reqPerSec)} req/s, p50 ${round.p50} ms, p99 ${round.p99} ms, ${(round.cpuMs / round.requests).toFixed(2)} ms CPU/request, max ${round.maxLatency} ms, responses per connection ${round.fewestPerConnection}–${round.mostPerConnection}, non-200 ${round.unexpected}, errors ${round.errors}`,
	)
	if (round.unexpected || round.errors)
		warnings.push(
			`${target.name}: ${round.unexpected} non-200 responses and ${round.errors} errors (mostly timeouts: no answer in 10 s) in one ${seconds} s round`,
		)
	return round
}

/**
 * Every target is warmed up, then measured in LOAD.rounds rounds that take the targets in turn, so
 * that whatever else the machine is doing weighs on all of them alike.
 */
async function loadTests(targets: Target[]): Promise<LoadResult[]> {
	for (const target of targets) {
		log(`warm-up ${target.name}: ${LOAD.warmupSeconds} s × ${LOAD.connections} connections on ${target.url}`)
		await cannon(target, LOAD.warmupSeconds, { connections: LOAD.connections })
	}
	const results = targets.map((t) => ({ name: t.name, rounds: [] as Round[] }))
	const startedAt = Date.now()
	const startMachine = machineBusyMs()
	const startOurs = sum(targets.map((t) => cpuMs(...t.pids))) + benchCpuMs()
	for (let round = 0; round < LOAD.rounds; round++) {
		log(`round ${round + 1}/${LOAD.rounds}: ${LOAD.seconds} s per target`)
		// The order turns each round (a, b, c; b, c, a; …) so that no target always goes first.
		for (let k = 0; k < targets.length; k++) {
			const i = (k + round) % targets.length
			results[i]!.rounds.push(await measureRound(targets[i]!, LOAD.seconds))
		}
	}
	report.foreignCpu = foreignShare(startMachine, startOurs, targets, (Date.now() - startedAt) / 1000)
	log(`other processes used ${(report.foreignCpu * 100).toFixed(0)} % of the machine's CPU during the rounds`)
	return results
}

const medianRps = (l: LoadResult) => median(l.rounds.map((r) => r.reqPerSec))

// ---------------------------------------------------------------------------------------------
// 3. Lighthouse

interface LighthouseResult {
	page: string
	scores: Record<string, number | null>
	metrics: Record<string, string>
	failing: string[]
}

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const

async function runLighthouse(origin: string, page: string, port: number): Promise<LighthouseResult> {
	log(`Lighthouse (mobile, default simulated throttling) on ${page}`)
	const run = lighthouse(origin + page, {
		port,
		hostname: '127.0.0.1',
		output: 'json',
		logLevel: 'error',
		onlyCategories: [...CATEGORIES],
	})
	const result = await Promise.race([
		run,
		new Promise<never>((_, reject) => setTimeout(() => reject(new Error('Lighthouse took more than 120 s')), 120_000).unref()),
	])
	if (!result) throw new Error(`Lighthouse returned nothing for ${page}`)
	const lhr = result.lhr
	if (lhr.runtimeError) problems.push(`Lighthouse ${page}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`)
	const scores: Record<string, number | null> = {}
	for (const id of CATEGORIES) {
		const score = lhr.categories[id]?.score
		scores[id] = typeof score === 'number' ? Math.round(score * 100) : null
	}
	const metrics: Record<string, string> = {}
	for (const id of [
		'first-contentful-paint',
		'largest-contentful-paint',
		'total-blocking-time',
		'cumulative-layout-shift',
		'speed-index',
	]) {
		metrics[id] = lhr.audits[id]?.displayValue ?? '—'
	}
	// Audits that count towards a score and did not pass fully.
	const failing: string[] = []
	for (const id of CATEGORIES) {
		for (const ref of lhr.categories[id]?.auditRefs ?? []) {
			const audit = lhr.audits[ref.id]
			if (!audit || ref.weight === 0) continue
			if (audit.scoreDisplayMode !== 'binary' && audit.scoreDisplayMode !== 'numeric') continue
			if (audit.score !== null && audit.score < 0.9)
				failing.push(`${id}: ${audit.id} (${Math.round(audit.score * 100)})${audit.displayValue ? ` ${audit.displayValue}` : ''}`)
		}
	}
	log(`  ${CATEGORIES.map((c) => `${c} ${scores[c] ?? '—'}`).join(', ')}`)
	return { page, scores, metrics, failing: [...new Set(failing)] }
}

// ---------------------------------------------------------------------------------------------
// 4. JavaScript per page

interface PageWeight {
	page: string
	status: number
	files: string[]
	missing: string[]
	gzip: number
	runtime: number
	ours: number
	privateSources: string[]
	heaviest: Array<{ name: string; gzip: number }>
	consoleErrors: string[]
	pass: boolean
}

async function measurePages(origin: string, cdpPort: number): Promise<PageWeight[]> {
	const chunks = readChunks(ROOT, path.join(CLIENT, 'assets'), SOURCEMAPS)
	const browser = await chromium.connectOverCDP(`http://127.0.0.1:${cdpPort}`, { timeout: 30_000 })
	const results: PageWeight[] = []
	try {
		for (const page of PUBLIC_PAGES) {
			log(`JavaScript loaded by ${page}`)
			const context = await browser.newContext()
			const tab = await context.newPage()
			const scripts = new Set<string>()
			const consoleErrors: string[] = []
			tab.on('response', (response) => {
				const url = new URL(response.url())
				if (url.origin === origin && url.pathname.endsWith('.js')) scripts.add(url.pathname)
			})
			tab.on('console', (message) => {
				if (message.type() === 'error') consoleErrors.push(message.text().slice(0, 300))
			})
			tab.on('pageerror', (error) => consoleErrors.push(`pageerror: ${error.message.slice(0, 300)}`))
			// Nothing leaves our origin (the banner's onward link points at a dead loopback port anyway).
			await tab.route('**/*', (route) =>
				route
					.request()
					.url()
					.startsWith(origin + '/')
					? route.continue()
					: route.abort(),
			)
			let status = 0
			try {
				const response = await tab.goto(origin + page, { waitUntil: 'networkidle', timeout: 30_000 })
				status = response?.status() ?? 0
				await tab.waitForTimeout(1_000) // anything loaded right after hydration
			} catch (error) {
				// /banner moves on by itself after a second; what it loaded before is what counts.
				if (scripts.size === 0) throw error
			}
			await context.close()

			const files = [...scripts]
				.filter((p) => p.startsWith('/assets/'))
				.map((p) => p.slice('/assets/'.length))
				.sort()
			const found = files.map((f) => chunks.get(f)).filter((c): c is Chunk => c !== undefined)
			// An island (app/islands/) is built apart from the chunks and has no source map: all ours.
			const islands = files.filter((f) => !chunks.has(f) && /^(share|edited-fields|follow-session)-[\w-]+\.js$/.test(f))
			const missing = files.filter((f) => !chunks.has(f) && !islands.includes(f))
			const runtime = found.reduce((a, c) => a + c.runtimeGzip, 0)
			const ours =
				found.reduce((a, c) => a + c.oursGzip, 0) +
				islands.reduce((a, f) => a + zlib.gzipSync(fs.readFileSync(path.join(CLIENT, 'assets', f)), { level: 9 }).length, 0)
			const privateSources = [...new Set(found.flatMap((c) => c.sources.map((s) => s.source)).filter(isPrivateSource))]
			// A public page with nothing interactive loads no script at all (app/hydration.ts): that passes.
			const pass = ours <= BUDGET_BYTES && privateSources.length === 0 && missing.length === 0
			if (status !== 200 && files.length === 0) problems.push(`${page}: answered ${status}, no script loaded`)
			results.push({
				page,
				status,
				files,
				missing,
				gzip: runtime + ours,
				runtime,
				ours,
				privateSources,
				heaviest: heaviestOurs(found, 6),
				consoleErrors,
				pass,
			})
			log(`  ${files.length} files, runtime ${kb(runtime)}, ours ${kb(ours)} → ${pass ? 'PASS' : 'FAIL'}`)
		}
	} finally {
		await browser.close().catch(() => {})
	}
	return results
}

// ---------------------------------------------------------------------------------------------
// Report

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`

function versionOf(pkg: string) {
	try {
		return (JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version
	} catch {
		return '?'
	}
}

interface Report {
	chromiumVersion: string
	loads: LoadResult[]
	lighthouse: LighthouseResult[]
	pages: PageWeight[]
	htmlBytes: number
	durationS: number
	loadAvg: { start: number; beforeLoad: number; end: number }
	/** Share of the machine's CPU used by other processes than the bench's during the rounds. */
	foreignCpu: number
	/** From spawn to the first answer of /healthz (fresh data folder: migrations included). */
	startupMs: Record<string, number>
}

function writeResults(report: Report) {
	const cpus = os.cpus()
	const [staticRun, oursRun, rrsRun] = [
		report.loads.find((l) => l.name === 'static'),
		report.loads.find((l) => l.name === 'ours'),
		report.loads.find((l) => l.name === 'react-router-serve'),
	]
	const out: string[] = []
	out.push('# The landing under load, Lighthouse and JavaScript per page (`npm run bench`)', '')
	out.push(`Written by \`npm run bench\` (bench/run.ts); see bench/README.md for how to read it.`, '')
	out.push(`- Date: ${started.toISOString()} (run took ${report.durationS.toFixed(0)} s)`)
	out.push(
		`- Machine: ${cpus.length} cores, ${cpus[0]?.model ?? 'unknown CPU'}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB memory, ${os.type()} ${os.release()} ${os.arch()}`,
	)
	out.push(
		`- Node ${process.version}; autocannon ${versionOf('autocannon')}, lighthouse ${versionOf('lighthouse')}, ${report.chromiumVersion}; react-router ${versionOf('react-router')}, react ${versionOf('react')}`,
	)
	out.push(`- Build: \`${BUILD_DIR}/\` (production, client source maps "hidden" and moved out of the served folder)`)
	const foreign = Number.isNaN(report.foreignCpu) ? 'not measured' : `${(report.foreignCpu * 100).toFixed(0)} %`
	out.push(
		`- Other work on the machine: load average (1 min) ${report.loadAvg.start.toFixed(1)} at start, ${report.loadAvg.end.toFixed(1)} at the end; processes other than the bench and its servers used **${foreign}** of the machine's CPU during the load rounds (/proc/stat minus our processes).`,
	)
	if (report.foreignCpu > 0.15)
		out.push(
			`- **The machine was busy during this run**: absolute req/s and latencies are lower and noisier than on a quiet machine; the ratios measured in interleaved rounds and the CPU per request hold better.`,
		)
	out.push('')

	out.push('## 1–2. Landing page `/` under load', '')
	out.push(
		`Method: autocannon in the bench process, ${LOAD.connections} connections, no pipelining, against each server on 127.0.0.1: ${LOAD.warmupSeconds} s warm-up (discarded), then ${LOAD.rounds} rounds of ${LOAD.seconds} s that take the three servers in turn (only the targeted one has work; the others sit idle). req/s = autocannon's mean over one round; the table gives the median of the rounds' req/s, the median of the rounds' p50 and p99 latencies, the worst latency of all rounds, how evenly the server shared itself between the 50 connections (responses of the least and of the most served connection, in the most uneven round; each round opens 50 new connections, so this shows first requests of new visitors left waiting), and the CPU time (user + system, from /proc) the server process used per request over all rounds. Each site server has a fresh empty data folder, \`NODE_ENV=production\`, \`LOG_LEVEL=warn\`. Load generator and server share the machine's ${cpus.length} cores. The static file is the HTML our server returned for \`/\` (${num(report.htmlBytes)} bytes), served by bench/static-server.ts (node:http, file streamed from disk per request). No compression anywhere (autocannon sends no Accept-Encoding).`,
		'',
	)
	out.push(
		'| server | req/s (median round) | rounds | latency p50 | latency p99 | latency max | responses per connection (fewest–most, worst round) | CPU per request | requests | non-2xx / errors (timeouts: no answer in 10 s) |',
	)
	out.push('| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |')
	const label: Record<string, string> = {
		static: 'static HTML file, plain node:http',
		ours: 'SSR, our server (server/index.ts)',
		'react-router-serve': 'SSR, react-router-serve',
	}
	for (const l of report.loads) {
		const m = median(l.rounds.map((r) => r.p50))
		const m99 = median(l.rounds.map((r) => r.p99))
		const requests = sum(l.rounds.map((r) => r.requests))
		const cpu = sum(l.rounds.map((r) => r.cpuMs)) / requests
		const worst = [...l.rounds].sort(
			(a, b) => a.fewestPerConnection / (a.mostPerConnection || 1) - b.fewestPerConnection / (b.mostPerConnection || 1),
		)[0]
		const max = Math.max(...l.rounds.map((r) => r.maxLatency))
		out.push(
			`| ${label[l.name] ?? l.name} | **${num(medianRps(l))}** | ${l.rounds.map((r) => num(r.reqPerSec)).join(' / ')} | ${num(m)} ms | ${num(m99)} ms | ${num(max)} ms | ${worst ? `${worst.fewestPerConnection}–${worst.mostPerConnection}` : '—'} | ${cpu.toFixed(2)} ms | ${num(requests)} | ${sum(l.rounds.map((r) => r.unexpected))} / ${sum(l.rounds.map((r) => r.errors))} |`,
		)
	}
	out.push('')
	const cpuPerRequest = (l: LoadResult) => sum(l.rounds.map((r) => r.cpuMs)) / sum(l.rounds.map((r) => r.requests))
	if (staticRun && oursRun) {
		out.push(
			`- Static ÷ SSR on our server = **${(medianRps(staticRun) / medianRps(oursRun)).toFixed(1)}×** in req/s (SSR reaches ${((medianRps(oursRun) / medianRps(staticRun)) * 100).toFixed(1)} % of the static file), ${(cpuPerRequest(oursRun) / cpuPerRequest(staticRun)).toFixed(1)}× in CPU per request.`,
		)
	}
	if (oursRun && rrsRun) {
		const ratio = medianRps(oursRun) / medianRps(rrsRun)
		const cpuRatio = cpuPerRequest(rrsRun) / cpuPerRequest(oursRun)
		out.push(
			`- Our server ÷ react-router-serve = **${ratio.toFixed(2)}×** in req/s → **${ratio > 1 ? 'PASS' : 'FAIL'}** (our server must be the faster).`,
		)
		out.push(
			`- CPU per request, react-router-serve ÷ ours = **${cpuRatio.toFixed(2)}×** (${cpuRatio > 1 ? 'ours is cheaper' : 'ours is dearer'}): the capacity of each server on an otherwise idle machine, least disturbed by other work.`,
		)
		out.push(
			`- Start-up, from spawn to the first answer of \`/healthz\` on a fresh data folder (migrations included): ours ${((report.startupMs.ours ?? Number.NaN) / 1000).toFixed(1)} s, react-router-serve ${((report.startupMs['react-router-serve'] ?? Number.NaN) / 1000).toFixed(1)} s (it opens the database on that first request).`,
		)
		out.push(
			`- react-router-serve runs its usual stack (Express, the compression middleware, a morgan log line per request, to /dev/null here) but not our background work: it never calls the build's \`startBackground()\`, so no job workers poll the database in it, while they do in our server.`,
		)
	}
	out.push('')

	out.push('## 3. Lighthouse', '')
	out.push(
		`Method: Lighthouse's Node API, default config (mobile emulation, simulated throttling), one run per page, against our server on 127.0.0.1 driving Debian's Chromium (headless, flags in bench/run.ts) through its DevTools port. Scores vary by a few points between runs.`,
		'',
	)
	out.push('| page | performance | accessibility | best practices | SEO | FCP | LCP | TBT | CLS |')
	out.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |')
	for (const r of report.lighthouse) {
		const m = r.metrics
		out.push(
			`| \`${r.page}\` | ${CATEGORIES.map((c) => r.scores[c] ?? '—').join(' | ')} | ${m['first-contentful-paint']} | ${m['largest-contentful-paint']} | ${m['total-blocking-time']} | ${m['cumulative-layout-shift']} |`,
		)
	}
	out.push('')
	for (const r of report.lighthouse) {
		out.push(`Audits below 90 on \`${r.page}\`: ${r.failing.length ? r.failing.map((f) => `\`${f}\``).join(', ') : 'none'}.`, '')
	}

	out.push('## 4. JavaScript per public page (gzipped)', '')
	out.push(
		`Method: each page loaded in Chromium (networkidle + 1 s) and every script response from our origin recorded; each file's size gzipped at level 9; a file's gzipped bytes are shared between its source files in proportion to their minified characters (from the build's source maps). Runtime = ${[...runtimePackages(ROOT)].sort().join(', ')} (react, react-dom, react-router and their dependencies). Ours = everything else (app code, i18next, zod, conform…, the route manifest, the bundler's runtime helpers). Bytes the maps give to no source (import/export lists, CommonJS wrappers) are shared among the sources of their chunk. Budget: ours ≤ ${kb(BUDGET_BYTES)} per page, and no source from app/routes/admin/** or app/routes/dashboard/**.`,
		'',
	)
	out.push('| page | files | total | runtime | ours | admin/dashboard code | budget |')
	out.push('| --- | ---: | ---: | ---: | ---: | --- | --- |')
	for (const p of report.pages) {
		out.push(
			`| \`${p.page}\` | ${p.files.length} | ${kb(p.gzip)} | ${kb(p.runtime)} | ${kb(p.ours)} | ${p.privateSources.length ? p.privateSources.join(', ') : 'none'} | ${p.pass ? 'PASS' : 'FAIL'} |`,
		)
	}
	out.push('')
	const budgetPass = report.pages.length === PUBLIC_PAGES.length && report.pages.every((p) => p.pass)
	out.push(`**JavaScript budget: ${budgetPass ? 'PASS' : 'FAIL'}**`, '')
	out.push('Heaviest of ours, per page (estimated gzipped bytes):', '')
	for (const p of report.pages) {
		out.push(`- \`${p.page}\`: ${p.heaviest.map((h) => `${h.name} ${kb(h.gzip)}`).join(', ')}`)
	}
	out.push('')
	out.push('<details><summary>Files loaded per page</summary>', '')
	for (const p of report.pages) {
		out.push(
			`- \`${p.page}\` (HTTP ${p.status}): ${p.files.join(', ')}${p.missing.length ? ` — not in the build: ${p.missing.join(', ')}` : ''}`,
		)
	}
	out.push('', '</details>', '')
	const errors = report.pages.filter((p) => p.consoleErrors.length)
	if (errors.length) {
		out.push('Browser console errors seen while loading the pages:', '')
		for (const p of errors) for (const e of p.consoleErrors) out.push(`- \`${p.page}\`: ${e.replace(/\s+/g, ' ')}`)
		out.push('')
	}

	if (warnings.length) {
		out.push('## Warnings', '')
		for (const w of warnings) out.push(`- ${w.replace(/\s+/g, ' ')}`)
		out.push('')
	}
	if (problems.length) {
		out.push('## Problems during this run (measures missing or wrong)', '')
		for (const p of problems) out.push(`- ${p.replace(/\s+/g, ' ')}`)
		out.push('')
	}
	fs.writeFileSync(RESULTS, out.join('\n'))
	return budgetPass
}

// ---------------------------------------------------------------------------------------------
// Main

const report: Report = {
	chromiumVersion: 'Chromium (not started)',
	loads: [],
	lighthouse: [],
	pages: [],
	htmlBytes: 0,
	durationS: 0,
	loadAvg: { start: os.loadavg()[0] ?? 0, beforeLoad: Number.NaN, end: Number.NaN },
	foreignCpu: Number.NaN,
	startupMs: {},
}

async function main(): Promise<void> {
	fs.mkdirSync(TMP, { recursive: true })
	for (const f of ['our-server.log', 'static-server.log']) fs.rmSync(path.join(TMP, f), { force: true })

	build()

	// Our server answers the browser measures first; then all three servers take the load tests.
	log('starting our server')
	const ours = await startOurServer()
	const landing = await fetch(ours.origin + '/')
	const html = await landing.text()
	if (landing.status !== 200) problems.push(`GET / on our server answered ${landing.status}`)
	const htmlFile = path.join(TMP, 'landing.html')
	fs.writeFileSync(htmlFile, html)
	report.htmlBytes = Buffer.byteLength(html)

	const browser = await startChromium().catch((error: Error) => {
		problems.push(`Chromium: ${error.message}`)
		return undefined
	})
	if (browser) {
		report.chromiumVersion = browser.version
		for (const page of LIGHTHOUSE_PAGES) {
			try {
				report.lighthouse.push(await runLighthouse(ours.origin, page, browser.port))
			} catch (error) {
				problems.push(`Lighthouse ${page}: ${(error as Error).message}`)
			}
		}
		try {
			report.pages = await measurePages(ours.origin, browser.port)
		} catch (error) {
			problems.push(`JavaScript per page: ${(error as Error).message}`)
		}
		await stop(browser.child)
	}

	log('starting the static file server and react-router-serve')
	const staticServer = await startStatic(htmlFile)
	const rrs = await startReactRouterServe()
	report.loadAvg.beforeLoad = os.loadavg()[0] ?? 0
	report.loads = await loadTests([
		{ name: 'ours', url: ours.origin + '/', pids: [ours.child.pid] },
		{ name: 'static', url: staticServer.origin + '/', pids: [staticServer.pid] },
		{ name: 'react-router-serve', url: rrs.origin + '/', pids: [rrs.child.pid] },
	])
	report.loadAvg.end = os.loadavg()[0] ?? 0
	await Promise.all([stop(ours.child), stop(staticServer.child), stop(rrs.child, 3_000)])
}

/** Writes RESULTS-run.md from whatever was measured (also after a failure), prints the verdicts. */
function finish(): number {
	// Table order: baseline first.
	const order = ['static', 'ours', 'react-router-serve']
	report.loads.sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name))
	report.durationS = (Date.now() - started.getTime()) / 1000
	const budgetPass = writeResults(report)
	log(`wrote ${path.relative(ROOT, RESULTS)}`)
	if (Number.isNaN(report.loadAvg.end)) report.loadAvg.end = os.loadavg()[0] ?? 0
	const oursRun = report.loads.find((l) => l.name === 'ours')
	const rrsRun = report.loads.find((l) => l.name === 'react-router-serve')
	if (oursRun && rrsRun) {
		const [a, b] = [medianRps(oursRun), medianRps(rrsRun)]
		console.log(`${a > b ? 'PASS' : 'FAIL'} our server ${num(a)} req/s vs react-router-serve ${num(b)} req/s (median rounds)`)
		const cpu = (l: LoadResult) => sum(l.rounds.map((r) => r.cpuMs)) / sum(l.rounds.map((r) => r.requests))
		console.log(`     CPU per request: ours ${cpu(oursRun).toFixed(2)} ms, react-router-serve ${cpu(rrsRun).toFixed(2)} ms`)
	}
	console.log(
		`${budgetPass ? 'PASS' : 'FAIL'} JavaScript budget (ours ≤ ${kb(BUDGET_BYTES)} gzipped per public page, no admin/dashboard code)`,
	)
	for (const w of warnings) console.log(`warning: ${w}`)
	for (const p of problems) console.log(`problem: ${p}`)
	return budgetPass && problems.length === 0 ? 0 : 1
}

const limit = setTimeout(() => {
	console.error(`bench: over ${RUN_LIMIT_MS / 60_000} minutes, stopping`)
	void cleanup().finally(() => process.exit(2))
}, RUN_LIMIT_MS)
limit.unref()
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
	process.once(signal, () => {
		console.error(`bench: ${signal}, stopping`)
		void cleanup().finally(() => process.exit(130))
	})
}

try {
	await main()
} catch (error) {
	console.error(error)
	problems.push(`the run stopped early: ${(error as Error)?.message ?? error}`)
}
await cleanup()
process.exit(finish())
