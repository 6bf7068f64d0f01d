/*
 * Starts the production server (server/index.ts on an existing build) on a free port with a fresh,
 * temporary data folder, waits until /healthz answers, and stops it with SIGTERM, reporting how
 * it went so that a test can insist on a clean shutdown.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

export interface ServerExit {
	code: number | null
	signal: NodeJS.Signals | null
	/** Milliseconds between SIGTERM and the exit of the process. */
	ms: number
	/** The process did not exit by itself in time and had to be killed. */
	killed: boolean
}

export interface RunningServer {
	origin: string
	port: number
	dataDir: string
	/** How long the server took to answer /healthz, in milliseconds. */
	readyMs: number
	/** Everything the server wrote to stdout and stderr (the end of it, if long). */
	output(): string
	/** SIGTERM, then wait up to `graceMs` for the process to exit by itself (SIGKILL after that). */
	stop(graceMs?: number): Promise<ServerExit>
	/** Last resort: kill whatever is left and remove the data folder. Safe to call twice. */
	dispose(): Promise<void>
}

export interface StartOptions {
	/** The repository root (where server/, drizzle/ and node_modules/ are). */
	root: string
	/** The build folder, relative to root (BUILD_DIR). */
	buildDir: string
	/** Extra environment for the server. */
	env?: Record<string, string>
	/** The port to listen on (when something must know the site's address before it starts); a free one otherwise. */
	port?: number
	startTimeoutMs?: number
}

const MAX_OUTPUT = 256 * 1024

export async function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const probe = net.createServer()
		probe.unref()
		probe.once('error', reject)
		probe.listen(0, '127.0.0.1', () => {
			const address = probe.address()
			probe.close(() => {
				if (address && typeof address === 'object') resolve(address.port)
				else reject(new Error('no port'))
			})
		})
	})
}

function waitForExit(child: ChildProcess): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
	return new Promise((resolve) => child.once('exit', () => resolve()))
}

export async function startServer(options: StartOptions): Promise<RunningServer> {
	const { root, buildDir } = options
	const serverBundle = path.join(root, buildDir, 'server', 'index.js')
	if (!fs.existsSync(serverBundle)) {
		throw new Error(
			`No production build at ${path.join(root, buildDir)}. Run \`npm run build\` first ` +
				`(with BUILD_DIR=${buildDir} if that is the folder you want).`,
		)
	}
	const node = path.join(root, 'node_modules', '.bin', 'node')
	if (!fs.existsSync(node)) throw new Error(`${node} is missing: run \`npm ci\` (the project brings its own Node.js).`)

	const port = options.port ?? (await freePort())
	const origin = `http://localhost:${port}`
	const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'band-site-e2e-'))

	// A clean environment: nothing from the caller's shell (DATABASE_URL, SMTP_URL, LINK_IN_BIO_URL…)
	// may change what the site under test does.
	const env: Record<string, string> = {
		PATH: process.env.PATH ?? '/usr/bin:/bin',
		HOME: process.env.HOME ?? os.tmpdir(),
		IGNORE_DOTENV: '1',
		TMPDIR: os.tmpdir(),
		NODE_ENV: 'production',
		BUILD_DIR: buildDir,
		DATA_DIR: dataDir,
		HOST: '127.0.0.1',
		PORT: String(port),
		SITE_URL: origin,
		LOG_LEVEL: 'warn',
		...options.env,
	}

	let output = ''
	const child = spawn(node, ['server/index.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] })
	const collect = (chunk: Buffer) => {
		output += chunk.toString('utf8')
		if (output.length > MAX_OUTPUT) output = output.slice(-MAX_OUTPUT)
	}
	child.stdout?.on('data', collect)
	child.stderr?.on('data', collect)
	const exited = waitForExit(child)

	let disposed = false
	const started = performance.now()
	const server: RunningServer = {
		origin,
		port,
		dataDir,
		readyMs: 0,
		output: () => output,
		async stop(graceMs = 5_000) {
			if (child.exitCode !== null || child.signalCode !== null) {
				return { code: child.exitCode, signal: child.signalCode, ms: 0, killed: false }
			}
			const started = performance.now()
			child.kill('SIGTERM')
			let timer: NodeJS.Timeout | undefined
			const inTime = await Promise.race([
				exited.then(() => true),
				new Promise<false>((resolve) => {
					timer = setTimeout(() => resolve(false), graceMs)
				}),
			])
			clearTimeout(timer)
			const ms = Math.round(performance.now() - started)
			if (!inTime) {
				child.kill('SIGKILL')
				await exited
				return { code: child.exitCode, signal: child.signalCode, ms, killed: true }
			}
			return { code: child.exitCode, signal: child.signalCode, ms, killed: false }
		},
		async dispose() {
			if (disposed) return
			disposed = true
			if (child.exitCode === null && child.signalCode === null) {
				child.kill('SIGKILL')
				await exited
			}
			fs.rmSync(dataDir, { recursive: true, force: true })
		},
	}

	// Opening the embedded database and migrating it takes a few seconds, much more on a busy machine.
	const deadline = Date.now() + (options.startTimeoutMs ?? 90_000)
	let lastProblem = 'no answer yet'
	while (Date.now() < deadline) {
		if (child.exitCode !== null || child.signalCode !== null) {
			await server.dispose()
			throw new Error(`The server exited before it was ready (code ${child.exitCode}, signal ${child.signalCode}):\n${output}`)
		}
		try {
			const response = await fetch(`${origin}/healthz`, { signal: AbortSignal.timeout(2_000) })
			await response.arrayBuffer()
			if (response.status === 200) {
				server.readyMs = Math.round(performance.now() - started)
				return server
			}
			lastProblem = `GET /healthz answered ${response.status}`
		} catch (error) {
			lastProblem = (error as Error).message
		}
		await new Promise((resolve) => setTimeout(resolve, 150))
	}
	await server.dispose()
	throw new Error(
		`The server did not answer /healthz within ${Math.round((performance.now() - started) / 1000)} s (${lastProblem}); its output:\n${output}`,
	)
}
