/*
 * What a signed-in page costs, against the floor of React Router itself, in one run:
 *
 *   node_modules/.bin/node bench/dashboard.ts               (builds into build-bench-dashboard/ first)
 *   BUILD_DIR=build-x node_modules/.bin/node bench/dashboard.ts --no-build
 *   BENCH_SECONDS=10 BENCH_ROUNDS=3 …                       (defaults 5 s × 6)
 *   BENCH_SETTLE_SECONDS=0 …                                (default 1: the load unmeasured before each round)
 *   LOAD_APART=1 …                                          (the load from wrk in a process of its own,
 *                                                            as bench/public-pages.ts sends it)
 *
 * Our server on a data folder seeded with the demo events and an admin account (signed in once
 * through /auth/signin for its session cookie), and bench/bare/ (a React Router app with one route
 * and one paragraph) served the same way as ours (node:http + React Router's request handler).
 * autocannon in this process (or, with LOAD_APART=1, support/load-generator.ts: wrk in a process of
 * its own) sends 50 connections, no pipelining, no compression, in interleaved rounds:
 * the bare page (twice, as two targets: an A/A check of the method's noise), `/dashboard` and the
 * admin's list of events (`/dashboard/admin/events`, the demo's events) signed in, and a public
 * page (`/policies/privacy`) with that session cookie (so it is rendered per request, past the page
 * cache: the site's cost without the dashboard's own). CPU per request (user + system time of the
 * serving process, /proc) side by side; the target is each signed-in page ≤ 3× the bare page.
 * Results: bench/RESULTS-dashboard.md.
 * Loopback only; every process started here is stopped before exit.
 */
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { freePort, start, stop, waitForHttp } from './processes.ts'
import { generateLoad, generatorName } from './support/load-generator.ts'
import {
	BARE_BUILD_DIR,
	ROOT,
	TMP,
	buildBareApp,
	buildSite,
	cpuMs,
	cpuPerRequest,
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
	signIn,
	startSite,
	sum,
	tempDir,
	type Round,
	type Target,
} from './support/harness.ts'

const BUILD_DIR = process.env.BUILD_DIR ?? 'build-bench-dashboard'
const RESULTS = path.join(import.meta.dirname, 'RESULTS-dashboard.md')
// Six rounds: a virtual machine's speed can drift by a third within a minute, and each round puts
// the targets seconds apart; the spread of the round-by-round ratios is printed with the result.
const LOAD = { ...loadPlan({ warmupSeconds: 2, seconds: 5, rounds: 6 }), settleSeconds: Number(process.env.BENCH_SETTLE_SECONDS ?? 1) }
/** LOAD_APART=1: the load from wrk (or autocannon's command line) in a process of its own, as bench/public-pages.ts sends it. */
const LOAD_APART = process.env.LOAD_APART === '1'
// With public APIs only, a signed-in page may cost up to 3× the bare page (docs/decisions/0016-public-apis-only.md).
const TARGET_RATIO = 3
/** A latency as the table shows it: whole milliseconds from 10 ms, one decimal below (wrk gives microseconds). */
const latency = (ms: number) => (ms >= 10 ? Math.round(ms) : Math.round(ms * 10) / 10).toLocaleString('en-US')
const IDLE_SECONDS = 10

/** CPU ms per second of each process over IDLE_SECONDS with no request. */
async function idleCpu(pids: (number | undefined)[]): Promise<Map<number | undefined, number>> {
	await new Promise((resolve) => setTimeout(resolve, 2_000))
	const before = pids.map((pid) => cpuMs(pid))
	await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000))
	return new Map(pids.map((pid, k) => [pid, (cpuMs(pid) - before[k]!) / IDLE_SECONDS]))
}
const started = new Date()
const log = makeLog('dashboard bench', started.getTime())

await runBench(async () => {
	buildSite(BUILD_DIR, { log })
	buildBareApp({ log })
	const dataDir = tempDir('band-bench-dashboard-')
	const email = 'bench-admin@example.test'
	const password = randomBytes(12).toString('base64url')
	log('seeding the demo events and an admin account')
	seedDemo({ buildDir: BUILD_DIR, dataDir }, ['--admin', `${email}:${password}`])
	log('starting our server and the bare app')
	const ours = await startSite('dashboard-server', { buildDir: BUILD_DIR, dataDir })
	const barePort = await freePort()
	const bare = start(nodeBin, [path.join(import.meta.dirname, 'bare', 'server.ts'), BARE_BUILD_DIR, String(barePort)], {
		cwd: ROOT,
		env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production' },
		logFile: path.join(TMP, 'dashboard-bare.log'),
	})
	await waitForHttp(`http://127.0.0.1:${barePort}/`, bare)
	const cookie = await signIn(ours.origin, email, password)
	for (const [page, expected] of [
		['/dashboard', 'Admin démo'],
		['/dashboard/admin/events', '/dashboard/admin/events/'],
	]) {
		const answer = await fetch(`${ours.origin}${page}`, { headers: { cookie }, redirect: 'manual' })
		if (answer.status !== 200 || !(await answer.text()).includes(expected!)) throw new Error(`${page} signed in answered ${answer.status}`)
	}

	const labels: Record<string, string> = {
		bare: 'bare React Router page (one `<p>`, bench/bare/)',
		bareAgain: 'the same bare page again (A/A: the method’s noise)',
		dashboard: '`/dashboard`, signed in (admin)',
		adminEvents: '`/dashboard/admin/events`, signed in (admin)',
		policy: '`/policies/privacy` with the session cookie (rendered per request)',
	}
	const targets: Target[] = [
		{ name: 'bare', url: `http://127.0.0.1:${barePort}/`, pids: [bare.pid] },
		{ name: 'bareAgain', url: `http://127.0.0.1:${barePort}/`, pids: [bare.pid] },
		{ name: 'dashboard', url: `${ours.origin}/dashboard`, pids: [ours.pid], headers: { cookie } },
		{ name: 'adminEvents', url: `${ours.origin}/dashboard/admin/events`, pids: [ours.pid], headers: { cookie } },
		{ name: 'policy', url: `${ours.origin}/policies/privacy`, pids: [ours.pid], headers: { cookie } },
	]
	const bytes = new Map<string, number>()
	for (const target of targets)
		bytes.set(target.name, Buffer.byteLength(await (await fetch(target.url, { headers: target.headers })).text()))
	// What each server does with no request at all (timers, the job queue's polling), before and after the load.
	const idleBefore = await idleCpu([ours.pid, bare.pid])
	const rounds = await loadRounds(targets, LOAD, { log, generate: LOAD_APART ? generateLoad : undefined })
	const idleAfter = await idleCpu([ours.pid, bare.pid])
	await Promise.all([stop(ours.child), stop(bare)])
	/** CPU ms per second of wall time with no request, per process. */
	const idleRate = (pid: number | undefined) => (idleBefore.get(pid)! + idleAfter.get(pid)!) / 2
	/** CPU per request of a target's rounds less what its process does with no request at all. */
	const netCpu = (target: Target, rs: Round[]) =>
		sum(rs.map((r) => r.cpuMs - idleRate(target.pids[0]) * LOAD.seconds)) / sum(rs.map((r) => r.requests))

	const cpu = (name: string) => cpuPerRequest(rounds.get(name)!)
	const net = (name: string) =>
		netCpu(
			targets.find((t) => t.name === name)!,
			rounds.get(name)!,
		)
	/** Each round's ratio of a target's CPU per request to the bare page's in the same round, sorted. */
	const roundRatios = (name: string) =>
		rounds
			.get(name)!
			.map((r, k) => r.cpuMs / r.requests / (rounds.get('bare')![k]!.cpuMs / rounds.get('bare')![k]!.requests))
			.sort((a, b) => a - b)
	const signedIn: [string, string][] = [
		['dashboard', '`/dashboard`'],
		['adminEvents', '`/dashboard/admin/events`'],
	]
	const out = [
		'# A signed-in page against the floor of React Router',
		'',
		`Written by \`node bench/dashboard.ts\`; ${started.toISOString()}; ${machineLine()} at the end; build \`${BUILD_DIR}/\`.`,
		'',
		`Method: ${LOAD_APART ? `${generatorName} in a process of its own` : "autocannon in the bench's process"}, ${LOAD.connections} connections, no pipelining, no compression, on 127.0.0.1; ${LOAD.warmupSeconds} s warm-up per target, then ${LOAD.rounds} rounds of ${LOAD.seconds} s taking the targets in turn (rotating order)${LOAD.settleSeconds > 0 ? `, each round after ${LOAD.settleSeconds} s of the same load not measured (so that the processor's caches hold that server's work, whichever target came before)` : ''}. Our server: production build, PGlite data folder seeded with the demo events and an admin account, signed in once through \`/auth/signin\`. The bare app is served like ours (node:http, React Router's request handler) without anything of ours. CPU per request: user + system time of the serving process (/proc) over its rounds ÷ requests. It depends less on other work on the machine than req/s does, but it holds what the process does with no request at all (timers, the job queue's polling), spread over fewer requests when the machine is busy: that idle CPU is measured for ${IDLE_SECONDS} s before and after the rounds, and the last columns take it out.`,
		'',
		`With no request at all, our server used **${idleRate(ours.pid).toFixed(1)} ms of CPU per second** (${idleBefore.get(ours.pid)!.toFixed(1)} before the rounds, ${idleAfter.get(ours.pid)!.toFixed(1)} after), the bare app ${idleRate(bare.pid).toFixed(1)}.`,
		'',
		'| target | HTML bytes | CPU per request | × bare | less idle CPU | × bare | req/s (median round) | p50 / p99 | non-200 / errors |',
		'| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
	]
	for (const target of targets) {
		const r = rounds.get(target.name)!
		out.push(
			`| ${labels[target.name]} | ${num(bytes.get(target.name)!)} | **${cpu(target.name).toFixed(2)} ms** | ${(cpu(target.name) / cpu('bare')).toFixed(2)} | ${net(target.name).toFixed(2)} ms | ${(net(target.name) / net('bare')).toFixed(2)} | ${num(medianRps(r))} | ${latency(median(r.map((x) => x.p50)))} / ${latency(median(r.map((x) => x.p99)))} ms | ${sum(r.map((x) => x.unexpected))} / ${sum(r.map((x) => x.errors))} |`,
		)
	}
	out.push('')
	for (const [name, label] of signedIn) {
		const ratio = cpu(name) / cpu('bare')
		const netRatio = net(name) / net('bare')
		out.push(
			`**${label} signed in costs ${ratio.toFixed(2)}× the bare page's CPU per request** (target ≤ ${TARGET_RATIO}×: ${ratio <= TARGET_RATIO ? 'PASS' : 'FAIL'}); less the idle CPU, ${netRatio.toFixed(2)}× (${netRatio <= TARGET_RATIO ? 'PASS' : 'FAIL'}).`,
			'',
		)
	}
	out.push('Round by round (each target and the bare page measured seconds apart):', '')
	for (const [name, label] of [...signedIn, ['bareAgain', 'the bare page again (A/A)'] as [string, string]]) {
		const ratios = roundRatios(name)
		out.push(`- ${label}: median ${median(ratios).toFixed(2)}×, from ${ratios[0]!.toFixed(2)}× to ${ratios.at(-1)!.toFixed(2)}×`)
	}
	out.push(
		'',
		`The A/A line is the bare page against itself: how far apart two measures of the same thing come out in this run. A wide spread means the machine's speed drifted during the run: compare changes in one run, or in runs alternated between builds.`,
		'',
	)
	// The hand-written reading that follows the figures (a profile's breakdown) stays.
	const previous = fs.existsSync(RESULTS) ? fs.readFileSync(RESULTS, 'utf8') : ''
	const reading = previous.indexOf('\n## Where the time goes')
	fs.writeFileSync(RESULTS, out.join('\n') + (reading >= 0 ? previous.slice(reading) : ''))
	log(`wrote ${path.relative(process.cwd(), RESULTS)}`)
	console.log(out.slice(4).join('\n'))
})
