/*
 * Start-up, rest and memory of the production server, on PGlite and on PostgreSQL:
 *
 *   node_modules/.bin/node bench/start-and-memory.ts             (builds into build-bench-start/ first)
 *   node_modules/.bin/node bench/start-and-memory.ts --no-build  (an existing build)
 *   BASELINE_ROOT=<a checkout of another commit, built> …        (the same figures for it, in the same run)
 *   ONLY=start|idle|rss, STARTS=5, IDLE_SECONDS=30, LOAD_SECONDS=30: parts and lengths
 *   IDLE_SETTLE_SECONDS=10                                       (how long after the start the rest window opens)
 *   RSS_ENCODING=br …                                            (the signed-in load asks for br (or gzip), as a browser)
 *   RSS_DEFAULT_YOUNG=0 …                                        (without the run on V8's default young generation)
 *   RSS_NODE_ARGS='--heap-growing-percent=30|--max-semi-space-size=4'   (this commit again per variant, Node's options)
 *   RSS_ENVS='MALLOC_ARENA_MAX=2|…'                              (this commit again per variant, added environment)
 *
 * - Cold start: spawn of `node server/index.ts` (NODE_ENV=production) to the first 200 on `/`, and the
 *   CPU the process spent by then (/proc), STARTS times per case, median; on a fresh data folder (or
 *   database: migrations run) and on one already migrated. Starts of every code under test alternate.
 * - Idle: CPU per second of a server that answered once and then gets no request, over IDLE_SECONDS;
 *   and the highest RSS since its spawn (sampled every 50 ms), start-up included.
 * - Signed-in memory (PGlite): a seeded data folder, an admin signed in; RSS at rest, then 50
 *   connections on /dashboard and /dashboard/admin/events for LOAD_SECONDS (peak sampled every 250 ms),
 *   and after. The target: growth ≤ +100 MB.
 * The report is printed and kept in bench/.tmp/; the figures and their reading: bench/RESULTS-start-and-memory.md.
 * Loopback only; every process started here is stopped.
 */
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import autocannon from 'autocannon'
import { freePort, start, stop } from './processes.ts'
import {
	ROOT,
	TMP,
	buildSite,
	cpuMs,
	createPostgresDatabase,
	envPairs,
	machineLine,
	makeLog,
	median,
	nodeBin,
	rssMb,
	runBench,
	seedDemo,
	signIn,
	siteEnv,
	tempDir,
} from './support/harness.ts'

const BUILD_DIR = process.env.BUILD_DIR ?? 'build-bench-start'
const STARTS = Number(process.env.STARTS ?? 5)
const IDLE_SECONDS = Number(process.env.IDLE_SECONDS ?? 30)
const LOAD_SECONDS = Number(process.env.LOAD_SECONDS ?? 30)
const IDLE_SETTLE_SECONDS = Number(process.env.IDLE_SETTLE_SECONDS ?? 10)
const ONLY = process.env.ONLY
const RSS_ENCODING = process.env.RSS_ENCODING
const log = makeLog('start-and-memory bench')

/** A code under test: a checkout (its server/ and its build). */
interface Code {
	name: string
	root: string
	buildDir: string
	/** Added to the server's environment. */
	env?: NodeJS.ProcessEnv
	/** Node's own options, before server/index.ts (its re-exec keeps them). */
	nodeArgs?: string[]
}
type Db = 'pglite' | 'postgres'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Starts the server of `code`; resolves at its first 200 on `/` with the time and CPU it took. */
async function coldStart(code: Code, dataDir: string, databaseUrl: string | undefined, name: string) {
	const port = await freePort()
	const spawnedAt = performance.now()
	const child = start(nodeBin, [...(code.nodeArgs ?? []), path.join(code.root, 'server/index.ts')], {
		cwd: code.root,
		env: { ...siteEnv({ buildDir: code.buildDir, dataDir, port, databaseUrl }), SHUTDOWN_GRACE_SECONDS: '0', ...code.env },
		logFile: path.join(TMP, `${name}.log`),
	})
	// The highest RSS since the spawn, sampled every 50 ms until the process exits (the embedded
	// database's start has V8 compile its WebAssembly on background threads: a peak, then memory given back).
	let peak = 0
	const sampler = setInterval(() => {
		const now = rssMb(child.pid)
		if (now > peak) peak = now
	}, 50)
	child.once('exit', () => clearInterval(sampler))
	const url = `http://127.0.0.1:${port}/`
	const deadline = spawnedAt + 120_000
	for (;;) {
		if (child.exitCode !== null) throw new Error(`${name}: the server exited (code ${child.exitCode}) before its first 200`)
		if (performance.now() > deadline) throw new Error(`${name}: no 200 on / within 120 s`)
		const status = await fetch(url, { signal: AbortSignal.timeout(5_000) }).then(
			async (response) => (await response.arrayBuffer(), response.status),
			() => 0,
		)
		if (status === 200) break
		await sleep(10)
	}
	return {
		child,
		pid: child.pid,
		origin: `http://127.0.0.1:${port}`,
		ms: performance.now() - spawnedAt,
		cpu: cpuMs(child.pid),
		peakRss: () => peak,
	}
}

const cell = (values: number[], digits = 0) =>
	`${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`

async function freshStore(db: Db) {
	return { dataDir: tempDir('band-bench-start-'), databaseUrl: db === 'postgres' ? await createPostgresDatabase() : undefined }
}

/** STARTS cold starts per code, database and data state, the codes alternating; table rows. */
async function coldStarts(codes: Code[]): Promise<string[]> {
	const rows: string[] = []
	for (const db of ['pglite', 'postgres'] as const) {
		// One migrated store per code, made by a first start (not counted).
		const migrated = new Map<Code, Awaited<ReturnType<typeof freshStore>>>()
		for (const code of codes) {
			const store = await freshStore(db)
			const first = await coldStart(code, store.dataDir, store.databaseUrl, `start-${db}-prime`)
			await stop(first.child)
			migrated.set(code, store)
		}
		for (const state of ['fresh', 'migrated'] as const) {
			const figures = new Map<Code, { ms: number[]; cpu: number[] }>(codes.map((c) => [c, { ms: [], cpu: [] }]))
			for (let k = 0; k < STARTS; k++) {
				for (const code of codes) {
					const store = state === 'fresh' ? await freshStore(db) : migrated.get(code)!
					const run = await coldStart(code, store.dataDir, store.databaseUrl, `start-${db}-${state}`)
					await stop(run.child)
					figures.get(code)!.ms.push(run.ms)
					figures.get(code)!.cpu.push(run.cpu)
					log(`${code.name} ${db} ${state}: first 200 in ${run.ms.toFixed(0)} ms, CPU ${run.cpu.toFixed(0)} ms`)
				}
			}
			for (const code of codes) {
				const { ms, cpu } = figures.get(code)!
				rows.push(`| ${code.name} | ${db} | ${state} | ${cell(ms)} | ${cell(cpu)} |`)
			}
		}
	}
	return rows
}

/** CPU ms per second of a server at rest (answered once, then nothing), per code and database. */
async function idle(codes: Code[]): Promise<string[]> {
	const rows: string[] = []
	for (const db of ['pglite', 'postgres'] as const) {
		const runs = await Promise.all(
			codes.map(async (code) => {
				const store = await freshStore(db)
				return { code, run: await coldStart(code, store.dataDir, store.databaseUrl, `idle-${db}`) }
			}),
		)
		// Past the start's own work (the workers' first fetches, the start-up jobs and, on PGlite, the
		// supervision pass 15 s after them: docs/decisions/0036-no-polling-on-the-embedded-database.md).
		await sleep(IDLE_SETTLE_SECONDS * 1000)
		const before = runs.map(({ run }) => cpuMs(run.pid))
		await sleep(IDLE_SECONDS * 1000)
		runs.forEach(({ code, run }, k) => {
			const perSecond = (cpuMs(run.pid) - before[k]!) / IDLE_SECONDS
			log(
				`${code.name} ${db} idle: ${perSecond.toFixed(1)} ms CPU/s, RSS ${rssMb(run.pid).toFixed(0)} MB (peak since the start ${run.peakRss().toFixed(0)} MB)`,
			)
			rows.push(`| ${code.name} | ${db} | ${perSecond.toFixed(1)} | ${rssMb(run.pid).toFixed(0)} | ${run.peakRss().toFixed(0)} |`)
		})
		for (const { run } of runs) await stop(run.child)
	}
	return rows
}

/** RSS of a signed-in admin's load on PGlite: at rest, peak, after; one code after the other. */
async function signedInMemory(codes: Code[]): Promise<string[]> {
	const rows: string[] = []
	for (const code of codes) {
		const dataDir = tempDir('band-bench-rss-')
		const email = 'bench-admin@example.test'
		const password = randomBytes(12).toString('base64url')
		seedDemo({ buildDir: path.relative(ROOT, path.join(code.root, code.buildDir)), dataDir }, ['--admin', `${email}:${password}`])
		const run = await coldStart(code, dataDir, undefined, 'rss-pglite')
		const cookie = await signIn(run.origin, email, password)
		await sleep(5_000)
		const rest = rssMb(run.pid)
		let peak = rest
		const sampler = setInterval(() => (peak = Math.max(peak, rssMb(run.pid))), 250)
		const load = (pathname: string) =>
			autocannon({
				url: run.origin + pathname,
				connections: 25,
				duration: LOAD_SECONDS,
				headers: { cookie, ...(RSS_ENCODING ? { 'accept-encoding': RSS_ENCODING } : {}) },
			} as never) as unknown as Promise<{
				requests: { total: number }
				non2xx: number
			}>
		const results = await Promise.all([load('/dashboard'), load('/dashboard/admin/events')])
		clearInterval(sampler)
		const end = rssMb(run.pid)
		await sleep(5_000)
		const after = rssMb(run.pid)
		const requests = results.reduce((n, r) => n + r.requests.total, 0)
		const non2xx = results.reduce((n, r) => n + r.non2xx, 0)
		log(
			`${code.name} signed-in load: RSS ${rest.toFixed(0)} → peak ${peak.toFixed(0)}, end ${end.toFixed(0)}, 5 s later ${after.toFixed(0)} MB (${requests} requests, ${non2xx} not 2xx)`,
		)
		rows.push(
			`| ${code.name} | ${rest.toFixed(0)} | ${peak.toFixed(0)} | +${(peak - rest).toFixed(0)} | ${end.toFixed(0)} | ${after.toFixed(0)} | ${requests} (${non2xx} not 2xx) |`,
		)
		await stop(run.child)
	}
	return rows
}

await runBench(async () => {
	buildSite(BUILD_DIR, { log })
	const codes: Code[] = [{ name: 'this commit', root: ROOT, buildDir: BUILD_DIR }]
	if (process.env.BASELINE_ROOT) codes.unshift({ name: 'baseline', root: path.resolve(process.env.BASELINE_ROOT), buildDir: 'build' })
	const report = [`# Start-up, rest and memory (${new Date().toISOString().slice(0, 16)} UTC)`, '', machineLine(), '']
	if (!ONLY || ONLY === 'start') {
		const rows = await coldStarts(codes)
		report.push(`## Cold start to the first 200 on / (${STARTS} starts each, median (min–max)); ${machineLine()}`, '')
		report.push('| code | database | data | ms to first 200 | CPU ms to first 200 |', '| --- | --- | --- | --- | --- |', ...rows, '')
	}
	if (!ONLY || ONLY === 'idle') {
		const rows = await idle(codes)
		report.push(
			`## At rest: CPU per second over ${IDLE_SECONDS} s with no request, from ${IDLE_SETTLE_SECONDS} s after the start; ${machineLine()}`,
			'',
		)
		report.push('| code | database | CPU ms/s | RSS MB | RSS peak since the start MB |', '| --- | --- | --- | --- | --- |', ...rows, '')
	}
	if (!ONLY || ONLY === 'rss') {
		// This commit once more as server/memory-settings.ts leaves a server whose environment already
		// has MALLOC_TRIM_THRESHOLD_ (the same threshold): not started again, so V8's own young generation.
		const uncapped = {
			name: 'this commit, V8 default young generation',
			root: ROOT,
			buildDir: BUILD_DIR,
			env: { MALLOC_TRIM_THRESHOLD_: '131072' },
		}
		// RSS_SEMI_SPACES=4,2: this commit again with other caps (MB), given as Node's option.
		const caps = (process.env.RSS_SEMI_SPACES ?? '').split(',').filter(Boolean)
		const capped = caps.map((mb) => ({
			name: `this commit, ${mb} MB semi-spaces`,
			root: ROOT,
			buildDir: BUILD_DIR,
			env: { NODE_OPTIONS: `--max-semi-space-size=${mb}` },
		}))
		// RSS_NODE_ARGS='--heap-growing-percent=30|…': this commit again with each set of Node's options.
		const variants = (process.env.RSS_NODE_ARGS ?? '')
			.split('|')
			.filter(Boolean)
			.map((args) => ({ name: `this commit, ${args}`, root: ROOT, buildDir: BUILD_DIR, nodeArgs: args.split(/\s+/) }))
		// RSS_ENVS='MALLOC_ARENA_MAX=2|…': this commit again with each set of variables added to its environment.
		const withEnvs = (process.env.RSS_ENVS ?? '')
			.split('|')
			.filter(Boolean)
			.map((vars) => ({
				name: `this commit, ${vars}`,
				root: ROOT,
				buildDir: BUILD_DIR,
				env: envPairs(vars),
			}))
		// RSS_DEFAULT_YOUNG=0: without the uncapped run.
		const defaultYoung = process.env.RSS_DEFAULT_YOUNG === '0' ? [] : [uncapped]
		const rows = await signedInMemory([...codes, ...defaultYoung, ...capped, ...variants, ...withEnvs])
		report.push(
			`## Signed-in load on PGlite, ${LOAD_SECONDS} s, 50 connections${RSS_ENCODING ? `, Accept-Encoding: ${RSS_ENCODING}` : ''}; ${machineLine()}`,
			'',
		)
		report.push(
			'| code | RSS at rest MB | peak MB | growth | at the end | 5 s later | requests |',
			'| --- | --- | --- | --- | --- | --- | --- |',
			...rows,
			'',
		)
	}
	const text = report.join('\n')
	console.log(`\n${text}`)
	fs.writeFileSync(path.join(TMP, `start-and-memory-${Date.now()}.md`), text)
})
