/*
 * The public pages as a browser asks for them, against the ceiling (raw node:http holding the same
 * bytes in memory) and nginx serving the same bytes, with the load generated from another process:
 *
 *   node_modules/.bin/node bench/public-pages.ts              (builds into build-bench-public/ first)
 *   BUILD_DIR=build-x node_modules/.bin/node bench/public-pages.ts --no-build
 *   CHECKOUTS=before=<other checkout>,after=. …               (several servers side by side: each
 *                                                              checkout serves its own BUILD_DIR
 *                                                              with its own server/)
 *   BENCH_SECONDS=10 BENCH_ROUNDS=3 …                         (defaults 5 s × 3)
 *   LEGACY=0 …                                                (leaves out the targets that show why
 *                                                              the older figures were lower)
 *
 * One data folder seeded with the demo events (embedded PGlite), copied for each checkout's server.
 * Each page is fetched from the first server with a Chromium's headers, twice (the second answer is
 * the page cache's); its status, raw headers and brotli body are what the ceiling and nginx send.
 * Every request of the load carries the same Chromium headers and no cookie: an anonymous visitor's
 * document request, which the page cache answers and the page-view counter counts. The load comes
 * from support/load-generator.ts (wrk, or autocannon in a child process). Rounds are interleaved:
 * in each, the pages in rotating order, and for each page every server in rotating order. CPU per
 * request: the serving process's user + system time (/proc/<pid>/stat) over its rounds ÷ requests.
 * Beside the ceiling, the first checkout's own process answers /__floor<page> with the same bytes
 * before its request handler runs (support/answer-at-top.ts): the floor of a process that runs the
 * whole app, so that the gap splits into the process's part and our per-request work.
 * Results: bench/RESULTS-public-pages.md. Loopback only; every process started is stopped.
 */
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { freePort, start, stop, waitForHttp } from './processes.ts'
import {
	CHROMIUM_DOCUMENT_HEADERS,
	ROOT,
	TMP,
	buildSite,
	cannon,
	cpuPerRequest,
	loadRounds,
	loadPlan,
	machineLine,
	makeLog,
	median,
	medianRps,
	nodeBin,
	num,
	runBench,
	seedDemo,
	startSite,
	startStatic,
	sum,
	tempDir,
	type Round,
	type RunningSite,
	type Target,
} from './support/harness.ts'
import { generateLoad, generatorName } from './support/load-generator.ts'
import { nginxInstalled, startNginx } from './support/nginx.ts'

const BUILD_DIR = process.env.BUILD_DIR ?? 'build-bench-public'
const RESULTS = path.join(import.meta.dirname, 'RESULTS-public-pages.md')
// Each round after 1 s of the same load, not measured (BENCH_SETTLE_SECONDS): a round that starts
// right after another server's pays for the processor caches that one took (bench/README.md).
const LOAD = { ...loadPlan({ warmupSeconds: 2, seconds: 5, rounds: 3 }), settleSeconds: Number(process.env.BENCH_SETTLE_SECONDS ?? 1) }
const LEGACY = process.env.LEGACY !== '0'
const CHECKOUTS = (process.env.CHECKOUTS ?? 'ours=.').split(',').map((item) => {
	const [name, dir] = item.split('=') as [string, string]
	return { name, root: path.resolve(ROOT, dir) }
})
const started = new Date()
const log = makeLog('public pages bench', started.getTime())

interface Page {
	path: string
	label: string
	status: number
	/** As our server sent them, Date and connection headers left out. */
	headers: string[]
	bodyFile: string
	bytes: number
	cache: string
}

/** The answer as sent: status, raw headers and the body without decoding. */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; rawHeaders: string[]; body: Buffer }> {
	return new Promise((resolve, reject) => {
		http
			.get(url, { headers }, (res) => {
				const chunks: Buffer[] = []
				res.on('data', (chunk: Buffer) => chunks.push(chunk))
				res.on('end', () => resolve({ status: res.statusCode ?? 0, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks) }))
				res.on('error', reject)
			})
			.on('error', reject)
	})
}

const PER_CONNECTION = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding'])

async function capture(origin: string, pagePath: string, index: number): Promise<Page> {
	await rawGet(origin + pagePath, CHROMIUM_DOCUMENT_HEADERS)
	const { status, rawHeaders, body } = await rawGet(origin + pagePath, CHROMIUM_DOCUMENT_HEADERS)
	if (status !== 200 || body.length === 0) throw new Error(`${pagePath} answered ${status} with ${body.length} bytes`)
	const headers: string[] = []
	let cache = '-'
	for (let k = 0; k < rawHeaders.length; k += 2) {
		const name = rawHeaders[k]!.toLowerCase()
		if (name === 'x-page-cache') cache = rawHeaders[k + 1]!
		if (!PER_CONNECTION.has(name)) headers.push(rawHeaders[k]!, rawHeaders[k + 1]!)
	}
	const bodyFile = path.join(TMP, `public-page-${index}.body`)
	fs.writeFileSync(bodyFile, body)
	const label = pagePath.startsWith('/events/') ? '/events/:id (cover)' : pagePath
	return { path: pagePath, label, status, headers, bodyFile, bytes: body.length, cache }
}

/** The ceiling again, in a process that first did an app's other work: how much of a real server's cost is Node's own. */
const AFTER_APP_WORK = 'raw node after app work'
/**
 * The first checkout's own process answering the same bytes before its request handler runs
 * (support/answer-at-top.ts, at /__floor<page>): the floor of a process that runs the whole app.
 */
const FLOOR = 'ours, answered at the top'
const FLOOR_PREFIX = '/__floor'
/** The pages as the ceiling serves them (written once they are captured; the floor reads it too). */
const PAGES_FILE = path.join(TMP, 'public-pages.json')

/** The captured pages as the ceilings and the floor serve them: status, headers, the body's file. */
function writePagesFile(pages: Page[]) {
	fs.writeFileSync(
		PAGES_FILE,
		JSON.stringify(Object.fromEntries(pages.map((p) => [p.path, { status: p.status, headers: p.headers, body: p.bodyFile }]))),
	)
}

async function startCeiling(pages: Page[], afterAppWork = false): Promise<RunningSite> {
	const port = await freePort()
	const child = start(
		nodeBin,
		[path.join(ROOT, 'bench/support/ceiling-server.ts'), PAGES_FILE, String(port), ...(afterAppWork ? ['--after-app-work'] : [])],
		{ cwd: ROOT },
	)
	const origin = `http://127.0.0.1:${port}`
	await waitForHttp(`${origin}${pages[0]!.path}`, child, 300_000)
	return { origin, child, pid: child.pid, startMs: 0 }
}

interface Measured {
	pages: Page[]
	servers: string[]
	rounds: Map<string, Round[]>
	loads: number[]
	legacy: Map<string, Round[]> | undefined
}

async function measure(): Promise<Measured> {
	const seeded = tempDir('band-bench-public-')
	log('seeding the demo events')
	const ids = seedDemo({ buildDir: BUILD_DIR, dataDir: seeded, databaseUrl: '' })
	const sites: { name: string; site: RunningSite }[] = []
	for (const [k, checkout] of CHECKOUTS.entries()) {
		const dataDir = tempDir(`band-bench-public-${checkout.name}-`)
		fs.cpSync(seeded, dataDir, { recursive: true })
		log(`starting ${checkout.name} (${path.relative(ROOT, checkout.root) || '.'})`)
		// The first one also answers /__floor<page> before its own handler (FLOOR).
		const floor =
			k === 0 ? { nodeArgs: ['--import', path.join(ROOT, 'bench/support/answer-at-top.ts')], env: { BENCH_FLOOR_PAGES: PAGES_FILE } } : {}
		sites.push({
			name: checkout.name,
			site: await startSite(`public-pages-${checkout.name}`, {
				buildDir: BUILD_DIR,
				dataDir,
				databaseUrl: '',
				root: checkout.root,
				...floor,
			}),
		})
	}
	const paths = ['/', '/events', `/events/${ids.scheduled}`, '/redeem', '/contact']
	const pages: Page[] = []
	for (const [index, pagePath] of paths.entries()) pages.push(await capture(sites[0]!.site.origin, pagePath, index))
	for (const page of pages) log(`${page.path}: ${page.bytes} bytes, x-page-cache ${page.cache}`)

	writePagesFile(pages)
	const ceiling = await startCeiling(pages)
	const worked = await startCeiling(pages, true)
	const nginx = nginxInstalled()
		? await startNginx(pages.map((p) => ({ path: p.path, headers: p.headers, bodyFile: p.bodyFile })))
		: undefined
	const servers = [...sites.map((s) => s.name), FLOOR, 'raw node', AFTER_APP_WORK, ...(nginx ? ['nginx'] : [])]
	const originOf = (server: string): RunningSite =>
		server === FLOOR
			? sites[0]!.site
			: server === 'raw node'
				? ceiling
				: server === AFTER_APP_WORK
					? worked
					: server === 'nginx'
						? nginx!
						: sites.find((s) => s.name === server)!.site
	const targets: Target[] = pages.flatMap((page) =>
		servers.map((server) => ({
			name: `${server} ${page.path}`,
			url: originOf(server).origin + (server === FLOOR ? FLOOR_PREFIX : '') + page.path,
			pids: [originOf(server).pid],
			headers: CHROMIUM_DOCUMENT_HEADERS,
		})),
	)
	const loads: number[] = []
	const rounds = await loadRounds(targets, LOAD, {
		generate: generateLoad,
		order: (round) =>
			pages.flatMap((_, k) => {
				const page = pages[(k + round) % pages.length]!
				return servers
					.map((_, j) => servers[(j + round) % servers.length]!)
					.map((server) => targets.find((t) => t.name === `${server} ${page.path}`)!)
			}),
		onRound: () => loads.push(os.loadavg()[0] ?? Number.NaN),
		log,
	})

	// Why the older figures (bench/pages.ts until this bench) were lower than an outside harness's:
	// the same landing asked as that bench asked it, a file streamed from disk as the reference, and
	// the load generated inside the bench's own event loop.
	let legacy: Map<string, Round[]> | undefined
	if (LEGACY) {
		const file = pages[0]!.bodyFile
		const fromDisk = await startStatic(file)
		const ours = sites.at(-1)!
		const legacyTargets: Target[] = [
			{
				name: `${ours.name}, only Accept-Encoding: br`,
				url: ours.site.origin + '/',
				pids: [ours.site.pid],
				headers: { 'accept-encoding': 'br' },
			},
			{ name: `${ours.name}, Chromium's headers`, url: ours.site.origin + '/', pids: [ours.site.pid], headers: CHROMIUM_DOCUMENT_HEADERS },
			{ name: 'file streamed from disk', url: `${fromDisk.origin}/`, pids: [fromDisk.pid], headers: CHROMIUM_DOCUMENT_HEADERS },
			{ name: 'raw node', url: ceiling.origin + '/', pids: [ceiling.pid], headers: CHROMIUM_DOCUMENT_HEADERS },
		]
		const apart = await loadRounds(
			legacyTargets,
			{ ...LOAD, rounds: 2 },
			{ generate: generateLoad, onRound: () => loads.push(os.loadavg()[0] ?? Number.NaN), log },
		)
		const inProcess = await loadRounds(
			[
				{ ...legacyTargets[3]!, name: 'raw node, autocannon in the bench process' },
				{ ...legacyTargets[1]!, name: `${ours.name}, Chromium's headers, autocannon in the bench process` },
			],
			{ ...LOAD, rounds: 2 },
			{ generate: cannon, onRound: () => loads.push(os.loadavg()[0] ?? Number.NaN), log },
		)
		legacy = new Map([...apart, ...inProcess])
		await stop(fromDisk.child)
	}
	await Promise.all([
		...sites.map((s) => stop(s.site.child)),
		stop(ceiling.child),
		stop(worked.child),
		...(nginx ? [stop(nginx.child)] : []),
	])
	return { pages, servers, rounds, loads, legacy }
}

/** Ratios over the pages as the report writes them: min – median – max. */
const spread = (values: number[]) => `${Math.min(...values).toFixed(2)} – ${median(values).toFixed(2)} – ${Math.max(...values).toFixed(2)}×`
const ms = (n: number) => (Number.isFinite(n) ? `${n.toFixed(n < 10 ? 2 : 0)}` : '–')

function report(m: Measured): string {
	const out: string[] = ['# Public pages as a browser asks for them, against raw Node and nginx', '']
	out.push(
		`Written by \`node_modules/.bin/node bench/public-pages.ts\`; ${started.toISOString()}; ${machineLine()} at the end; load average (1 min) after each round ${Math.min(...m.loads).toFixed(1)}–${Math.max(...m.loads).toFixed(1)}; build \`${BUILD_DIR}/\`; servers: ${CHECKOUTS.map((c) => c.name).join(', ')}.`,
		'',
		`Method: load from ${generatorName} in a process of its own, ${LOAD.connections} connections, no pipelining, on 127.0.0.1; every request with a Chromium's document headers (User-Agent, \`Accept: text/html,…\`, \`Accept-Encoding: gzip, deflate, br, zstd\`, \`Accept-Language: fr-FR,fr;q=0.9\`, \`Sec-Fetch-Dest/Mode/Site/User\`, \`Upgrade-Insecure-Requests: 1\`), no cookie. A ${LOAD.warmupSeconds} s warm-up per target, then ${LOAD.rounds} rounds of ${LOAD.seconds} s${LOAD.settleSeconds > 0 ? `, each after ${LOAD.settleSeconds} s of the same load not measured` : ''}; in each round the pages in rotating order and, for each, every server in rotating order. **raw node**: node:http answering the very status, headers and brotli body our server sent, from memory (one \`writeHead\` with the raw header list, one \`end\`): the ceiling. **${FLOOR}**: ${CHECKOUTS[0]!.name}'s own server process answering \`${FLOOR_PREFIX}<page>\` with those same bytes in the same way before its request handler runs (bench/support/answer-at-top.ts, loaded with \`--import\`): the same process in the same state, none of our per-request work. **raw node after app work**: the same server in a process that first did, 3,000 times, what an app's process does besides (a form's body read, a page from a web stream gzipped, fetch, a stream pipeline, a file brotli-compressed): Node's own http and stream code then runs less specialised, the part of a real server's cost that is Node's. **nginx**: ${nginxInstalled() ? 'nginx 1.22 (one process) sending the same bytes from a file with the same headers' : 'not installed'}. CPU per request: the serving process's user + system time (/proc/<pid>/stat) over all its rounds ÷ requests. req/s and latencies: median round.`,
		'',
		'| page | bytes (br) | server | req/s | p50 / p99 / worst | CPU/request | ÷ raw node CPU | non-200 / errors |',
		'| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |',
	)
	const ratios = new Map<string, number[]>(m.servers.map((s) => [s, []]))
	for (const page of m.pages) {
		const rawCpu = cpuPerRequest(m.rounds.get(`raw node ${page.path}`)!)
		for (const server of m.servers) {
			const rounds = m.rounds.get(`${server} ${page.path}`)!
			const cpu = cpuPerRequest(rounds)
			ratios.get(server)!.push(cpu / rawCpu)
			out.push(
				`| \`${page.label}\` | ${num(page.bytes)} | ${server} | ${num(medianRps(rounds))} | ${ms(median(rounds.map((r) => r.p50)))} / ${ms(median(rounds.map((r) => r.p99)))} / ${ms(Math.max(...rounds.map((r) => r.maxLatency)))} ms | ${cpu.toFixed(3)} ms | **${(cpu / rawCpu).toFixed(2)}×** | ${sum(rounds.map((r) => r.unexpected))} / ${sum(rounds.map((r) => r.errors))} |`,
			)
		}
	}
	out.push('', 'CPU per request ÷ raw node, over the five pages (min – median – max):', '')
	for (const [server, values] of ratios) out.push(`- ${server}: ${spread(values)}`)
	// What is left once Node's own part is set aside: each checkout ÷ the ceiling after app work, page by page.
	const worked = ratios.get(AFTER_APP_WORK)!
	out.push('', `CPU per request ÷ ${AFTER_APP_WORK} (the part that is our code and its process, not Node's):`, '')
	for (const site of CHECKOUTS) out.push(`- ${site.name}: ${spread(ratios.get(site.name)!.map((ratio, k) => ratio / worked[k]!))}`)
	// Our per-request work on a cache hit alone: the same process, the same answer, with and without it.
	const floor = ratios.get(FLOOR)!
	out.push('', `CPU per request ÷ ${FLOOR} (our own per-request work on a hit, the process being the same):`, '')
	for (const site of CHECKOUTS) out.push(`- ${site.name}: ${spread(ratios.get(site.name)!.map((ratio, k) => ratio / floor[k]!))}`)
	if (m.legacy) {
		out.push(
			'',
			'## Why the older figures were lower',
			'',
			'The landing, in the same run: as bench/pages.ts asked for it (only `Accept-Encoding: br`), against a file streamed from disk (its reference), and with autocannon inside the bench process (its load generator); 2 rounds each.',
			'',
			'| target | req/s | p50 / p99 | CPU/request |',
			'| --- | ---: | ---: | ---: |',
		)
		for (const [name, rounds] of m.legacy)
			out.push(
				`| ${name} | ${num(medianRps(rounds))} | ${ms(median(rounds.map((r) => r.p50)))} / ${ms(median(rounds.map((r) => r.p99)))} ms | ${cpuPerRequest(rounds).toFixed(3)} ms |`,
			)
	}
	return out.join('\n')
}

await runBench(async () => {
	if (!process.argv.includes('--no-build')) buildSite(BUILD_DIR, { log })
	fs.mkdirSync(TMP, { recursive: true })
	const measured = await measure()
	const text = report(measured)
	fs.writeFileSync(RESULTS, text + '\n')
	log(`wrote ${path.relative(process.cwd(), RESULTS)}`)
	console.log(text)
})
