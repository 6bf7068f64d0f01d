/*
 * The real production server (server/index.ts on a build of the app) in a child process, for the
 * integration tests that need the whole HTTP path: the socket, our own headers, React Router.
 * `ensureBuild` builds into a folder of the tests' own (never the operator's `build/`), again
 * whenever the app's sources are newer than that build; concurrent test files wait for each other.
 * Every test file serves the same build: the builds are identical, and one takes ~20 s of CPU.
 * TEST_BUILD_DIR names a build made beforehand instead (`npm test` builds `build/` first, for the
 * end-to-end tests too): that one is served as is, checked but never rebuilt.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import lockfile from 'proper-lockfile'

export const ROOT = path.resolve(import.meta.dirname, '..', '..')

/** The build folder every integration test serves: TEST_BUILD_DIR, or build-test (made by `ensureBuild`). */
export const TEST_BUILD_DIR = process.env.TEST_BUILD_DIR || 'build-test'

/** What a build is made from: when any of it is newer than the build, the build is stale. */
const BUILD_INPUTS = [
	'app',
	'public',
	'vite.config.ts',
	'react-router.config.ts',
	'tsconfig.json',
	'package.json',
	'package-lock.json',
	'scripts/compress-assets.mjs',
	'scripts/font-subsets.ts',
	'scripts/strings-plugin.ts',
]

function newestMtime(entry: string): number {
	let stat: fs.Stats
	try {
		stat = fs.statSync(entry)
	} catch {
		return 0
	}
	if (!stat.isDirectory()) return stat.mtimeMs
	// A folder's own time moves when a test makes and removes a scratch folder in it (app/i18n.test.ts
	// does, beside the others running at once): what is built is the files, and hidden entries are not.
	let newest = 0
	for (const child of fs.readdirSync(entry)) {
		if (!child.startsWith('.')) newest = Math.max(newest, newestMtime(path.join(entry, child)))
	}
	return newest
}

function isFresh(buildDir: string): boolean {
	const bundle = path.join(ROOT, buildDir, 'server', 'index.js')
	if (!fs.existsSync(bundle)) return false
	const built = fs.statSync(bundle).mtimeMs
	return BUILD_INPUTS.every((input) => newestMtime(path.join(ROOT, input)) <= built)
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
	return new Promise((resolve, reject) => {
		let output = ''
		const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
		child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
		child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
		child.once('error', reject)
		child.once('exit', (code) =>
			code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} failed (code ${code}):\n${output.slice(-4000)}`)),
		)
	})
}

/** `BUILD_DIR=<buildDir> npm run build`, unless that build is already newer than the app's sources. */
export async function ensureBuild(buildDir = TEST_BUILD_DIR): Promise<void> {
	if (buildDir === process.env.TEST_BUILD_DIR) {
		if (!isFresh(buildDir)) {
			throw new Error(
				`TEST_BUILD_DIR=${buildDir} holds no build, or one older than the sources: build it first (the tests never rebuild it)`,
			)
		}
		return
	}
	if (!/^build-[\w-]+$/.test(buildDir)) throw new Error(`a test build folder is named build-<something>, not ${buildDir}`)
	const release = await lockfile.lock(ROOT, {
		lockfilePath: path.join(os.tmpdir(), `band-site-${buildDir}.lock`),
		realpath: false,
		stale: 120_000,
		retries: { retries: 600, minTimeout: 200, maxTimeout: 500 },
	})
	try {
		if (isFresh(buildDir)) return
		// A clean environment: nothing of Vitest's (VITEST leaves the React Router plugin out of the config).
		await run('npm', ['run', 'build'], {
			PATH: process.env.PATH ?? '/usr/bin:/bin',
			HOME: process.env.HOME ?? os.tmpdir(),
			IGNORE_DOTENV: '1',
			TMPDIR: os.tmpdir(),
			BUILD_DIR: buildDir,
		})
	} finally {
		await release()
	}
}

export async function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const probe = net.createServer()
		probe.once('error', reject)
		probe.listen(0, '127.0.0.1', () => {
			const address = probe.address()
			probe.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port'))))
		})
	})
}

export interface SiteServer {
	/** http://127.0.0.1:<port>, which is also its SITE_URL. */
	origin: string
	pid: number
	output(): string
	/** Settles when the process has exited: its code, or the signal that ended it. */
	exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
	/** SIGTERM (or `signal`), SIGKILL after `graceMs`; resolves once the process is gone. */
	stop(graceMs?: number, signal?: NodeJS.Signals): Promise<void>
}

function exited(child: ChildProcess): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
	return new Promise((resolve) => child.once('exit', () => resolve()))
}

/**
 * Starts `node server/index.ts` on a build, a free port and the given data folder (and database),
 * with nothing else from the caller's environment, and waits until /healthz answers.
 * `development: true`: `node server/index.ts --dev` instead (`npm run dev`: Vite inside, no build).
 */
export async function startSiteServer(
	options: ({ buildDir: string; development?: never } | { development: true; buildDir?: never }) & {
		dataDir: string
		env?: Record<string, string | undefined>
		startTimeoutMs?: number
	},
): Promise<SiteServer> {
	const port = await freePort()
	const origin = `http://127.0.0.1:${port}`
	const env: Record<string, string> = {
		PATH: process.env.PATH ?? '/usr/bin:/bin',
		HOME: process.env.HOME ?? os.tmpdir(),
		IGNORE_DOTENV: '1',
		TMPDIR: os.tmpdir(),
		...(options.development ? {} : { NODE_ENV: 'production', BUILD_DIR: options.buildDir }),
		DATA_DIR: options.dataDir,
		HOST: '127.0.0.1',
		PORT: String(port),
		SITE_URL: origin,
		LOG_LEVEL: 'warn',
		// No load balancer to tell: stop at once (tests/integration/shutdown.test.ts sets its own grace).
		SHUTDOWN_GRACE_SECONDS: '0',
	}
	for (const [key, value] of Object.entries(options.env ?? {})) if (value !== undefined) env[key] = value

	let output = ''
	const args = options.development ? ['server/index.ts', '--dev'] : ['server/index.ts']
	const child = spawn(path.join(ROOT, 'node_modules', '.bin', 'node'), args, {
		cwd: ROOT,
		env,
		stdio: ['ignore', 'pipe', 'pipe'],
	})
	const collect = (chunk: Buffer) => {
		output = (output + chunk.toString()).slice(-64 * 1024)
	}
	child.stdout!.on('data', collect)
	child.stderr!.on('data', collect)
	const gone = exited(child)

	const server: SiteServer = {
		origin,
		pid: child.pid!,
		output: () => output,
		exited: gone.then(() => ({ code: child.exitCode, signal: child.signalCode })),
		async stop(graceMs = 5_000, signal: NodeJS.Signals = 'SIGTERM') {
			if (child.exitCode !== null || child.signalCode !== null) return
			child.kill(signal)
			const timer = setTimeout(() => child.kill('SIGKILL'), graceMs)
			await gone
			clearTimeout(timer)
		},
	}

	const deadline = Date.now() + (options.startTimeoutMs ?? 90_000)
	let problem = 'no answer yet'
	while (Date.now() < deadline) {
		if (child.exitCode !== null || child.signalCode !== null) {
			throw new Error(`The server exited before it was ready (code ${child.exitCode}):\n${output}`)
		}
		try {
			const response = await fetch(`${origin}/healthz`, { signal: AbortSignal.timeout(2_000) })
			await response.arrayBuffer()
			if (response.status === 200) return server
			problem = `GET /healthz answered ${response.status}`
		} catch (error) {
			problem = (error as Error).message
		}
		await new Promise((resolve) => setTimeout(resolve, 100))
	}
	await server.stop(0)
	throw new Error(`The server did not answer /healthz in time (${problem}):\n${output}`)
}

/**
 * The first admin of a fresh site, set up through the link the server wrote to its log (as a host
 * would): the cookies the set-up answer set (the session, and the flash of its redirect).
 */
export async function setUpFirstAdmin(
	server: SiteServer,
	account: { name: string; email: string; password: string },
): Promise<Record<string, string>> {
	const link = /"setupLink":"([^"]+)"/.exec(server.output())?.[1]
	if (!link) throw new Error(`no set-up link in the log:\n${server.output()}`)
	const url = new URL(link)
	const response = await fetch(server.origin + url.pathname + url.search, {
		method: 'POST',
		headers: { origin: server.origin, 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams({ ...account, confirm: account.password }),
		redirect: 'manual',
	})
	await response.arrayBuffer()
	if (response.status !== 302) throw new Error(`the set-up form answered ${response.status}`)
	return cookiesOf(response)
}

/** The cookies a response sets, by name (those it clears left out). */
export function cookiesOf(response: Response): Record<string, string> {
	const jar: Record<string, string> = {}
	for (const line of response.headers.getSetCookie()) {
		const [pair] = line.split(';')
		const at = pair!.indexOf('=')
		const value = pair!.slice(at + 1)
		if (value) jar[pair!.slice(0, at).trim()] = value
	}
	return jar
}

/** Whether a process with that id still exists. */
export function isRunning(pid: number): boolean {
	try {
		process.kill(pid, 0)
		return true
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM'
	}
}
