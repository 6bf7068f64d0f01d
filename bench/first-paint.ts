/*
 * First paint of the five public pages a visitor lands on, as Lighthouse scores it on a phone,
 * several runs each:
 *
 *   node_modules/.bin/node bench/first-paint.ts                 (builds into build-bench-paint/ first)
 *   BUILDS=build-a,build-b node_modules/.bin/node bench/first-paint.ts --no-build   (two builds, A/B)
 *
 * For each build: a data folder seeded with the demo events (the event page measured has a ready
 * cover) and our server on it. Then RUNS rounds (default 5); each round runs Lighthouse (Node API,
 * default config: mobile emulation, simulated throttling, performance only) on `/`, `/events`,
 * the event page, `/redeem` and `/contact` (or the pages PAGES lists, `event` for the event page),
 * every build in turn for each page (the order rotates between rounds, so that whatever else the
 * machine does weighs on all builds alike), each page as the anonymous page cache serves it, then
 * on the floor: a bare page from a plain node:http server, what the machine allows at that moment
 * (`FLOOR_ISLAND=1`: also the floor with an empty deferred module script, to see Lantern's TBT
 * window move; see FLOOR_ISLAND below).
 * It notes the scripts each load fetched and their size as gzip sends them, and the main thread's
 * own CPU time before the first paint. The targets (issue 28): score 100 in every run, TBT < 50 ms,
 * LCP < 1.2 s, no script on a page where nothing is interactive. Lighthouse's simulated times move
 * between runs of the same build on a shared machine: read them beside the floor's, and compare
 * builds measured in the same run.
 *
 * Writes bench/RESULTS-first-paint.md, every run as JSON to bench/.tmp/first-paint.json (with, per
 * run, Lantern's TBT window, the long tasks as simulated and the trace's tasks that the simulation
 * makes long), and each run's Lighthouse report and trace whole to bench/.tmp/first-paint-runs/.
 * Loopback only; every process started here is stopped.
 */
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import lighthouse from 'lighthouse'
import type { TraceEvent } from 'lighthouse/types/artifacts.js'
import { stop } from './processes.ts'
import {
	FLOOR_HTML,
	TMP,
	buildSite,
	machineLine,
	makeLog,
	median,
	runBench,
	seedDemo,
	startChromium,
	startSite,
	startStatic,
	tempDir,
} from './support/harness.ts'

const BUILDS = (process.env.BUILDS ?? process.env.BUILD_DIR ?? 'build-bench-paint').split(',').filter(Boolean)
const RUNS = Number(process.env.RUNS ?? 5)
const RESULTS = path.join(import.meta.dirname, 'RESULTS-first-paint.md')
/** `PAGES=/,/events,event,/redeem,/contact` measures those (`event`: the demo event page with a cover). */
const PAGES = (process.env.PAGES ?? '/,/events,event,/redeem,/contact').split(',').filter(Boolean)
/**
 * The floor: a bare page (a title and a paragraph, no stylesheet, no font, no script) from a plain
 * node:http server, measured in every round beside the site's pages (`FLOOR=0` leaves it out).
 * What it scores is what the machine allows at that moment: no page can do better.
 */
const FLOOR = process.env.FLOOR !== '0'
/**
 * `FLOOR_ISLAND=1` also measures the floor with one empty deferred module script in its head (a
 * control, not a page of ours): Lantern cannot see that a module script did not block the first
 * paint (a module's evaluation is not an `EvaluateScript` event with its address), so it keeps the
 * script's request in its simulated FCP, which ends later, and the TBT window (simulated FCP → TTI)
 * with it. Beside the bare floor, it shows what that does to the TBT of a page with the same tasks.
 */
const FLOOR_ISLAND = FLOOR && process.env.FLOOR_ISLAND === '1'
/** Every run's Lighthouse report and trace (`<time>-<page>.report.json`, `.trace.json`), of the last bench only. */
const KEPT = path.join(TMP, 'first-paint-runs')
const started = new Date()
const log = makeLog('first paint', started.getTime())

interface Run {
	build: string
	page: string
	round: number
	score: number
	fcp: number
	lcp: number
	tbt: number
	cls: number
	/** The page's scripts as they travelled (Lighthouse's network records): how many, and their bytes. */
	scripts: number
	scriptBytes: number
	/** Their addresses (path, content hash left out), and their bytes as the server sends them gzipped. */
	scriptNames: string[]
	scriptGzip: number
	/** Each script's gzipped bytes, by name. */
	scriptSizes: Record<string, number>
	/** The server's response time for the document, as Lighthouse observed it (ms). */
	serverMs: number
	observedLcp: number
	lcpElement: string
	/** TTFB, load delay, load time, render delay (ms), as Lighthouse splits the LCP. */
	phases: Record<string, number>
	/**
	 * The page's main-thread CPU up to its (observed) first contentful paint, and in the 5 s after it:
	 * thread time, ms, unthrottled, from the trace. Lighthouse's simulation takes each task's wall time
	 * ×4, and on a busy machine a task's wall time is mostly waiting for a core; its thread time is
	 * what the page itself costs.
	 */
	cpuToFcp: number
	cpuAfterFcp: number
	/** Main-thread time by kind (Lighthouse's breakdown, simulated ×4), ms: what the blocking time is made of. */
	mainThread: Record<string, number>
	/** Requests that ended before the observed LCP (they are in the simulated LCP's graph). */
	beforeLcp: string[]
	/**
	 * Lantern's window for TBT: simulated FCP and TTI (ms); TBT counts what of each simulated task
	 * over 50 ms falls between them, beyond 50 ms.
	 */
	tti: number
	/** The long tasks as the simulation placed them (the `long-tasks` audit): start, duration, ms, and what they were made of. */
	longTasks: { start: number; duration: number; url: string; groups: Record<string, number> }[]
	/**
	 * The trace's main-thread tasks of the load that the simulation makes long (wall time ≥ 12.5 ms,
	 * ×4 ≥ 50 ms): their start after navigation, wall and thread time (ms), and their largest events.
	 */
	traceTasks: { at: number; wall: number; thread: number; top: string }[]
	/** Where this run's report and trace were kept (bench/.tmp/first-paint-runs/). */
	kept: string
	loadAverage: number
}

type Details = { items?: Details[]; type?: string; [key: string]: unknown }

const FLOOR_BUILD = 'floor'
/** What a browser sends with a page request (the cache keeps one entry for all such visitors). */
const BROWSER_HEADERS = {
	'user-agent':
		'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/136.0.0.0 Mobile Safari/537.36',
	accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
	'accept-encoding': 'br, gzip',
	'sec-fetch-dest': 'document',
	'sec-fetch-mode': 'navigate',
	'sec-fetch-site': 'none',
}

const gzipSizes = new Map<string, Promise<number>>()

/**
 * The bytes the server sends for `url` to a client that accepts gzip alone (once per address): the
 * build's .gz sibling, or the file itself when it is too small to be worth compressing.
 */
function gzippedSize(url: string): Promise<number> {
	let size = gzipSizes.get(url)
	if (!size) {
		size = new Promise<number>((resolve, reject) => {
			http
				.get(url, { headers: { 'accept-encoding': 'gzip' } }, (response) => {
					let bytes = 0
					response.on('data', (chunk: Buffer) => (bytes += chunk.length))
					response.on('end', () => (response.statusCode === 200 ? resolve(bytes) : reject(new Error(`${url}: ${response.statusCode}`))))
				})
				.on('error', reject)
		})
		gzipSizes.set(url, size)
	}
	return size
}

/** An asset's path without its content hash: `/assets/share-AbCd1234.js` → `/assets/share.js`. */
const withoutHash = (url: string) => new URL(url).pathname.replace(/-[\w-]{8}(\.\w+)$/, '$1')

async function lighthouseRun(url: string, port: number): Promise<Omit<Run, 'build' | 'page' | 'round' | 'loadAverage'>> {
	const result = await Promise.race([
		lighthouse(url, { port, hostname: '127.0.0.1', output: 'json', logLevel: 'error', onlyCategories: ['performance'] }),
		new Promise<never>((_, reject) => setTimeout(() => reject(new Error('Lighthouse took more than 120 s')), 120_000).unref()),
	])
	if (!result) throw new Error(`Lighthouse returned nothing for ${url}`)
	const lhr = result.lhr
	if (lhr.runtimeError) throw new Error(`Lighthouse ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`)
	const value = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN
	const metrics = (lhr.audits.metrics?.details as Details | undefined)?.items?.[0] as Record<string, number> | undefined
	const observedLcp = metrics?.observedLargestContentfulPaint ?? Number.NaN
	// The element, and the phases table, from the LCP element audit.
	const lists = ((lhr.audits['largest-contentful-paint-element']?.details as Details | undefined)?.items ?? []) as Details[]
	let lcpElement = '—'
	const phases: Record<string, number> = {}
	for (const table of lists) {
		for (const row of (table.items ?? []) as Record<string, unknown>[]) {
			const node = row.node as { selector?: string; snippet?: string } | undefined
			if (node) lcpElement = node.snippet?.slice(0, 90) ?? node.selector ?? '—'
			if (typeof row.phase === 'string' && typeof row.timing === 'number') phases[row.phase] = Math.round(row.timing)
		}
	}
	const { cpuToFcp, cpuAfterFcp, traceTasks } = mainThreadCpu(result.artifacts.Trace.traceEvents)
	// Every run kept whole: the report, and the trace the simulation was made from.
	const kept = path.join(KEPT, `${Date.now()}-${pageName(url)}`)
	fs.writeFileSync(`${kept}.report.json`, JSON.stringify(lhr))
	fs.writeFileSync(`${kept}.trace.json`, JSON.stringify(result.artifacts.Trace))
	const longTasks =
		(
			((lhr.audits['long-tasks']?.details as Details | undefined)?.debugData as Details | undefined)?.tasks as
				{ startTime: number; duration: number; urlIndex: number; [group: string]: number }[] | undefined
		)?.map(({ startTime, duration, urlIndex, ...groups }) => ({
			start: Math.round(startTime),
			duration: Math.round(duration),
			url: String(
				(((lhr.audits['long-tasks']?.details as Details | undefined)?.debugData as Details | undefined)?.urls as string[] | undefined)?.[
					urlIndex
				] ?? '',
			),
			groups: Object.fromEntries(Object.entries(groups).map(([k, v]) => [k, Math.round(v)])),
		})) ?? []
	const mainThread: Record<string, number> = {}
	for (const row of ((lhr.audits['mainthread-work-breakdown']?.details as Details | undefined)?.items ?? []) as Record<string, unknown>[])
		if (typeof row.groupLabel === 'string' && typeof row.duration === 'number') mainThread[row.groupLabel] = Math.round(row.duration)
	// A run short of 100 is kept whole, for its audits (bench/.tmp/first-paint-<page>-<time>.json).
	const requests = ((lhr.audits['network-requests']?.details as Details | undefined)?.items ?? []) as {
		url: string
		networkEndTime?: number
		transferSize?: number
		resourceType?: string
	}[]
	const scripts = requests.filter((r) => r.resourceType === 'Script')
	const beforeLcp = requests
		.filter((r) => typeof r.networkEndTime === 'number' && r.networkEndTime <= observedLcp)
		.map((r) => `${withoutHash(r.url)} (${((r.transferSize ?? 0) / 1000).toFixed(1)} kB)`)
	const scriptSizes: Record<string, number> = {}
	for (const r of scripts.filter((r) => r.url.startsWith('http'))) scriptSizes[withoutHash(r.url)] = await gzippedSize(r.url)
	const scriptGzip = Object.values(scriptSizes).reduce((a, b) => a + b, 0)
	return {
		score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
		fcp: value('first-contentful-paint'),
		lcp: value('largest-contentful-paint'),
		tbt: value('total-blocking-time'),
		cls: value('cumulative-layout-shift'),
		scripts: scripts.length,
		scriptBytes: scripts.reduce((total, r) => total + (r.transferSize ?? 0), 0),
		scriptNames: scripts.map((r) => (r.url.startsWith('http') ? withoutHash(r.url) : r.url.slice(0, 40))),
		scriptGzip,
		scriptSizes,
		serverMs: value('server-response-time'),
		observedLcp,
		lcpElement,
		phases,
		mainThread,
		cpuToFcp,
		cpuAfterFcp,
		beforeLcp,
		tti: metrics?.interactive ?? Number.NaN,
		longTasks,
		traceTasks,
		kept: path.relative(process.cwd(), kept),
	}
}

const pageName = (url: string) => new URL(url).pathname.replace(/\W+/g, '-').replace(/^-|-$/g, '') || 'home'

/**
 * Thread time of the page's main-thread tasks before its first contentful paint, and in the 5 s after
 * (ms); and the tasks of the load long enough to be long once simulated (wall ≥ 12.5 ms: ×4 ≥ 50 ms),
 * each with its largest events (self time, thread time where the trace has it).
 */
function mainThreadCpu(events: TraceEvent[]): {
	cpuToFcp: number
	cpuAfterFcp: number
	traceTasks: Run['traceTasks']
} {
	const navigation = events.find(
		(e) => e.name === 'navigationStart' && e.args.data?.isLoadingMainFrame && e.args.data.documentLoaderURL?.startsWith('http'),
	)
	const fcp = navigation && events.find((e) => e.name === 'firstContentfulPaint' && e.pid === navigation.pid && e.ts >= navigation.ts)
	if (!navigation || !fcp) return { cpuToFcp: Number.NaN, cpuAfterFcp: Number.NaN, traceTasks: [] }
	let cpuToFcp = 0
	let cpuAfterFcp = 0
	const onThread = events
		.filter((e) => e.pid === navigation.pid && e.tid === navigation.tid && e.ph === 'X' && e.ts >= navigation.ts - 100_000)
		.sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0))
	const traceTasks: Run['traceTasks'] = []
	for (let i = 0; i < onThread.length; i++) {
		const e = onThread[i]!
		if (e.name !== 'RunTask') continue
		const thread = (e as { tdur?: number }).tdur ?? 0
		if (e.ts >= navigation.ts) {
			if (e.ts < fcp.ts) cpuToFcp += thread
			else if (e.ts < fcp.ts + 5_000_000) cpuAfterFcp += thread
		}
		const end = e.ts + (e.dur ?? 0)
		if ((e.dur ?? 0) < 12_500 || e.ts > fcp.ts + 10_000_000) continue
		// Self time of each event inside the task: its duration less its direct children's.
		const inside: TraceEvent[] = []
		for (let j = i + 1; j < onThread.length && onThread[j]!.ts < end; j++) inside.push(onThread[j]!)
		const self = new Map<string, number>()
		const stack: TraceEvent[] = []
		for (const child of inside) {
			while (stack.length && stack.at(-1)!.ts + (stack.at(-1)!.dur ?? 0) <= child.ts) stack.pop()
			const parent = stack.at(-1)
			self.set(child.name, (self.get(child.name) ?? 0) + (child.dur ?? 0))
			if (parent) self.set(parent.name, (self.get(parent.name) ?? 0) - (child.dur ?? 0))
			stack.push(child)
		}
		const top = [...self.entries()]
			.filter(([, us]) => us >= 500)
			.sort((a, b) => b[1] - a[1])
			.slice(0, 6)
			.map(([name, us]) => `${name} ${(us / 1000).toFixed(1)}`)
			.join(', ')
		traceTasks.push({
			at: Math.round((e.ts - navigation.ts) / 1000),
			wall: Math.round((e.dur ?? 0) / 100) / 10,
			thread: Math.round(thread / 100) / 10,
			top,
		})
	}
	return { cpuToFcp: cpuToFcp / 1000, cpuAfterFcp: cpuAfterFcp / 1000, traceTasks }
}

/**
 * Lighthouse now and then loses the trace of a load (NO_NAVSTART, NO_FCP): that run says nothing of
 * the page, so it is made again (twice at most) rather than ending the whole bench.
 */
async function lighthouseRetrying(url: string, port: number) {
	for (let attempt = 1; ; attempt++) {
		try {
			return await lighthouseRun(url, port)
		} catch (error) {
			if (attempt >= 3 || !/NO_NAVSTART|NO_FCP|NO_LCP/.test(String(error))) throw error
			log(`${url}: ${String(error).split('\n')[0]}; again`)
		}
	}
}

function report(runs: Run[], loadStart: number, loadEnd: number): string {
	const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`
	const ms = (value: number) => `${Math.round(value)} ms`
	const kB = (bytes: number) => `${(bytes / 1000).toFixed(2)} kB`
	const several = BUILDS.length > 1
	// Every page on every build, then the floor.
	const rows = [
		...PAGES.flatMap((page) => BUILDS.map((build) => ({ build, page }))),
		{ build: FLOOR_BUILD, page: 'floor' },
		{ build: FLOOR_BUILD, page: 'floor-island' },
	]
		.map(({ build, page }) => ({ build, page, mine: runs.filter((r) => r.build === build && r.page === page) }))
		.filter((row) => row.mine.length > 0)
	const label = (page: string) =>
		page === 'event'
			? '`/events/:id` (cover)'
			: page === 'floor'
				? 'floor: a bare page (plain node:http)'
				: page === 'floor-island'
					? 'floor + an empty deferred module script (control)'
					: `\`${page}\``
	const out = [
		'# First paint on a phone (Lighthouse, several runs)',
		'',
		`Written by \`node bench/first-paint.ts\` (pages: ${PAGES.join(', ')}${FLOOR ? ', and the floor' : ''}); ${started.toISOString()}; ${machineLine()} at the end, ${loadStart.toFixed(1)} (1 min) at the start. Lighthouse ${lighthouseVersion()}, default config (mobile emulation, simulated throttling: 150 ms RTT, 1.6 Mbps, 4× CPU), performance category only; ${RUNS} rounds, each page on every build in turn (rotating order), then the floor. Targets (issue 28): score 100 in every run, TBT < 50 ms, LCP < 1.2 s, no JavaScript where nothing is interactive. CPU to FCP: the main thread's own time (thread time, unthrottled) before the first contentful paint, which a busy machine does not inflate as it does the wall time Lighthouse simulates from.`,
		'',
		`| ${several ? 'build | ' : ''}page | runs at 100 | score min, median | TBT median, max | LCP median, max | FCP median | CLS max | CPU to FCP median | server median, max | JS gzipped | scripts loaded (gzipped) | load avg (runs) |`,
		`| ${several ? '--- | ' : ''}--- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |`,
	]
	for (const { build, page, mine } of rows) {
		const scores = mine.map((r) => r.score)
		const tbts = mine.map((r) => r.tbt)
		const lcps = mine.map((r) => r.lcp)
		const sizes = Object.assign({}, ...mine.map((r) => r.scriptSizes)) as Record<string, number>
		const scripts =
			Object.entries(sizes)
				.map(([name, bytes]) => `\`${name}\` ${kB(bytes)}`)
				.join(', ') || 'none'
		const servers = mine.map((r) => r.serverMs)
		out.push(
			`| ${several ? `${build === FLOOR_BUILD ? '—' : build} | ` : ''}${label(page)} | ${scores.filter((v) => v === 100).length} of ${mine.length} | ${Math.min(...scores)}, ${median(scores)} | ${ms(median(tbts))}, ${ms(Math.max(...tbts))} | **${s(median(lcps))}**, ${s(Math.max(...lcps))} | ${s(median(mine.map((r) => r.fcp)))} | ${Math.max(...mine.map((r) => r.cls)).toFixed(3)} | ${ms(median(mine.map((r) => r.cpuToFcp)))} | ${ms(median(servers))}, ${ms(Math.max(...servers))} | ${kB(median(mine.map((r) => r.scriptGzip)))} | ${scripts} | ${Math.min(...mine.map((r) => r.loadAverage)).toFixed(1)}–${Math.max(...mine.map((r) => r.loadAverage)).toFixed(1)} |`,
		)
	}
	out.push('', `Load average (1 min) ${loadStart.toFixed(1)} at the start, ${loadEnd.toFixed(1)} at the end.`, '')
	out.push(
		'The largest paint: its element, its phases (median ms) and what the browser had fetched by its (unthrottled) LCP, last run:',
		'',
	)
	for (const { build, page, mine } of rows) {
		const phaseNames = Object.keys(mine[0]!.phases)
		const phases = phaseNames.map((name) => `${name} ${median(mine.map((r) => r.phases[name] ?? 0))}`).join(', ')
		const elements = [...new Set(mine.map((r) => r.lcpElement))].map((e) => `\`${e}\``).join(', ')
		out.push(
			`- ${several ? `${build} ` : ''}${label(page)}: ${elements}; ${phases || 'no phases'}; before LCP: ${mine.at(-1)!.beforeLcp.join(', ')}`,
		)
	}
	out.push('', 'Every run (score / TBT / LCP / CPU to FCP / load average):', '')
	for (const { build, page, mine } of rows) {
		out.push(
			`- ${several ? `${build} ` : ''}${label(page)}: ${mine.map((r) => `${r.score} / ${ms(r.tbt)} / ${s(r.lcp)} / ${ms(r.cpuToFcp)} / ${r.loadAverage.toFixed(1)}`).join('; ')}`,
		)
	}
	out.push(
		'',
		"Total Blocking Time, where it came from: Lantern's window (simulated FCP → TTI), the long tasks as simulated (start–end, ms; *counted*: the part inside the window beyond 50 ms), and the trace's tasks that the simulation makes long (wall ≥ 12.5 ms: at, wall / thread ms, largest events by wall self time), every run:",
		'',
	)
	for (const { build, page, mine } of rows) {
		for (const r of mine) {
			const tasks = r.longTasks
				.toSorted((a, b) => a.start - b.start)
				.map((t) => {
					const end = t.start + t.duration
					const inside = Math.min(end, r.tti) - Math.max(t.start, r.fcp)
					return `${t.start}–${end}${inside > 50 ? ` *${Math.round(inside - 50)}*` : ''}`
				})
				.join(', ')
			const trace = r.traceTasks.map((t) => `${t.at}: ${t.wall} / ${t.thread} (${t.top || '—'})`).join('; ')
			out.push(
				`- ${several ? `${build} ` : ''}${label(page)}, round ${r.round + 1}, load ${r.loadAverage.toFixed(1)}: TBT ${ms(r.tbt)}, window ${Math.round(r.fcp)}–${Math.round(r.tti)}; long tasks ${tasks || 'none'}; trace ${trace || 'none'}`,
			)
		}
	}
	return out.join('\n') + '\n'
}

function lighthouseVersion(): string {
	const file = path.join(import.meta.dirname, '..', 'node_modules', 'lighthouse', 'package.json')
	return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version
}

await runBench(async () => {
	const loadStart = os.loadavg()[0] ?? 0
	// The last bench's runs only (some 2–3 MB a run).
	fs.rmSync(KEPT, { recursive: true, force: true })
	fs.mkdirSync(KEPT, { recursive: true })
	if (BUILDS.length === 1) buildSite(BUILDS[0]!, { log })
	const sites = []
	for (const build of BUILDS) {
		const dataDir = tempDir('band-bench-paint-')
		log(`${build}: seeding the demo events`)
		const ids = seedDemo({ buildDir: build, dataDir })
		const site = await startSite(`paint-${build}`, { buildDir: build, dataDir })
		sites.push({ build, site, event: `/events/${ids.scheduled}` })
	}
	const floorFile = path.join(tempDir('band-bench-floor-'), 'floor.html')
	fs.writeFileSync(floorFile, FLOOR_HTML)
	const floor = FLOOR ? await startStatic(floorFile) : null
	const floorIslandFile = path.join(path.dirname(floorFile), 'floor-island.html')
	fs.writeFileSync(floorIslandFile, FLOOR_HTML.replace('</head>', '<script type="module" src="/ilot.js"></script></head>'))
	const floorIsland = FLOOR_ISLAND ? await startStatic(floorIslandFile) : null
	const browser = await startChromium()
	const runs: Run[] = []
	const measure = async (build: string, page: string, round: number, url: string) => {
		// The page as the anonymous page cache serves it: an entry lives 60 s (server/page-cache.ts) and
		// a page comes back only every minute or two here, so without this every run would measure a
		// render on the busy machine instead (bench/pages.ts measures the server).
		await (await fetch(url, { headers: BROWSER_HEADERS })).arrayBuffer()
		const loadAverage = os.loadavg()[0] ?? 0
		const run = { build, page, round, loadAverage, ...(await lighthouseRetrying(url, browser.port)) }
		runs.push(run)
		log(
			`round ${round + 1} ${build} ${page}: score ${run.score}, FCP ${Math.round(run.fcp)} ms, LCP ${Math.round(run.lcp)} ms (observed ${Math.round(run.observedLcp)}), TBT ${Math.round(run.tbt)} ms, CLS ${run.cls.toFixed(3)}, JS ${run.scriptGzip} B gzipped (${run.scriptNames.join(' ') || 'none'}), CPU to FCP ${Math.round(run.cpuToFcp)} ms, server ${Math.round(run.serverMs)} ms, load ${loadAverage.toFixed(1)}; main thread ${JSON.stringify(run.mainThread)}; ${run.lcpElement}; TTI ${Math.round(run.tti)} ms; simulated long tasks ${JSON.stringify(run.longTasks)}; trace tasks ≥ 12.5 ms ${JSON.stringify(run.traceTasks)}; kept ${run.kept}`,
		)
	}
	try {
		// One run of each page on each site first, unrecorded: fills the page caches.
		for (const { site, event } of sites) for (const page of PAGES) await fetch(site.origin + (page === 'event' ? event : page))
		for (let round = 0; round < RUNS; round++) {
			for (const page of PAGES) {
				for (let k = 0; k < sites.length; k++) {
					const { build, site, event } = sites[(k + round) % sites.length]!
					await measure(build, page, round, site.origin + (page === 'event' ? event : page))
				}
			}
			if (floor) await measure(FLOOR_BUILD, 'floor', round, `${floor.origin}/plancher`)
			if (floorIsland) await measure(FLOOR_BUILD, 'floor-island', round, `${floorIsland.origin}/plancher-ilot`)
		}
	} finally {
		fs.writeFileSync(path.join(TMP, 'first-paint.json'), JSON.stringify(runs, null, '\t'))
		await stop(browser.child)
		for (const { site } of sites) await stop(site.child)
		if (floor) await stop(floor.child)
		if (floorIsland) await stop(floorIsland.child)
	}
	const text = report(runs, loadStart, os.loadavg()[0] ?? 0)
	fs.writeFileSync(RESULTS, text)
	log(`wrote ${path.relative(process.cwd(), RESULTS)}`)
	console.log(text)
})
