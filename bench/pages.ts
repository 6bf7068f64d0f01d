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
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { stop } from './processes.ts'
import {
	TMP,
	buildSite,
	cpuPerRequest,
	createPostgresDatabase,
	loadRounds,
	machineLine,
	loadPlan,
	makeLog,
	median,
	medianRps,
	num,
	rssMb,
	runBench,
	seedDemo,
	startSite,
	startStatic,
	sum,
	tempDir,
	type Round,
	type Target,
} from './support/harness.ts'

const BUILD_DIR = process.env.BUILD_DIR ?? 'build-bench-pages'
const RESULTS = path.join(import.meta.dirname, 'RESULTS-pages.md')
const LOAD = loadPlan({ warmupSeconds: 2, seconds: 5, rounds: 2 })
const started = new Date()
const log = makeLog('pages bench', started.getTime())

interface DatabaseRun {
	kind: 'PGlite' | 'PostgreSQL'
	startMs: number
	idleMb: number
	peakMb: number
	loadSeconds: number
	rounds: Map<string, Round[]>
	sizes: Map<string, number>
}

async function measure(kind: DatabaseRun['kind']): Promise<DatabaseRun> {
	const dataDir = tempDir('band-bench-pages-')
	const databaseUrl = kind === 'PostgreSQL' ? await createPostgresDatabase() : ''
	log(`${kind}: seeding the demo events`)
	const ids = seedDemo({ buildDir: BUILD_DIR, dataDir, databaseUrl })

	log(`${kind}: starting our server`)
	const ours = await startSite(`pages-server-${kind}`, { buildDir: BUILD_DIR, dataDir, databaseUrl })
	await new Promise((resolve) => setTimeout(resolve, 5_000))
	const idleMb = rssMb(ours.pid)

	const pages = ['/', '/events', `/events/${ids.scheduled}`, '/auth/signin']
	const targets: Target[] = []
	const sizes = new Map<string, number>()
	const statics = []
	const headers = { 'accept-encoding': 'br' }
	for (const [index, page] of pages.entries()) {
		// The bytes as our server sent them (brotli): the static server streams the file as is.
		const { status, body: raw } = await rawBody(ours.origin + page)
		if (status !== 200 || raw.length === 0) throw new Error(`${page} answered ${status} with ${raw.length} bytes`)
		sizes.set(page, raw.length)
		const file = path.join(TMP, `page-${index}.br`)
		fs.writeFileSync(file, raw)
		const staticServer = await startStatic(file)
		statics.push(staticServer)
		targets.push({ name: `ssr ${page}`, url: ours.origin + page, pids: [ours.pid], headers })
		targets.push({ name: `static ${page}`, url: `${staticServer.origin}/`, pids: [staticServer.pid], headers })
	}

	let peakMb = idleMb
	const sampler = setInterval(() => {
		const now = rssMb(ours.pid)
		if (now > peakMb) peakMb = now
	}, 200)
	const loadStarted = performance.now()
	const rounds = await loadRounds(targets, LOAD, {
		// Each page and its static copy back to back, in alternating order.
		order: (round) =>
			pages.flatMap((_, k) => {
				const page = pages[(k + round) % pages.length]!
				const pair = targets.filter((t) => t.name.endsWith(` ${page}`))
				return round % 2 ? pair.reverse() : pair
			}),
		log: (message) => log(`${kind} ${message}`),
	})
	clearInterval(sampler)
	const loadSeconds = (performance.now() - loadStarted) / 1000
	await Promise.all([stop(ours.child), ...statics.map((s) => stop(s.child))])
	return { kind, startMs: ours.startMs, idleMb, peakMb, loadSeconds, rounds, sizes }
}

/** The body as sent, without fetch()'s decoding (the static copy must be the same bytes). */
async function rawBody(url: string): Promise<{ status: number; body: Buffer }> {
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
		`Written by \`node bench/pages.ts\`; ${started.toISOString()}; ${machineLine()} at the end (other processes share the cores: absolute req/s are noisy, ratios taken side by side much less); build \`${BUILD_DIR}/\`.`,
		'',
		`Method: autocannon, ${LOAD.connections} connections, no pipelining, \`Accept-Encoding: br\`, on 127.0.0.1; a ${LOAD.warmupSeconds} s warm-up per target, then ${LOAD.rounds} rounds of ${LOAD.seconds} s; in each round every page and its static copy run back to back. The static copy is the exact bytes our server answered (brotli), streamed from disk per request by bench/static-server.ts. CPU per request: the server process's user + system time (/proc) over its rounds ÷ requests. Memory: VmRSS of the server, after 5 s idle, and its peak sampled every 200 ms through warm-ups and rounds.`,
		'',
	)
	for (const run of runs) {
		const rps = (key: string) => medianRps(run.rounds.get(key)!)
		const cpu = (key: string) => cpuPerRequest(run.rounds.get(key)!)
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
				`| \`${label}\` | ${num(run.sizes.get(page)!)} | ${num(rps(`ssr ${page}`))} | ${num(rps(`static ${page}`))} | **${(rps(`ssr ${page}`) / rps(`static ${page}`)).toFixed(2)}** | ${median(ssr.map((r) => r.p50))} / ${median(ssr.map((r) => r.p99))} ms | ${median(st.map((r) => r.p50))} / ${median(st.map((r) => r.p99))} ms | ${cpu(`ssr ${page}`).toFixed(3)} ms | ${cpu(`static ${page}`).toFixed(3)} ms | ${sum([...ssr, ...st].map((r) => r.unexpected + r.errors))} |`,
			)
		}
		out.push('')
	}
	return out.join('\n')
}

await runBench(async () => {
	buildSite(BUILD_DIR, { log })
	const runs: DatabaseRun[] = [await measure('PGlite')]
	try {
		runs.push(await measure('PostgreSQL'))
	} catch (error) {
		log(`PostgreSQL not measured: ${(error as Error).message}`)
	}
	const text = report(runs)
	fs.writeFileSync(RESULTS, text + '\n')
	log(`wrote ${path.relative(process.cwd(), RESULTS)}`)
	console.log(text)
})
