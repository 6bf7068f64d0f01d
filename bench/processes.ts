/*
 * The child processes the bench starts (servers, Chromium), tracked so that every one of them is
 * stopped at the end, on error and on Ctrl-C. Each child runs in its own process group and is
 * signalled through that group only (its own id), so Chromium's helper processes go with it.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'

const running = new Set<ChildProcess>()

export interface StartOptions {
	env?: NodeJS.ProcessEnv
	cwd?: string
	/** stdout and stderr are appended here; omitted: discarded. */
	logFile?: string
}

export function start(command: string, args: string[], options: StartOptions = {}): ChildProcess {
	const out = options.logFile ? fs.openSync(options.logFile, 'a') : 'ignore'
	const child = spawn(command, args, {
		cwd: options.cwd,
		env: options.env ?? process.env,
		stdio: ['ignore', out, out],
		detached: true,
	})
	if (typeof out === 'number') fs.closeSync(out)
	running.add(child)
	child.once('exit', () => running.delete(child))
	return child
}

/** Starts a child whose stderr we read (Chromium prints its DevTools address there). */
export function startPiped(command: string, args: string[], options: StartOptions = {}): ChildProcess {
	const child = spawn(command, args, {
		cwd: options.cwd,
		env: options.env ?? process.env,
		stdio: ['ignore', 'ignore', 'pipe'],
		detached: true,
	})
	running.add(child)
	child.once('exit', () => running.delete(child))
	return child
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals) {
	if (child.pid === undefined) return
	try {
		process.kill(-child.pid, signal)
	} catch {
		// The group is already gone.
	}
}

/** SIGTERM to the child's group, SIGKILL after `graceMs` if it is still there. */
export async function stop(child: ChildProcess, graceMs = 10_000): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) {
		signalGroup(child, 'SIGKILL') // stray helpers of an exited leader
		running.delete(child)
		return
	}
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
	signalGroup(child, 'SIGTERM')
	const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), graceMs)
	await exited
	clearTimeout(timer)
	signalGroup(child, 'SIGKILL') // helpers that outlived the leader, if any
	running.delete(child)
}

export async function stopAll(): Promise<void> {
	await Promise.all([...running].map((child) => stop(child)))
}

// Last resort when the bench itself exits without having stopped something.
process.on('exit', () => {
	for (const child of running) signalGroup(child, 'SIGKILL')
})

/** A TCP port that was free on the loopback a moment ago. */
export function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = net.createServer()
		server.once('error', reject)
		server.listen(0, '127.0.0.1', () => {
			const address = server.address()
			const port = typeof address === 'object' && address ? address.port : 0
			server.close(() => resolve(port))
		})
	})
}

/** Polls `url` until it answers (any status below 500) or `timeoutMs` passes. */
export async function waitForHttp(url: string, child: ChildProcess, timeoutMs = 30_000): Promise<void> {
	const deadline = Date.now() + timeoutMs
	while (Date.now() < deadline) {
		if (child.exitCode !== null) throw new Error(`${url}: the process exited (code ${child.exitCode}) before answering`)
		try {
			const response = await fetch(url, { signal: AbortSignal.timeout(2_000) })
			await response.arrayBuffer()
			if (response.status < 500) return
		} catch {
			// not listening yet
		}
		await new Promise((resolve) => setTimeout(resolve, 200))
	}
	throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`)
}
