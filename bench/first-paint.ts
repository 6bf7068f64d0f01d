/*
 * First paint of the four public pages, as Lighthouse scores it on a phone, several runs each:
 *
 *   node_modules/.bin/node bench/first-paint.ts                 (builds into build-bench-paint/ first)
 *   BUILDS=build-a,build-b node_modules/.bin/node bench/first-paint.ts --no-build   (two builds, A/B)
 *
 * For each build: a data folder seeded with the demo events (the event page measured has a ready
 * cover) and our server on it. Then RUNS rounds (default 5); each round runs Lighthouse (Node API,
 * default config: mobile emulation, simulated throttling, performance only) on `/`, `/events`,
 * the event page and `/auth/signin` (or the pages PAGES lists, `event` for the event page), every
 * build in turn for each page, and notes the scripts each load fetched (the order rotates between
 * rounds), so that whatever else the machine does weighs on all builds alike. Lighthouse's
 * simulated LCP moves by a few tenths of a second between runs of the same build on a shared
 * machine: read the medians, and compare builds measured in the same run.
 *
 * Writes bench/RESULTS-first-paint.md (medians, ranges, the LCP element and its phases) and every
 * run as JSON to bench/.tmp/first-paint.json. Loopback only; every process started here is stopped.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import lighthouse from 'lighthouse'
import { stop } from './processes.ts'
import { TMP, buildSite, machineLine, makeLog, median, runBench, seedDemo, startChromium, startSite, tempDir } from './support/harness.ts'

const BUILDS = (process.env.BUILDS ?? process.env.BUILD_DIR ?? 'build-bench-paint').split(',').filter(Boolean)
const RUNS = Number(process.env.RUNS ?? 5)
const RESULTS = path.join(import.meta.dirname, 'RESULTS-first-paint.md')
/** `PAGES=/,/events,event,/redeem,/contact` measures those (`event`: the demo event page with a cover). */
const PAGES = (process.env.PAGES ?? '/,/events,event,/auth/signin').split(',').filter(Boolean)
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
	observedLcp: number
	lcpElement: string
	/** TTFB, load delay, load time, render delay (ms), as Lighthouse splits the LCP. */
	phases: Record<string, number>
	/** Requests that ended before the observed LCP (they are in the simulated LCP's graph). */
	beforeLcp: string[]
	loadAverage: number
}

type Details = { items?: Details[]; type?: string; [key: string]: unknown }

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
	const requests = ((lhr.audits['network-requests']?.details as Details | undefined)?.items ?? []) as {
		url: string
		networkEndTime?: number
		transferSize?: number
		resourceType?: string
	}[]
	const scripts = requests.filter((r) => r.resourceType === 'Script')
	const beforeLcp = requests
		.filter((r) => typeof r.networkEndTime === 'number' && r.networkEndTime <= observedLcp)
		.map((r) => `${new URL(r.url).pathname.replace(/-[\w-]{8}(\.\w+)$/, '$1')} (${((r.transferSize ?? 0) / 1000).toFixed(1)} kB)`)
	return {
		score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
		fcp: value('first-contentful-paint'),
		lcp: value('largest-contentful-paint'),
		tbt: value('total-blocking-time'),
		cls: value('cumulative-layout-shift'),
		scripts: scripts.length,
		scriptBytes: scripts.reduce((total, r) => total + (r.transferSize ?? 0), 0),
		observedLcp,
		lcpElement,
		phases,
		beforeLcp,
	}
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
	const out = [
		'# First paint on a phone (Lighthouse, several runs)',
		'',
		`Written by \`node bench/first-paint.ts\` (pages: ${PAGES.join(', ')}); ${started.toISOString()}; ${machineLine()} at the end, ${loadStart.toFixed(1)} (1 min) at the start. Lighthouse ${lighthouseVersion()}, default config (mobile emulation, simulated throttling: 150 ms RTT, 1.6 Mbps, 4× CPU), performance category only; ${RUNS} rounds, each page on every build in turn (rotating order).`,
		'',
		'| build | page | runs | score (median, min) | FCP median | LCP median | LCP min–max | TBT median | TBT max | JS files, kB sent (median) | load avg (runs) | LCP element |',
		'| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
	]
	for (const page of PAGES) {
		for (const build of BUILDS) {
			const mine = runs.filter((r) => r.build === build && r.page === page)
			if (!mine.length) continue
			const lcps = mine.map((r) => r.lcp)
			const elements = [...new Set(mine.map((r) => r.lcpElement))].map((e) => `\`${e.replace(/\|/g, '\\|')}\``).join(', ')
			out.push(
				`| ${build} | \`${page === 'event' ? '/events/:id (cover)' : page}\` | ${mine.length} | ${median(mine.map((r) => r.score))}, ${Math.min(...mine.map((r) => r.score))} | ${s(median(mine.map((r) => r.fcp)))} | **${s(median(lcps))}** | ${s(Math.min(...lcps))}–${s(Math.max(...lcps))} | ${Math.round(median(mine.map((r) => r.tbt)))} ms | ${Math.round(Math.max(...mine.map((r) => r.tbt)))} ms | ${median(mine.map((r) => r.scripts))}, ${(median(mine.map((r) => r.scriptBytes)) / 1000).toFixed(1)} kB | ${Math.min(...mine.map((r) => r.loadAverage)).toFixed(1)}–${Math.max(...mine.map((r) => r.loadAverage)).toFixed(1)} | ${elements} |`,
			)
		}
	}
	out.push('', `Load average (1 min) ${loadStart.toFixed(1)} at the start, ${loadEnd.toFixed(1)} at the end.`, '')
	out.push('LCP phases (median ms) and what the browser had fetched by its (unthrottled) LCP, last run:', '')
	for (const page of PAGES) {
		for (const build of BUILDS) {
			const mine = runs.filter((r) => r.build === build && r.page === page)
			if (!mine.length) continue
			const phaseNames = Object.keys(mine[0]!.phases)
			const phases = phaseNames.map((name) => `${name} ${median(mine.map((r) => r.phases[name] ?? 0))}`).join(', ')
			out.push(`- ${build} \`${page}\`: ${phases || 'no phases'}; before LCP: ${mine.at(-1)!.beforeLcp.join(', ')}`)
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
	if (BUILDS.length === 1) buildSite(BUILDS[0]!, { log })
	const sites = []
	for (const build of BUILDS) {
		const dataDir = tempDir('band-bench-paint-')
		log(`${build}: seeding the demo events`)
		const ids = seedDemo({ buildDir: build, dataDir })
		const site = await startSite(`paint-${build}`, { buildDir: build, dataDir })
		sites.push({ build, site, event: `/events/${ids.scheduled}` })
	}
	const browser = await startChromium()
	const runs: Run[] = []
	try {
		// One run of each page on each site first, unrecorded: fills the page caches.
		for (const { site, event } of sites) for (const page of PAGES) await fetch(site.origin + (page === 'event' ? event : page))
		for (let round = 0; round < RUNS; round++) {
			for (const page of PAGES) {
				for (let k = 0; k < sites.length; k++) {
					const { build, site, event } = sites[(k + round) % sites.length]!
					const url = site.origin + (page === 'event' ? event : page)
					const loadAverage = os.loadavg()[0] ?? 0
					const run = { build, page, round, loadAverage, ...(await lighthouseRetrying(url, browser.port)) }
					runs.push(run)
					log(
						`round ${round + 1} ${build} ${page}: score ${run.score}, FCP ${Math.round(run.fcp)} ms, LCP ${Math.round(run.lcp)} ms (observed ${Math.round(run.observedLcp)}), TBT ${Math.round(run.tbt)} ms, load ${loadAverage.toFixed(1)}; ${run.lcpElement}`,
					)
				}
			}
		}
	} finally {
		fs.writeFileSync(path.join(TMP, 'first-paint.json'), JSON.stringify(runs, null, '\t'))
		await stop(browser.child)
		for (const { site } of sites) await stop(site.child)
	}
	const text = report(runs, loadStart, os.loadavg()[0] ?? 0)
	fs.writeFileSync(RESULTS, text)
	log(`wrote ${path.relative(process.cwd(), RESULTS)}`)
	console.log(text)
})
