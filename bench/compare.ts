/*
 * Two builds of the site, one page, loaded in the same seconds: which one costs less CPU per request.
 *
 *   node_modules/.bin/node bench/compare.ts <build A> <build B> [path]    (default /dashboard, signed in)
 *   ANONYMOUS=1 …                                                          (no session cookie: a browser's document headers)
 *   BENCH_SECONDS=5 BENCH_ROUNDS=10 …                                      (the defaults)
 *   SEEDED_DIR=<folder> …                                                  (seeded once, copied at each run)
 *   NODE_ARGS_B='--single-threaded-gc' …                                   (Node's options for B's server, or A's: NODE_ARGS_A)
 *   ENV_B='MALLOC_MMAP_THRESHOLD_=16384' …                                 (variables added to B's environment, or A's: ENV_A)
 *   NODE_BIN_B=<another node binary> …                                      (B's server runs on that Node, to compare
 *                                                                            Node versions; or A's: NODE_BIN_A)
 *   ROOT_A=<other checkout> …                                               (A's server is that checkout's server/, serving
 *                                                                            <build A> inside it; or B's: ROOT_B)
 *
 * A virtual machine's speed can drift by a third within a minute: two runs of bench/dashboard.ts
 * taken apart cannot tell a change of 10 %. Here both builds serve copies of one data folder
 * seeded with the demo events and an admin account (signed in once on each), and take the load at
 * the same time: 25 connections each, rounds of 5 s. Each round gives the CPU per request of each
 * server (user + system time, /proc); the result is each build's median and the number of rounds in
 * which B cost less than A. The server code (server/) is this checkout's for both: what is compared
 * is what the builds hold, unless ROOT_A or ROOT_B names another checkout whose server runs that
 * side (to compare changes of server/). Make each build with `BUILD_DIR=<folder> npm run build`.
 * Loopback only; every process started here is stopped before exit.
 */
import fs from 'node:fs'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import { stop } from './processes.ts'
import {
	CHROMIUM_DOCUMENT_HEADERS,
	cannon,
	envPairs,
	makeLog,
	median,
	runBench,
	seedDemo,
	signIn,
	startSite,
	tempDir,
	type Round,
	type Target,
} from './support/harness.ts'

const [buildA, buildB, page = '/dashboard'] = process.argv.slice(2)
const seconds = Number(process.env.BENCH_SECONDS ?? 5)
const rounds = Number(process.env.BENCH_ROUNDS ?? 10)
const anonymous = process.env.ANONYMOUS === '1'
const log = makeLog('compare')

await runBench(async () => {
	if (!buildA || !buildB || !page.startsWith('/')) {
		console.error('usage: node bench/compare.ts <build A> <build B> [path]')
		return 2
	}
	const roots = { A: process.env.ROOT_A && path.resolve(process.env.ROOT_A), B: process.env.ROOT_B && path.resolve(process.env.ROOT_B) }
	for (const [name, build] of [
		['A', buildA],
		['B', buildB],
	] as const)
		if (!fs.existsSync(path.join(roots[name] || '.', build, 'server', 'index.js')))
			throw new Error(`${build} holds no build (BUILD_DIR=${build} npm run build)`)

	const email = 'bench-admin@example.test'
	// SEEDED_DIR=<folder>: seed it once and copy it at each run after (the admin's password beside it).
	const kept = process.env.SEEDED_DIR ? path.resolve(process.env.SEEDED_DIR) : undefined
	const passwordFile = kept && `${kept}.password`
	const reuse = passwordFile !== undefined && fs.existsSync(passwordFile)
	const seeded = kept ?? tempDir('band-bench-compare-')
	const password = reuse ? fs.readFileSync(passwordFile, 'utf8') : randomBytes(12).toString('base64url')
	if (!reuse) {
		log('seeding the demo events and an admin account')
		seedDemo({ buildDir: buildB, dataDir: seeded }, ['--admin', `${email}:${password}`])
		if (passwordFile) fs.writeFileSync(passwordFile, password)
	}

	const targets: (Target & { child: Awaited<ReturnType<typeof startSite>>['child'] })[] = []
	for (const [name, buildDir] of [
		['A', buildA],
		['B', buildB],
	] as const) {
		const dataDir = tempDir(`band-bench-compare-${name}-`)
		fs.cpSync(seeded, dataDir, { recursive: true })
		const nodeArgs = (process.env[`NODE_ARGS_${name}`] ?? '').split(/\s+/).filter(Boolean)
		// ENV_B='MALLOC_MMAP_THRESHOLD_=16384 …': variables added to that side's environment.
		const env = envPairs(process.env[`ENV_${name}`])
		const node = process.env[`NODE_BIN_${name}`] || undefined
		const site = await startSite(`compare-${name}`, { buildDir, dataDir, nodeArgs, env, root: roots[name] || undefined, node })
		const cookie = anonymous ? undefined : await signIn(site.origin, email, password)
		// Anonymous: a browser's document request (the page cache's hit, page views counted).
		const target = {
			name,
			url: site.origin + page,
			pids: [site.pid],
			headers: cookie ? { cookie } : CHROMIUM_DOCUMENT_HEADERS,
			child: site.child,
		}
		const check = await fetch(target.url, { headers: target.headers, redirect: 'manual' })
		await check.arrayBuffer()
		if (check.status !== 200) throw new Error(`${page} on build ${name} answered ${check.status}`)
		targets.push(target)
	}

	const both = () => Promise.all(targets.map((target) => cannon(target, seconds, { connections: 25 })))
	log('warm-up: 2 s')
	await Promise.all(targets.map((target) => cannon(target, 2, { connections: 25 })))
	const perRequest: [number[], number[]] = [[], []]
	for (let round = 0; round < rounds; round++) {
		const results: Round[] = await both()
		results.forEach((result, k) => {
			if (result.unexpected || result.errors)
				log(`round ${round + 1}, build ${targets[k]!.name}: ${result.unexpected} unexpected answers, ${result.errors} errors`)
			perRequest[k]!.push(result.cpuMs / result.requests)
		})
		log(`round ${round + 1}: A ${perRequest[0].at(-1)!.toFixed(3)} ms, B ${perRequest[1].at(-1)!.toFixed(3)} ms CPU per request`)
	}
	await Promise.all(targets.map((target) => stop(target.child)))

	const [a, b] = perRequest.map(median) as [number, number]
	const lower = perRequest[1].filter((value, k) => value < perRequest[0][k]!).length
	console.log(
		[
			`${page}${anonymous ? '' : ', signed in'}: ${rounds} rounds of ${seconds} s, both builds at once (25 connections each)`,
			`A ${buildA}: ${a.toFixed(3)} ms CPU per request (median round)`,
			`B ${buildB}: ${b.toFixed(3)} ms CPU per request (median round), ${(((b - a) / a) * 100).toFixed(1)} % against A`,
			`B cost less than A in ${lower} rounds of ${rounds}`,
		].join('\n'),
	)
})
