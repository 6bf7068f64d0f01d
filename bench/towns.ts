/*
 * The town list in the running site (issue 29): what it adds to the server's memory (< 5 MB) and how
 * fast the town suggestions answer (< 50 ms):
 *
 *   node_modules/.bin/node bench/towns.ts                (builds into build-bench-towns/ first)
 *   BUILD_DIR=build node_modules/.bin/node bench/towns.ts --no-build   (an existing build with its towns.bin)
 *   … --only pglite|postgres                              (one database; default both)
 *   BENCH_PAIRS=3 …                                        (pairs of servers per database; default 2)
 *
 * Memory: two production servers side by side on the same build and database kind, each with
 * bench/support/memory-probe.ts preloaded (`--expose-gc`: on a signal it collects garbage and
 * writes its resident set). Both get the same warm-up (the landing, /events, /auth/signin and
 * `/api/towns?q=x`, which answers nothing before the list is read: one letter), then their
 * resident set after forced GC is sampled 5 times (median): « before ». Then one of them answers
 * the suggestion requests below (the list is read on the first one) while the other gets as many
 * `/api/towns?q=<one letter>` requests (the same route and response path, the list never read);
 * both are sampled again: « after ». The list's cost is the towns server's growth less the control
 * server's growth over the same steps (what else a server grows by in that time).
 *
 * The list alone (the verdict): the same two steps in a bare process that loads only the server's
 * town module (bench/support/towns-alone.ts), 5 times each way, alternated: « list » answers the
 * same 1,000 prefixes, « control » as many one-letter queries. Two identical servers given the same
 * requests differ by tens of MB of resident set (allocator arenas, V8's heap sizing); in a bare
 * process only the list's own work runs between the samples, so its cost can be read to the MB.
 * Anonymous memory is the verdict's measure: file-backed pages there are Node's own binary (code
 * that any busier process runs), shared with every Node process and given back under pressure.
 *
 * Speed: 1,000 suggestion requests one at a time, prefixes of 2 to 6 letters of towns drawn from the
 * list (seeded, so every run asks the same), then the widest prefixes (« sa », « la »…: thousands of
 * towns to rank) one at a time, then 10 connections for 5 s over the drawn prefixes (autocannon):
 * p50 and p99 of the full answer over HTTP on 127.0.0.1. Results: bench/RESULTS-towns.md.
 * Loopback only; every process and database started here is removed before exit.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import autocannon from 'autocannon'
import { decodeTownFile } from '../app/features/towns/town-file.ts'
import { foldTownName } from '../app/features/towns/fold.ts'
import { freePort, start, stop, waitForHttp } from './processes.ts'
import {
	ROOT,
	TMP,
	buildSite,
	cannon,
	createPostgresDatabase,
	machineLine,
	makeLog,
	median,
	nodeBin,
	runBench,
	siteEnv,
	tempDir,
} from './support/harness.ts'

const BUILD_DIR = process.env.BUILD_DIR ?? 'build-bench-towns'
const RESULTS = path.join(import.meta.dirname, 'RESULTS-towns.md')
const PROBE = path.join(import.meta.dirname, 'support', 'memory-probe.ts')
const args = process.argv.slice(2)
const ONLY = args.includes('--only') ? args[args.indexOf('--only') + 1] : ''
const SAMPLES = 5
const PAIRS = Number(process.env.BENCH_PAIRS ?? 2)
const SEQUENTIAL = 1_000
const WIDE = ['sa', 'la', 'ma', 'be', 'ca', 'saint', 'san', 'le']
const started = new Date()
const log = makeLog('towns bench', started.getTime())

interface Probe {
	sequence: number
	rss: number
	anon: number
	file: number
	heapUsedKb: number
	heapTotalKb: number
	arrayBuffersKb: number
}

interface ProbedSite {
	origin: string
	pid: number
	/** Forces garbage collection in the server and reads what it holds, `SAMPLES` times: the median of each figure. */
	sample(): Promise<Probe>
	stop(): Promise<void>
}

/** Our server with the memory probe preloaded, on a fresh data folder (and PostgreSQL database). */
async function startProbed(name: string, kind: 'pglite' | 'postgres'): Promise<ProbedSite> {
	const port = await freePort()
	const dataDir = tempDir(`band-bench-towns-${name}-`)
	const databaseUrl = kind === 'postgres' ? await createPostgresDatabase(undefined, 'band_bench_towns') : ''
	const probeFile = path.join(dataDir, 'memory.json')
	const child = start(nodeBin, ['--expose-gc', '--import', PROBE, path.join(ROOT, 'server/index.ts')], {
		cwd: ROOT,
		env: { ...siteEnv({ buildDir: BUILD_DIR, dataDir, databaseUrl, port }), MEMORY_PROBE_FILE: probeFile },
		logFile: path.join(TMP, `towns-${name}.log`),
	})
	const origin = `http://127.0.0.1:${port}`
	await waitForHttp(`${origin}/healthz`, child, 120_000)
	let seen = 0
	const once = async (): Promise<Probe> => {
		process.kill(child.pid!, 'SIGUSR2')
		const deadline = Date.now() + 10_000
		while (Date.now() < deadline) {
			await new Promise((resolve) => setTimeout(resolve, 50))
			const text = fs.existsSync(probeFile) ? fs.readFileSync(probeFile, 'utf8') : ''
			const probe = text ? (JSON.parse(text) as Probe) : null
			if (probe && probe.sequence > seen) {
				seen = probe.sequence
				return probe
			}
		}
		throw new Error(`${name}: the memory probe did not answer`)
	}
	return {
		origin,
		pid: child.pid!,
		async sample() {
			const probes: Probe[] = []
			for (let i = 0; i < SAMPLES; i++) {
				probes.push(await once())
				if (process.env.BENCH_VERBOSE) log(`${name}: ${JSON.stringify(probes.at(-1))}`)
				await new Promise((resolve) => setTimeout(resolve, 300))
			}
			const m = (key: keyof Probe) => median(probes.map((p) => p[key]))
			return {
				sequence: seen,
				rss: m('rss'),
				anon: m('anon'),
				file: m('file'),
				heapUsedKb: m('heapUsedKb'),
				heapTotalKb: m('heapTotalKb'),
				arrayBuffersKb: m('arrayBuffersKb'),
			}
		},
		stop: () => stop(child),
	}
}

/** Prefixes of 2 to 6 letters of towns drawn from the list (seeded: every run asks the same). */
function drawnPrefixes(count: number): string[] {
	const c = decodeTownFile(fs.readFileSync(path.join(ROOT, BUILD_DIR, 'towns.bin')))
	const decoder = new TextDecoder()
	let seed = 29
	const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31
	const out: string[] = []
	while (out.length < count) {
		const i = Math.floor(random() * c.count)
		const name = decoder.decode(c.names.subarray(c.nameStarts[i]!, c.nameStarts[i + 1]!))
		const key = foldTownName(name)
		const length = 2 + Math.floor(random() * 5)
		if (key.length >= length) out.push(key.slice(0, length))
	}
	return out
}

const percentile = (values: number[], p: number) => {
	const sorted = [...values].sort((a, b) => a - b)
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

/** Each query once, one at a time: the time to the whole answer, in ms. */
async function oneAtATime(origin: string, queries: string[]): Promise<number[]> {
	const times: number[] = []
	for (const q of queries) {
		const begun = performance.now()
		const response = await fetch(`${origin}/api/towns?q=${encodeURIComponent(q)}`)
		await response.arrayBuffer()
		times.push(performance.now() - begun)
		if (response.status !== 200) throw new Error(`/api/towns?q=${q} answered ${response.status}`)
	}
	return times
}

/** 10 connections for `seconds` over the queries in turn: p50, p99 and how many answers. */
async function concurrent(origin: string, queries: string[], seconds: number) {
	const result = (await autocannon({
		url: origin,
		connections: 10,
		duration: seconds,
		pipelining: 1,
		requests: queries.map((q) => ({ method: 'GET', path: `/api/towns?q=${encodeURIComponent(q)}` })),
	})) as { latency: { p50: number; p99: number; max: number }; requests: { total: number }; non2xx: number; errors: number }
	return {
		p50: result.latency.p50,
		p99: result.latency.p99,
		max: result.latency.max,
		total: result.requests.total,
		bad: result.non2xx + result.errors,
	}
}

/** The same warm-up on both servers: the pages a visitor sees, and the suggestion route without the list. */
async function warmUp(site: ProbedSite) {
	for (const page of ['/', '/events', '/auth/signin', '/api/towns?q=x'])
		await cannon({ name: page, url: site.origin + page, pids: [site.pid] }, 3, { connections: 10 })
}

interface Run {
	kind: string
	pair: number
	before: { towns: Probe; control: Probe }
	after: { towns: Probe; control: Probe }
	firstMs: number
	sequential: number[]
	/** The control server's one-letter requests: the same route, no list work. */
	route: number[]
	wide: { q: string; ms: number }[]
	loaded: Awaited<ReturnType<typeof concurrent>>
	/** The control server's one-letter requests under the same load. */
	routeLoaded: Awaited<ReturnType<typeof concurrent>>
	load: string
}

async function measure(kind: 'pglite' | 'postgres', pair: number): Promise<Run> {
	const name = `${kind} ${pair}`
	log(`${name}: starting two servers`)
	const towns = await startProbed(`${kind}-${pair}-towns`, kind)
	const control = await startProbed(`${kind}-${pair}-control`, kind)
	try {
		log(`${name}: the same warm-up on both`)
		await warmUp(towns)
		await warmUp(control)
		const before = { towns: await towns.sample(), control: await control.sample() }
		log(`${name}: before: towns ${mb(before.towns.rss)} MB, control ${mb(before.control.rss)} MB`)

		const queries = drawnPrefixes(SEQUENTIAL)
		const [firstMs] = await oneAtATime(towns.origin, ['ly'])
		const sequential = await oneAtATime(towns.origin, queries)
		const wide: { q: string; ms: number }[] = []
		for (const q of WIDE) wide.push({ q, ms: median(await oneAtATime(towns.origin, [q, q, q])) })
		const loaded = await concurrent(towns.origin, queries, 5)
		// The control server: as many requests on the same route, one letter (the list is never read).
		const letters = queries.map((q) => q[0]!)
		const route = await oneAtATime(control.origin, ['l', ...letters, ...WIDE.flatMap((q) => [q[0]!, q[0]!, q[0]!])])
		const routeLoaded = await concurrent(control.origin, letters, 5)
		const after = { towns: await towns.sample(), control: await control.sample() }
		const load = machineLine().replace(/^.*load average /, '')
		log(`${name}: after: towns ${mb(after.towns.rss)} MB, control ${mb(after.control.rss)} MB`)
		return { kind, pair, before, after, firstMs: firstMs!, sequential, route: route.slice(1), wide, loaded, routeLoaded, load }
	} finally {
		await Promise.all([towns.stop(), control.stop()])
	}
}

const mb = (kb: number) => (kb / 1024).toFixed(1)
const signedMb = (kb: number) => `${kb >= 0 ? '+' : '−'}${(Math.abs(kb) / 1024).toFixed(1)}`

interface Alone {
	mode: 'list' | 'control'
	before: { rss: number; anon: number; heapUsed: number; arrayBuffers: number }
	after: { rss: number; anon: number; heapUsed: number; arrayBuffers: number }
}

/** The list alone: `times` runs of each mode in a bare process, alternated. */
function measureAlone(times: number): Alone[] {
	const prefixesFile = path.join(tempDir('band-bench-towns-alone-'), 'prefixes.json')
	fs.writeFileSync(prefixesFile, JSON.stringify(drawnPrefixes(SEQUENTIAL)))
	const runs: Alone[] = []
	for (let i = 0; i < times; i++) {
		for (const mode of ['list', 'control'] as const) {
			const out = execFileSync(nodeBin, ['--expose-gc', path.join(import.meta.dirname, 'support', 'towns-alone.ts'), mode, prefixesFile], {
				cwd: ROOT,
				// The allocator setting the server gives itself (server/memory-settings.ts).
				env: { ...process.env, BUILD_DIR, MALLOC_TRIM_THRESHOLD_: '131072' },
				encoding: 'utf8',
			})
			runs.push(JSON.parse(out.trim().split('\n').at(-1)!) as Alone)
		}
	}
	return runs
}

const growth = (run: Run, which: 'towns' | 'control') => run.after[which].rss - run.before[which].rss
/** The towns server's growth less the control's over the same steps. */
const listCost = (run: Run) => growth(run, 'towns') - growth(run, 'control')

function reportAlone(alone: Alone[]): string[] {
	const of = (mode: Alone['mode'], key: keyof Alone['before']) =>
		median(alone.filter((a) => a.mode === mode).map((a) => a.after[key] - a.before[key]))
	const cost = (key: keyof Alone['before']) => of('list', key) - of('control', key)
	const file = (mode: Alone['mode']) => of(mode, 'rss') - of(mode, 'anon')
	const anonCost = cost('anon')
	return [
		'## The list alone (the verdict)',
		'',
		`A bare Node process that loads only the server's town module (bench/support/towns-alone.ts), ${alone.length / 2} times each way, alternated; resident set after forced garbage collection (median of 5 samples) before and after the same ${SEQUENTIAL.toLocaleString('en-US')} prefixes (« list ») or as many one-letter queries (« control »: answered before the list is read). Growth: the median over the runs.`,
		'',
		'| process | anonymous | file-backed (Node’s own binary) | resident set | V8 heap used | array buffers |',
		'| --- | ---: | ---: | ---: | ---: | ---: |',
		...(['list', 'control'] as const).map(
			(mode) =>
				`| ${mode === 'list' ? 'suggestions (list read)' : 'control (list never read)'} | ${signedMb(of(mode, 'anon'))} MB | ${signedMb(file(mode))} MB | ${signedMb(of(mode, 'rss'))} MB | ${signedMb(of(mode, 'heapUsed'))} MB | ${signedMb(of(mode, 'arrayBuffers'))} MB |`,
		),
		`| **the list’s cost** | **${signedMb(anonCost)} MB** | ${signedMb(file('list') - file('control'))} MB | ${signedMb(cost('rss'))} MB | ${signedMb(cost('heapUsed'))} MB | ${signedMb(cost('arrayBuffers'))} MB |`,
		'',
		`**The list adds ${signedMb(anonCost)} MB of the process's own (anonymous) memory** (budget < 5 MB: ${anonCost < 5 * 1024 ? 'met' : 'NOT met'}). The file-backed pages that appear are the Node binary's code run by the work (garbage collection, string handling), not the list: they are shared with every Node process, a busy server has them already (in the servers below they grow by +0.0 MB), and the kernel takes them back under pressure.`,
		'',
	]
}

function report(runs: Run[], alone: Alone[]): string {
	const out = [
		'# The town list in the running site (bench/towns.ts)',
		'',
		`${machineLine()} at the end; ${started.toISOString()}; build \`${BUILD_DIR}/\` (towns.bin ${mb(fs.statSync(path.join(ROOT, BUILD_DIR, 'towns.bin')).size / 1024)} MB). Budgets: the list adds < 5 MB to the server's memory; suggestions answer in < 50 ms.`,
		'',
		...reportAlone(alone),
		'## Memory in the running site (context)',
		'',
		`Resident set (VmRSS) after forced garbage collection, median of ${SAMPLES} samples, of two production servers given the same warm-up; then one answers suggestions (the list is read on the first) and the other as many one-letter requests on the same route (the list is never read); both are sampled again. ${PAIRS} pairs of fresh servers per database. « List’s cost »: the towns server’s growth less the control’s.`,
		'',
		'| database | pair | server | before | after | growth | anonymous / file-backed | V8 heap used | array buffers | list’s cost | load (1 / 5 / 15 min) |',
		'| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
	]
	for (const run of runs) {
		for (const which of ['towns', 'control'] as const) {
			const b = run.before[which]
			const a = run.after[which]
			out.push(
				`| ${run.kind} | ${run.pair} | ${which === 'towns' ? 'suggestions (list read)' : 'control (list never read)'} | ${mb(b.rss)} MB | ${mb(a.rss)} MB | ${signedMb(a.rss - b.rss)} MB | ${signedMb(a.anon - b.anon)} / ${signedMb(a.file - b.file)} MB | ${signedMb(a.heapUsedKb - b.heapUsedKb)} MB | ${signedMb(a.arrayBuffersKb - b.arrayBuffersKb)} MB | ${which === 'towns' ? `**${signedMb(listCost(run))} MB**` : ''} | ${which === 'towns' ? run.load.replace(/ \(.*/, '') : ''} |`,
			)
		}
	}
	out.push('')
	for (const kind of new Set(runs.map((r) => r.kind))) {
		const mine = runs.filter((r) => r.kind === kind)
		const raw = mine.map((r) => growth(r, 'towns'))
		const costs = mine.map(listCost)
		out.push(
			`- **${kind}**: the towns server grew by ${raw.map((kb) => `${signedMb(kb)}`).join(', ')} MB from before its first suggestion to after ${SEQUENTIAL.toLocaleString('en-US')}+ (everything included); the list’s cost against the control ${costs.map((kb) => signedMb(kb)).join(', ')} MB. Two servers given the same steps differ by more than the budget, which is why the verdict is read in a bare process above.`,
		)
	}
	out.push(
		'',
		'## Suggestions',
		'',
		`\`GET /api/towns?q=…\` over HTTP on 127.0.0.1, time to the whole answer. One at a time: ${SEQUENTIAL.toLocaleString('en-US')} prefixes of 2–6 letters of towns drawn from the list; the widest prefixes 3 times each (median). The same route on the control server (one letter: no list work) says what the server itself costs, one at a time and under the same load. Under load: 10 connections for 5 s over the same prefixes.`,
		'',
		'| database | pair | first (reads the list) | one at a time p50 / p99 / max | the route alone p50 / p99 | widest prefixes (median each) | 10 connections p50 / p99 / max | the route alone, 10 connections p50 / p99 | answers (not 200) |',
		'| --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |',
	)
	for (const run of runs) {
		const s = run.sequential
		out.push(
			`| ${run.kind} | ${run.pair} | ${run.firstMs.toFixed(1)} ms | ${percentile(s, 50).toFixed(1)} / ${percentile(s, 99).toFixed(1)} / ${Math.max(...s).toFixed(1)} ms | ${percentile(run.route, 50).toFixed(1)} / ${percentile(run.route, 99).toFixed(1)} ms | ${run.wide.map((w) => `${w.q} ${w.ms.toFixed(1)}`).join(', ')} ms | ${run.loaded.p50} / ${run.loaded.p99} / ${run.loaded.max} ms | ${run.routeLoaded.p50} / ${run.routeLoaded.p99} ms | ${run.loaded.total.toLocaleString('en-US')} (${run.loaded.bad}) |`,
		)
	}
	out.push('')
	return out.join('\n')
}

await runBench(async () => {
	buildSite(BUILD_DIR, { log })
	// The bench harness builds the site as react-router does; the town list is the build's own step.
	if (!fs.existsSync(path.join(ROOT, BUILD_DIR, 'towns.bin'))) {
		log(`writing ${BUILD_DIR}/towns.bin`)
		execFileSync(nodeBin, [path.join(ROOT, 'scripts/build-towns.ts')], { cwd: ROOT, env: { ...process.env, BUILD_DIR }, stdio: 'inherit' })
	}
	log('the list alone, in a bare process')
	const alone = measureAlone(5)
	const runs: Run[] = []
	for (const kind of ['pglite', 'postgres'] as const) {
		if (ONLY && ONLY !== kind) continue
		for (let pair = 1; pair <= PAIRS; pair++) runs.push(await measure(kind, pair))
	}
	const text = report(runs, alone)
	fs.writeFileSync(RESULTS, `${text}\n`)
	log(`wrote ${path.relative(process.cwd(), RESULTS)}`)
	console.log(text)
})
