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
import fs from 'node:fs'
import path from 'node:path'
import { stop } from './processes.ts'
import {
	TMP,
	buildSite,
	cpuPerRequest,
	loadRounds,
	machineLine,
	loadPlan,
	makeLog,
	median,
	medianRps,
	num,
	runBench,
	seedDemo,
	startSite,
	startStatic,
	sum,
	tempDir,
	type Target,
} from './support/harness.ts'

const BUILD_DIR = process.env.BUILD_DIR ?? 'build-bench-events'
const RESULTS = path.join(import.meta.dirname, 'RESULTS-event-page.md')
const LOAD = loadPlan({ warmupSeconds: 3, seconds: 10, rounds: 3 })
const started = new Date()
const log = makeLog('event bench', started.getTime())

await runBench(async () => {
	buildSite(BUILD_DIR, { log })
	const dataDir = tempDir('band-bench-events-')
	log('seeding demo events')
	const ids = seedDemo({ buildDir: BUILD_DIR, dataDir })

	log('starting our server')
	const ours = await startSite('event-server', { buildDir: BUILD_DIR, dataDir })
	const pageUrl = `${ours.origin}/events/${ids.scheduled}`
	const first = await fetch(pageUrl)
	const html = await first.text()
	if (first.status !== 200 || !html.includes('og:image')) throw new Error(`the event page answered ${first.status}, or without its cover`)
	const etag = first.headers.get('etag')
	if (!etag) throw new Error('the event page has no ETag')
	const htmlFile = path.join(TMP, 'event-page.html')
	fs.writeFileSync(htmlFile, html)
	const staticServer = await startStatic(htmlFile)

	const labels: Record<string, string> = {
		ssr: 'SSR event page with a cover, anonymous (our server)',
		static: 'the same HTML as a static file (plain node:http)',
		'304': 'the event page revalidated (If-None-Match → 304)',
		landing: 'the landing with its 5 next events (our server)',
	}
	const targets: Target[] = [
		{ name: 'ssr', url: pageUrl, pids: [ours.pid] },
		{ name: 'static', url: `${staticServer.origin}/`, pids: [staticServer.pid] },
		{ name: '304', url: pageUrl, pids: [ours.pid], headers: { 'if-none-match': etag }, status: 304 },
		{ name: 'landing', url: `${ours.origin}/`, pids: [ours.pid] },
	]
	const rounds = await loadRounds(targets, LOAD, { log })
	await Promise.all([stop(ours.child), stop(staticServer.child)])

	const rps = (name: string) => medianRps(rounds.get(name)!)
	const cpu = (name: string) => cpuPerRequest(rounds.get(name)!)
	const out: string[] = ['# Event page under load', '']
	out.push(`Written by \`node bench/event-page.ts\`; ${started.toISOString()}; ${machineLine()} at the end; build \`${BUILD_DIR}/\`.`, '')
	out.push(
		`Method: autocannon, ${LOAD.connections} connections, no pipelining, on 127.0.0.1; ${LOAD.warmupSeconds} s warm-up per target, then ${LOAD.rounds} rounds of ${LOAD.seconds} s taking the targets in turn (rotating order). Our server: production build, fresh PGlite data folder seeded with the demo events (scripts/seed-demo.ts), the page measured has a ready cover (AVIF, WebP, JPEG at 4 widths). HTML size ${num(Buffer.byteLength(html))} bytes, no compression (autocannon sends no Accept-Encoding).`,
		'',
	)
	out.push('| target | req/s (median round) | rounds | p50 | p99 | CPU per request | unexpected status / errors |')
	out.push('| --- | ---: | --- | ---: | ---: | ---: | ---: |')
	for (const target of targets) {
		const r = rounds.get(target.name)!
		out.push(
			`| ${labels[target.name]} | **${num(rps(target.name))}** | ${r.map((x) => num(x.reqPerSec)).join(' / ')} | ${median(r.map((x) => x.p50))} ms | ${median(r.map((x) => x.p99))} ms | ${cpu(target.name).toFixed(2)} ms | ${sum(r.map((x) => x.unexpected))} / ${sum(r.map((x) => x.errors))} |`,
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
	log(`wrote ${path.relative(process.cwd(), RESULTS)}`)
	console.log(out.slice(4).join('\n'))
})
