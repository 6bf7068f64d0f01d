/*
 * Where a public page's main-thread time goes while it loads, from a Chromium performance trace:
 *
 *   BUILDS=build-a,build-b node_modules/.bin/node bench/paint-trace.ts --no-build   (A/B, same run)
 *   SHOTS=1 BUILDS=… node_modules/.bin/node bench/paint-trace.ts --no-build          (and screenshots)
 *
 * bench/first-paint.ts says how Lighthouse scores a page; this says what the page's main thread
 * spends its time on, by trace event (self time, thread time: what the page itself costs, which a
 * busy machine inflates far less than wall time), before the first contentful paint and over the
 * whole load, and how much the compositor of the GPU process worked (with no GPU it draws every
 * frame on the CPU, beside the page). Each page is loaded RUNS times (default 5)
 * per build, builds and the floor (the same bare page as bench/first-paint.ts) in turn, each load
 * in a fresh browser context at a phone's size (412 × 823, DPR 1.75, as Lighthouse emulates it),
 * with no throttling. The table gives medians and the ratio to the floor measured in the same run.
 *
 * With SHOTS=1, full-page screenshots of every page of every build at 375 px and 1280 px wide go to
 * bench/.tmp/shots/<build>/ (to compare a change's look before and after).
 *
 * Writes bench/.tmp/paint-trace.md (not a RESULTS file: a tool to find a cost, whose figures go in
 * the reading of bench/RESULTS-first-paint.md), and the last trace of each page to bench/.tmp/.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { chromium, type Browser } from 'playwright-core'
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
const PAGES = (process.env.PAGES ?? '/,/events,event,/redeem,/contact').split(',').filter(Boolean)
const SHOTS = process.env.SHOTS === '1'
const FLOOR = 'floor'
const CATEGORIES = [
	'toplevel',
	'devtools.timeline',
	'disabled-by-default-devtools.timeline',
	'disabled-by-default-devtools.timeline.frame',
	'loading',
	'blink',
	'blink.user_timing',
	'cc',
	'benchmark',
]
const log = makeLog('paint trace')

interface TraceEvent {
	name: string
	ph: string
	pid: number
	tid: number
	ts: number
	dur?: number
	tdur?: number
	args?: { name?: string; data?: { frame?: string; isLoadingMainFrame?: boolean; documentLoaderURL?: string } }
}

/** Lighthouse's grouping of main-thread work, by event name (lighthouse/core/lib/tracehouse/task-groups.js). */
const GROUPS: Record<string, string> = {
	ParseHTML: 'parse HTML & CSS',
	ParseAuthorStyleSheet: 'parse HTML & CSS',
	UpdateLayoutTree: 'style',
	RecalculateStyles: 'style',
	Layout: 'layout',
	PrePaint: 'paint',
	Paint: 'paint',
	PaintImage: 'paint',
	'Decode Image': 'paint',
	Layerize: 'paint',
	UpdateLayer: 'paint',
	UpdateLayerTree: 'paint',
	CompositeLayers: 'paint',
	Commit: 'paint',
	ImageDecodeTask: 'paint',
}

interface Load {
	build: string
	page: string
	cpuToFcp: number
	cpuTotal: number
	compositor: number
	fcp: number
	/** CPU of the GPU process's compositor thread in the 3 s after navigation start (ms). */
	/** Self thread time by event name over the whole load (ms). */
	byName: Record<string, number>
	byGroup: Record<string, number>
}

function analyse(events: TraceEvent[]): Omit<Load, 'build' | 'page'> {
	const navigation = events.find(
		(e) => e.name === 'navigationStart' && e.args?.data?.isLoadingMainFrame && e.args.data.documentLoaderURL?.startsWith('http'),
	)
	if (!navigation) throw new Error('no navigationStart in the trace')
	const fcpEvent = events.find((e) => e.name === 'firstContentfulPaint' && e.pid === navigation.pid && e.ts >= navigation.ts)
	if (!fcpEvent) throw new Error('no first contentful paint in the trace')
	const fcpTs = fcpEvent.ts
	const main = events.filter((e) => e.pid === navigation.pid && e.tid === navigation.tid && e.ph === 'X' && e.ts >= navigation.ts)
	main.sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0))
	let cpuToFcp = 0
	let cpuTotal = 0
	const byName: Record<string, number> = {}
	const byGroup: Record<string, number> = {}
	// Self thread time: each event's own, less its direct children's (a stack of open events). An
	// event's group is its own (GROUPS) or, failing that, its nearest grouped ancestor's (as
	// Lighthouse attributes the fine-grained events inside a Layout or a Paint).
	const stack: { end: number; name: string; group: string; self: number }[] = []
	const close = (until: number) => {
		while (stack.length && stack.at(-1)!.end <= until) {
			const done = stack.pop()!
			byName[done.name] = (byName[done.name] ?? 0) + done.self / 1000
			byGroup[done.group] = (byGroup[done.group] ?? 0) + done.self / 1000
		}
	}
	for (const e of main) {
		const thread = e.tdur ?? e.dur ?? 0
		close(e.ts)
		const topLevel = stack.length === 0
		if (topLevel) {
			cpuTotal += thread
			if (e.ts < fcpTs) cpuToFcp += thread
		}
		const parent = stack.at(-1)
		if (parent) parent.self -= thread
		const group = GROUPS[e.name] ?? (parent && parent.group !== 'task' ? parent.group : topLevel ? 'task' : 'other')
		stack.push({ end: e.ts + (e.dur ?? 0), name: e.name, group, self: thread })
	}
	close(Number.POSITIVE_INFINITY)
	byGroup['task overhead'] = byGroup.task ?? 0
	const threadNames = new Map<string, string>()
	for (const e of events) if (e.name === 'thread_name' && e.ph === 'M') threadNames.set(`${e.pid}:${e.tid}`, e.args?.name ?? '')
	// The compositor of the GPU process, which with no GPU draws every frame on the CPU: it competes
	// with the page's main thread for the phone's cores.
	let raster = 0
	for (const e of events) {
		if (e.ph !== 'X' || e.name !== 'RunTask' || e.ts < navigation.ts || e.ts > navigation.ts + 3_000_000) continue
		if (threadNames.get(`${e.pid}:${e.tid}`) !== 'VizCompositorThread') continue
		raster += e.tdur ?? 0
	}
	return {
		cpuToFcp: cpuToFcp / 1000,
		cpuTotal: cpuTotal / 1000,
		compositor: raster / 1000,
		fcp: (fcpTs - navigation.ts) / 1000,
		byName,
		byGroup,
	}
}

async function traceLoad(browser: Browser, url: string, file: string): Promise<Omit<Load, 'build' | 'page'>> {
	// Now and then a trace misses the navigation (no navigationStart or no first paint): that load
	// says nothing of the page, so it is made again (twice at most).
	for (let attempt = 1; ; attempt++) {
		const context = await browser.newContext({
			viewport: { width: 412, height: 823 },
			deviceScaleFactor: 1.75,
			isMobile: true,
			hasTouch: true,
		})
		try {
			const page = await context.newPage()
			await browser.startTracing(page, { categories: CATEGORIES })
			await page.goto(url, { waitUntil: 'load' })
			await page.waitForTimeout(1500)
			const buffer = await browser.stopTracing()
			fs.writeFileSync(file, buffer)
			const { traceEvents } = JSON.parse(buffer.toString('utf8')) as { traceEvents: TraceEvent[] }
			return analyse(traceEvents)
		} catch (error) {
			if (attempt >= 3 || !/no navigationStart|no first contentful paint/.test(String(error))) throw error
		} finally {
			await context.close()
		}
	}
}

async function screenshots(browser: Browser, url: string, dir: string, name: string) {
	fs.mkdirSync(dir, { recursive: true })
	for (const width of [375, 1280]) {
		const context = await browser.newContext({ viewport: { width, height: width === 375 ? 812 : 900 }, isMobile: width === 375 })
		try {
			const page = await context.newPage()
			await page.goto(url, { waitUntil: 'load' })
			await page.evaluate(() => document.fonts.ready)
			await page.screenshot({ path: path.join(dir, `${name}-${width}.png`), fullPage: true })
		} finally {
			await context.close()
		}
	}
}

/** `--read trace.json…`: the analysis of traces already taken (bench/.tmp/trace-*.json), one line each. */
const readIndex = process.argv.indexOf('--read')
if (readIndex > 0) {
	for (const file of process.argv.slice(readIndex + 1)) {
		const { traceEvents } = JSON.parse(fs.readFileSync(file, 'utf8')) as { traceEvents: TraceEvent[] }
		const load = analyse(traceEvents)
		const top = Object.entries(load.byName)
			.sort((a, b) => b[1] - a[1])
			.slice(0, 15)
		console.log(
			`${path.basename(file)}: CPU to FCP ${load.cpuToFcp.toFixed(1)} ms, total ${load.cpuTotal.toFixed(1)} ms, compositor ${load.compositor.toFixed(1)} ms, FCP at ${load.fcp.toFixed(0)} ms`,
		)
		console.log(
			`  groups: ${Object.entries(load.byGroup)
				.map(([g, ms]) => `${g} ${ms.toFixed(1)}`)
				.join(', ')}`,
		)
		console.log(`  top: ${top.map(([name, ms]) => `${name} ${ms.toFixed(1)}`).join(', ')}`)
	}
	process.exit(0)
}

await runBench(async () => {
	if (BUILDS.length === 1) buildSite(BUILDS[0]!, { log })
	const sites = []
	for (const build of BUILDS) {
		const dataDir = tempDir('band-bench-trace-')
		log(`${build}: seeding the demo events`)
		const ids = seedDemo({ buildDir: build, dataDir })
		const site = await startSite(`trace-${build}`, { buildDir: build, dataDir })
		sites.push({ build, site, event: `/events/${ids.scheduled}` })
	}
	const floorFile = path.join(tempDir('band-bench-floor-'), 'floor.html')
	fs.writeFileSync(floorFile, FLOOR_HTML)
	const floor = await startStatic(floorFile)
	const chromiumProcess = await startChromium()
	const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chromiumProcess.port}`)
	const loads: Load[] = []
	const loadAverages: number[] = []
	try {
		for (const { site, event } of sites) for (const page of PAGES) await fetch(site.origin + (page === 'event' ? event : page))
		if (SHOTS) {
			for (const { build, site, event } of sites)
				for (const page of PAGES) {
					const name = page === 'event' ? 'event' : page.replace(/\W+/g, '') || 'home'
					await screenshots(browser, site.origin + (page === 'event' ? event : page), path.join(TMP, 'shots', build), name)
				}
			log(`screenshots in ${path.relative(process.cwd(), path.join(TMP, 'shots'))}/`)
		}
		for (let round = 0; round < RUNS; round++) {
			loadAverages.push(os.loadavg()[0] ?? 0)
			for (const page of PAGES) {
				for (let k = 0; k < sites.length; k++) {
					const { build, site, event } = sites[(k + round) % sites.length]!
					const url = site.origin + (page === 'event' ? event : page)
					await fetch(url)
					const name = page === 'event' ? 'event' : page.replace(/\W+/g, '') || 'home'
					const load = { build, page, ...(await traceLoad(browser, url, path.join(TMP, `trace-${build}-${name}.json`))) }
					loads.push(load)
					log(
						`round ${round + 1} ${build} ${page}: CPU to FCP ${load.cpuToFcp.toFixed(1)} ms, total ${load.cpuTotal.toFixed(1)} ms, compositor ${load.compositor.toFixed(1)} ms`,
					)
				}
			}
			const load = {
				build: FLOOR,
				page: 'floor',
				...(await traceLoad(browser, `${floor.origin}/plancher`, path.join(TMP, 'trace-floor.json'))),
			}
			loads.push(load)
			log(`round ${round + 1} floor: CPU to FCP ${load.cpuToFcp.toFixed(1)} ms, total ${load.cpuTotal.toFixed(1)} ms`)
		}
	} finally {
		await browser.close()
		await stop(chromiumProcess.child)
		for (const { site } of sites) await stop(site.child)
		await stop(floor.child)
	}
	const floorLoads = loads.filter((l) => l.build === FLOOR)
	const floorCpu = median(floorLoads.map((l) => l.cpuToFcp))
	const floorTotal = median(floorLoads.map((l) => l.cpuTotal))
	const groups = ['parse HTML & CSS', 'style', 'layout', 'paint', 'other', 'task overhead']
	const f = (v: number) => v.toFixed(1)
	const out = [
		`# Main-thread time of the public pages, from Chromium traces`,
		'',
		`${new Date().toISOString()}; ${machineLine()}; load average (1 min) during the rounds ${Math.min(...loadAverages).toFixed(1)}–${Math.max(...loadAverages).toFixed(1)}. ${RUNS} loads of each page per build, 412 × 823 at DPR 1.75, no throttling; medians, thread time (ms).`,
		'',
		`| build | page | CPU to FCP | ÷ floor | main thread, whole load | ÷ floor | ${groups.join(' | ')} | compositor (GPU process), 3 s |`,
		`| --- | --- | ---: | ---: | ---: | ---: | ${groups.map(() => '---:').join(' | ')} | ---: |`,
	]
	const rows = [...PAGES.flatMap((page) => BUILDS.map((build) => ({ build, page }))), { build: FLOOR, page: 'floor' }]
	for (const { build, page } of rows) {
		const mine = loads.filter((l) => l.build === build && l.page === page)
		const cpu = median(mine.map((l) => l.cpuToFcp))
		const total = median(mine.map((l) => l.cpuTotal))
		out.push(
			`| ${build} | \`${page}\` | ${f(cpu)} | ${(cpu / floorCpu).toFixed(2)}× | ${f(total)} | ${(total / floorTotal).toFixed(2)}× | ${groups.map((g) => f(median(mine.map((l) => l.byGroup[g] ?? 0)))).join(' | ')} | ${f(median(mine.map((l) => l.compositor)))} |`,
		)
	}
	out.push('', 'Main-thread events with the most self time (median ms, whole load):', '')
	for (const { build, page } of rows) {
		const mine = loads.filter((l) => l.build === build && l.page === page)
		const names = new Set(mine.flatMap((l) => Object.keys(l.byName)))
		const top = [...names]
			.map((name) => [name, median(mine.map((l) => l.byName[name] ?? 0))] as const)
			.sort((a, b) => b[1] - a[1])
			.slice(0, 8)
		out.push(`- ${build} \`${page}\`: ${top.map(([name, ms]) => `${name} ${f(ms)}`).join(', ')}`)
	}
	const text = out.join('\n') + '\n'
	fs.writeFileSync(path.join(TMP, 'paint-trace.md'), text)
	console.log(text)
})
