/*
 * Where a signed-in page's CPU goes: a CPU profile of the server while it answers one page, request
 * after request, read by source file.
 *
 *   node_modules/.bin/node bench/signed-in-profile.ts [path …]     (default /dashboard and /dashboard/admin/events)
 *   BUILD_DIR=build-x … --no-build                                 (reuse a build made with server source maps)
 *   PROFILE_REQUESTS=1500 …                                        (sequential requests per path, the default)
 *   … --bare                                                       (the bare React Router page of bench/bare/ first)
 *   … --reread                                                     (the breakdown of the profiles last stored)
 *
 * The site is built with the server bundle's source maps (into build-bench-profile/), seeded with the
 * demo events and an admin account, and started once per path with Node's inspector on the
 * loopback. After a warm-up, the bench asks V8's profiler (the inspector protocol, as Chrome's
 * DevTools do) to sample only while it sends the path's requests one at a time, signed in, then reads
 * the samples: self time by where the code comes from (PGlite, React's rendering, React Router, a
 * bundled package, our app/ or server/ code, Node's own modules, the garbage collector), and the
 * functions that cost most. A sample in a built-in function without a script (a RegExp, JSON) counts
 * for the nearest caller that has one. Prints a Markdown table; writes nothing else but the profiles
 * (bench/.tmp/*.cpuprofile, to open in Chrome's DevTools).
 * Loopback only; every process started here is stopped before exit.
 */
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import { SourceMap } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ChildProcess } from 'node:child_process'
import { freePort, start, stop, waitForHttp } from './processes.ts'
import {
	BARE_BUILD_DIR,
	ROOT,
	TMP,
	buildBareApp,
	buildSite,
	makeLog,
	nodeBin,
	runBench,
	seedDemo,
	signIn,
	startSite,
	tempDir,
} from './support/harness.ts'

const BUILD_DIR = process.env.BUILD_DIR ?? 'build-bench-profile'
const REQUESTS = Number(process.env.PROFILE_REQUESTS ?? 1500)
const WARM_UP = 300
const IDLE_SECONDS = 10
const paths = process.argv.slice(2).filter((arg) => arg.startsWith('/'))
if (paths.length === 0) paths.push('/dashboard', '/dashboard/admin/events')
const log = makeLog('signed-in profile')

interface ProfileNode {
	id: number
	callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }
	children?: number[]
}
interface Profile {
	nodes: ProfileNode[]
	startTime: number
	endTime: number
	samples: number[]
	timeDeltas: number[]
}

/** One DevTools protocol session over the inspector's WebSocket. */
async function inspector(port: number) {
	const [first] = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string }[]
	const socket = new WebSocket(first!.webSocketDebuggerUrl)
	await new Promise((resolve, reject) => {
		socket.addEventListener('open', resolve, { once: true })
		socket.addEventListener('error', reject, { once: true })
	})
	let next = 1
	const waiting = new Map<number, (message: { result?: unknown; error?: unknown }) => void>()
	socket.addEventListener('message', (event) => {
		const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: unknown }
		if (message.id !== undefined) waiting.get(message.id)?.(message)
	})
	return {
		async send<T>(method: string, params: object = {}): Promise<T> {
			const id = next++
			const answer = new Promise<{ result?: unknown; error?: unknown }>((resolve) => waiting.set(id, resolve))
			socket.send(JSON.stringify({ id, method, params }))
			const message = await answer
			if (message.error) throw new Error(`${method}: ${JSON.stringify(message.error)}`)
			return message.result as T
		},
		close: () => socket.close(),
	}
}

/** The original source of a position in the server bundle (its source maps), or the script itself. */
function sourceReader(buildDir: string) {
	const maps = new Map<string, SourceMap | null>()
	return (url: string, line: number, column: number): string => {
		if (!url.startsWith('file://')) return url
		const file = fileURLToPath(url)
		if (!file.startsWith(path.join(ROOT, buildDir))) return file
		let map = maps.get(file)
		if (map === undefined) {
			map = fs.existsSync(`${file}.map`) ? new SourceMap(JSON.parse(fs.readFileSync(`${file}.map`, 'utf8'))) : null
			maps.set(file, map)
		}
		const entry = map?.findEntry(line, column)
		return entry && 'originalSource' in entry ? entry.originalSource : file
	}
}

/** The kind of code a source is, for the breakdown. */
function kindOf(source: string): string {
	const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source)?.[1]
	if (inPackage === '@electric-sql/pglite') return 'PGlite'
	if (inPackage === 'react-dom' || inPackage === 'react') return 'React (rendering)'
	if (inPackage === 'react-router' || inPackage?.startsWith('@react-router/')) return 'React Router'
	if (inPackage) return `package ${inPackage}`
	if (source.startsWith('node:')) return 'Node (http, streams, async context…)'
	const ours = /\/(app|server)\//.exec(source)
	if (ours) return `our ${ours[1]}/`
	return source || 'no script'
}

function analyse(profile: Profile, readSource: ReturnType<typeof sourceReader>) {
	const byId = new Map(profile.nodes.map((node) => [node.id, node]))
	const parent = new Map<number, number>()
	for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)
	const selfUs = new Map<number, number>()
	// Each sample lasts until the next one.
	for (let k = 0; k < profile.samples.length; k++) {
		const duration = profile.timeDeltas[k + 1] ?? 0
		selfUs.set(profile.samples[k]!, (selfUs.get(profile.samples[k]!) ?? 0) + duration)
	}
	const sourceOf = (node: ProfileNode) => readSource(node.callFrame.url, node.callFrame.lineNumber, node.callFrame.columnNumber)
	const nameOf = (node: ProfileNode) => {
		const where = sourceOf(node)
			.replace(/^.*node_modules\//, '')
			.replace(/^(\.\.\/)+/, '')
			.replace(`${ROOT}/`, '')
		return `${node.callFrame.functionName || '(anonymous)'} · ${where}`
	}
	const kinds = new Map<string, number>()
	const functions = new Map<string, number>()
	/** Time with a function of ours on the stack (each function once per sample). */
	const ours = new Map<string, number>()
	const add = (map: Map<string, number>, key: string, us: number) => map.set(key, (map.get(key) ?? 0) + us)
	let busy = 0
	let idle = 0
	for (const [id, us] of selfUs) {
		const node = byId.get(id)!
		const name = node.callFrame.functionName
		if (name === '(idle)') {
			idle += us
			continue
		}
		busy += us
		if (name === '(garbage collector)' || name === '(program)') {
			add(kinds, name, us)
			continue
		}
		const stack: ProfileNode[] = []
		for (let frame: ProfileNode | undefined = node; frame; frame = byId.get(parent.get(frame.id) ?? -1)) stack.push(frame)
		// The database's work counts whole: its WebAssembly and the file system calls it makes.
		const inDatabase = stack.some((frame) => frame.callFrame.url.startsWith('wasm://') || kindOf(sourceOf(frame)) === 'PGlite')
		// A built-in without a script counts for its nearest caller that has one.
		const owner = stack.find((frame) => frame.callFrame.url)
		add(kinds, inDatabase ? 'PGlite' : kindOf(owner ? sourceOf(owner) : ''), us)
		add(functions, node.callFrame.url ? nameOf(node) : `${name} (built-in) · ${owner ? nameOf(owner) : '?'}`, us)
		const seen = new Set<string>()
		for (const frame of stack) {
			if (!kindOf(sourceOf(frame)).startsWith('our ')) continue
			const key = nameOf(frame)
			if (!seen.has(key)) add(ours, key, us)
			seen.add(key)
		}
	}
	return { kinds, functions, ours, busy, idle }
}

const profileFile = (page: string) => path.join(TMP, `signed-in-${page.replaceAll('/', '-').replace(/^-/, '')}.cpuprofile`)

function report(page: string, profile: Profile, readSource: ReturnType<typeof sourceReader>, note = '') {
	const { kinds, functions, ours, busy, idle } = analyse(profile, readSource)
	const pct = (us: number) => `${((100 * us) / busy).toFixed(1)} %`
	const perRequest = (us: number) => `${(us / 1000 / REQUESTS).toFixed(3)} ms`
	console.log(
		`\n### \`${page}\`, ${REQUESTS} sequential requests\n\n` +
			`Server busy ${perRequest(busy)} per request (idle ${((100 * idle) / (busy + idle)).toFixed(0)} % of the time${note}); profile ${path.relative(ROOT, profileFile(page))}\n`,
	)
	console.log('| code | share of busy time | per request |\n| --- | ---: | ---: |')
	for (const [kind, us] of [...kinds].sort((a, b) => b[1] - a[1])) {
		if (us / busy < 0.005) continue
		console.log(`| ${kind} | ${pct(us)} | ${perRequest(us)} |`)
	}
	const table = (title: string, map: Map<string, number>, rows: number) => {
		console.log(`\n${title}\n\n| function · source | share |\n| --- | ---: |`)
		for (const [name, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, rows))
			console.log(`| ${name.replaceAll('|', '\\|')} | ${pct(us)} |`)
	}
	table('Most self time:', functions, 25)
	table('Our functions, with what they call:', ours, 30)
}

await runBench(async () => {
	// --reread: the breakdown of the profiles the last run stored, without running anything.
	if (process.argv.includes('--reread')) {
		for (const page of [...(process.argv.includes('--bare') ? ['bare'] : []), ...paths])
			report(page, JSON.parse(fs.readFileSync(profileFile(page), 'utf8')) as Profile, sourceReader(BUILD_DIR))
		return
	}
	buildSite(BUILD_DIR, { serverSourcemaps: true, log })
	const dataDir = tempDir('band-bench-profile-')
	const email = 'bench-admin@example.test'
	const password = randomBytes(12).toString('base64url')
	log('seeding the demo events and an admin account')
	seedDemo({ buildDir: BUILD_DIR, dataDir }, ['--admin', `${email}:${password}`])
	const readSource = sourceReader(BUILD_DIR)
	fs.mkdirSync(TMP, { recursive: true })

	// The floor first, served as bench/dashboard.ts serves it: where a page of nothing goes.
	if (process.argv.includes('--bare')) {
		buildBareApp({ log })
		const inspectPort = await freePort()
		const port = await freePort()
		const bare = start(
			nodeBin,
			[`--inspect=127.0.0.1:${inspectPort}`, path.join(ROOT, 'bench', 'bare', 'server.ts'), BARE_BUILD_DIR, String(port)],
			{
				cwd: ROOT,
				env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production' },
				logFile: path.join(TMP, 'profile-bare.log'),
			},
		)
		await waitForHttp(`http://127.0.0.1:${port}/`, bare)
		await profilePage('bare', `http://127.0.0.1:${port}/`, {}, inspectPort, bare, sourceReader(BUILD_DIR))
	}
	for (const page of paths) {
		const inspectPort = await freePort()
		// MALLOC_TRIM_THRESHOLD_ set here: the server then does not start itself again (server/memory-settings.ts).
		const site = await startSite('profile-server', {
			buildDir: BUILD_DIR,
			dataDir,
			nodeArgs: [`--inspect=127.0.0.1:${inspectPort}`],
			env: { MALLOC_TRIM_THRESHOLD_: '131072' },
		})
		const cookie = await signIn(site.origin, email, password)
		await profilePage(page, site.origin + page, { cookie }, inspectPort, site.child, readSource)
	}
})

/** Warm-up, then REQUESTS sequential requests while V8's profiler samples; the process is stopped after. */
async function profilePage(
	page: string,
	url: string,
	headers: Record<string, string>,
	inspectPort: number,
	child: ChildProcess,
	readSource: ReturnType<typeof sourceReader>,
) {
	const get = async () => {
		// As the load bench asks: no compression.
		const response = await fetch(url, { headers: { ...headers, 'accept-encoding': 'identity' }, redirect: 'manual' })
		await response.arrayBuffer()
		if (response.status !== 200) throw new Error(`${page} answered ${response.status}`)
	}
	log(`${page}: ${WARM_UP} requests to warm up`)
	for (let k = 0; k < WARM_UP; k++) await get()
	const session = await inspector(inspectPort)
	await session.send('Profiler.enable')
	await session.send('Profiler.setSamplingInterval', { interval: 200 })
	// What the process does with no request at all (timers, the job queue's polling), for comparison.
	await session.send('Profiler.start')
	await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000))
	const idle = analyse((await session.send<{ profile: Profile }>('Profiler.stop')).profile, readSource)
	await session.send('Profiler.start')
	const startedAt = performance.now()
	for (let k = 0; k < REQUESTS; k++) await get()
	const wallMs = performance.now() - startedAt
	const { profile } = await session.send<{ profile: Profile }>('Profiler.stop')
	session.close()
	await stop(child)
	fs.writeFileSync(profileFile(page), JSON.stringify(profile))
	const idleMsPerSecond = idle.busy / 1000 / IDLE_SECONDS
	report(
		page,
		profile,
		readSource,
		`, ${(wallMs / 1000).toFixed(1)} s in all; with no request at all the process was busy ${idleMsPerSecond.toFixed(1)} ms per second, ${((idleMsPerSecond * wallMs) / 1000 / REQUESTS).toFixed(3)} ms per request of this run, ${[
			...idle.kinds,
		]
			.sort((a, b) => b[1] - a[1])
			.map(([kind, us]) => `${kind} ${((100 * us) / idle.busy).toFixed(0)} %`)
			.slice(0, 3)
			.join(', ')}`,
	)
}
