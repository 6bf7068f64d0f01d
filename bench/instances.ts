/*
 * One machine or several: the landing and an event page under load, in one run, on
 *   - one instance on the embedded database (PGlite), as a band starts;
 *   - one instance on PostgreSQL;
 *   - two instances on one PostgreSQL behind a round-robin proxy (bench/round-robin-proxy.ts),
 *     as the site grows past one machine (here both on this machine's cores).
 *
 *   node_modules/.bin/node bench/instances.ts               (builds into build-bench-instances/ first)
 *   BUILD_DIR=build-ops node_modules/.bin/node bench/instances.ts --no-build
 *
 * Each site is seeded with the demo events (scripts/seed-demo.ts); the PostgreSQL instances share
 * one database (created and dropped here, on BENCH_POSTGRES_URL's server) and one data folder for
 * the cover files. autocannon (50 connections, no pipelining) takes every target in turn, in
 * rotating rounds. Results in bench/RESULTS-instances.md. Loopback only; every process and the
 * database made here are removed before exit.
 */
import fs from 'node:fs'
import path from 'node:path'
import { freePort, start, stop, waitForHttp } from './processes.ts'
import {
	ROOT,
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
	nodeBin,
	num,
	runBench,
	seedDemo,
	startSite,
	sum,
	tempDir,
	type Target,
} from './support/harness.ts'

const BUILD_DIR = process.env.BUILD_DIR ?? 'build-bench-instances'
const RESULTS = path.join(import.meta.dirname, 'RESULTS-instances.md')
const LOAD = loadPlan({ warmupSeconds: 2, seconds: 8, rounds: 3 })
const started = new Date()
const log = makeLog('instances bench', started.getTime())

await runBench(async () => {
	buildSite(BUILD_DIR, { log })

	log('seeding the embedded site')
	const embeddedDir = tempDir('band-bench-instances-')
	const embeddedIds = seedDemo({ buildDir: BUILD_DIR, dataDir: embeddedDir })

	log('creating and seeding the PostgreSQL site')
	const databaseUrl = await createPostgresDatabase()
	const sharedDir = tempDir('band-bench-instances-')
	const pgIds = seedDemo({ buildDir: BUILD_DIR, dataDir: sharedDir, databaseUrl })

	log('starting the servers')
	const embedded = await startSite('instances-pglite', { buildDir: BUILD_DIR, dataDir: embeddedDir })
	const [one, two] = await Promise.all([
		startSite('instances-pg-a', { buildDir: BUILD_DIR, dataDir: sharedDir, databaseUrl }),
		startSite('instances-pg-b', { buildDir: BUILD_DIR, dataDir: sharedDir, databaseUrl }),
	])
	const proxyPort = await freePort()
	const proxy = start(nodeBin, [path.join(import.meta.dirname, 'round-robin-proxy.ts'), String(proxyPort), one.origin, two.origin], {
		cwd: ROOT,
		logFile: path.join(TMP, 'instances-proxy.log'),
	})
	const proxied = `http://127.0.0.1:${proxyPort}`
	await waitForHttp(`${proxied}/healthz`, proxy)

	const setups = [
		{ key: 'pglite', label: 'one instance, PGlite', origin: embedded.origin, event: embeddedIds.scheduled, pids: [embedded.pid] },
		{ key: 'pg1', label: 'one instance, PostgreSQL', origin: one.origin, event: pgIds.scheduled, pids: [one.pid] },
		{
			key: 'pg2',
			label: 'two instances, PostgreSQL, round-robin proxy',
			origin: proxied,
			event: pgIds.scheduled,
			pids: [one.pid, two.pid, proxy.pid],
		},
	]
	const labels: Record<string, string> = {}
	const targets: Target[] = setups.flatMap((setup) => {
		labels[`${setup.key}-landing`] = `landing \`/\` — ${setup.label}`
		labels[`${setup.key}-event`] = `event page — ${setup.label}`
		return [
			{ name: `${setup.key}-landing`, url: `${setup.origin}/`, pids: setup.pids },
			{ name: `${setup.key}-event`, url: `${setup.origin}/events/${setup.event}`, pids: setup.pids },
		]
	})
	for (const target of targets) {
		const check = await fetch(target.url)
		await check.arrayBuffer()
		if (check.status !== 200) throw new Error(`${target.url} answered ${check.status}`)
	}
	const rounds = await loadRounds(targets, LOAD, { log })
	await Promise.all([stop(embedded.child), stop(one.child), stop(two.child), stop(proxy)])

	const rps = (name: string) => medianRps(rounds.get(name)!)
	const cpu = (name: string) => cpuPerRequest(rounds.get(name)!)
	const out: string[] = ['# One instance or two', '']
	out.push(
		`Written by \`node bench/instances.ts\`; ${started.toISOString()}; ${machineLine()} at the end; build \`${BUILD_DIR}/\`.`,
		'',
		`Method: autocannon, ${LOAD.connections} connections, no pipelining, on 127.0.0.1; ${LOAD.warmupSeconds} s warm-up per target, then ${LOAD.rounds} rounds of ${LOAD.seconds} s taking the targets in turn (rotating order). Every site is a production build seeded with the demo events; the event page has a ready cover. The two PostgreSQL instances share one database and sit behind bench/round-robin-proxy.ts (kept-alive upstream connections). All processes, the load generator included, share this machine's cores, so two instances here measure the overhead of the shared database and the proxy, not the gain of a second machine. CPU per request adds up every serving process (both instances and the proxy).`,
		'',
		'| target | req/s (median round) | rounds | p50 | p99 | CPU per request | non-200 / errors |',
		'| --- | ---: | --- | ---: | ---: | ---: | ---: |',
	)
	for (const target of targets) {
		const r = rounds.get(target.name)!
		out.push(
			`| ${labels[target.name]} | **${num(rps(target.name))}** | ${r.map((x) => num(x.reqPerSec)).join(' / ')} | ${median(r.map((x) => x.p50))} ms | ${median(r.map((x) => x.p99))} ms | ${cpu(target.name).toFixed(2)} ms | ${sum(r.map((x) => x.unexpected))} / ${sum(r.map((x) => x.errors))} |`,
		)
	}
	out.push('')
	for (const page of ['landing', 'event']) {
		out.push(
			`- ${page === 'landing' ? 'Landing' : 'Event page'}: PostgreSQL ÷ PGlite = **${(rps(`pg1-${page}`) / rps(`pglite-${page}`)).toFixed(2)}×**, two behind the proxy ÷ one on PostgreSQL = **${(rps(`pg2-${page}`) / rps(`pg1-${page}`)).toFixed(2)}×** in req/s.`,
		)
	}
	out.push('')
	fs.writeFileSync(RESULTS, out.join('\n'))
	log(`wrote ${path.relative(process.cwd(), RESULTS)}`)
	console.log(out.slice(4).join('\n'))
})
