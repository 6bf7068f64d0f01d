/*
 * A load generator in a process of its own, so that the bench's event loop is never what limits the
 * figure: wrk (a C program, two threads) when it is installed, else autocannon's own command line in
 * a child Node. Autocannon run inside the bench process topped out near the servers it measured, so
 * a cheap server looked slower than it is and ratios between servers were squeezed towards 1.
 * Returns the same Round as the in-process `cannon` (harness.ts), the server's CPU read from /proc
 * over the run; wrk does not say how many answers each connection got (those two fields are NaN).
 */
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { ROOT, cannonFigures, cpuMs, nodeBin, type CannonResult, type Round, type Target } from './harness.ts'

const run = promisify(execFile)
const WRK = process.env.WRK ?? '/usr/bin/wrk'

/** Which generator this machine uses: `wrk` or `autocannon (child process)`. */
export const generatorName = fs.existsSync(WRK) ? 'wrk' : 'autocannon (child process)'

/** "1.23ms", "456.00us", "1.02s" → ms. */
function ms(text: string): number {
	const found = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim())
	if (!found) return Number.NaN
	const value = Number(found[1])
	return found[2] === 'us' ? value / 1000 : found[2] === 'ms' ? value : found[2] === 's' ? value * 1000 : value * 60_000
}

async function withWrk(target: Target, seconds: number, connections: number, timeoutSeconds: number) {
	const headers = Object.entries(target.headers ?? {}).flatMap(([name, value]) => ['-H', `${name}: ${value}`])
	const { stdout } = await run(
		WRK,
		['-t', '2', '-c', String(connections), '-d', `${seconds}s`, '--timeout', `${timeoutSeconds}s`, '--latency', ...headers, target.url],
		{ maxBuffer: 1 << 20 },
	)
	const requests = Number(/(\d+) requests in/.exec(stdout)?.[1] ?? Number.NaN)
	const nonOk = Number(/Non-2xx or 3xx responses: (\d+)/.exec(stdout)?.[1] ?? 0)
	const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout)
	const latencyLine = /Latency\s+(\S+)\s+(\S+)\s+(\S+)/.exec(stdout)
	return {
		reqPerSec: Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? Number.NaN),
		p50: ms(/\n\s+50%\s+(\S+)/.exec(stdout)?.[1] ?? ''),
		p99: ms(/\n\s+99%\s+(\S+)/.exec(stdout)?.[1] ?? ''),
		maxLatency: ms(latencyLine?.[3] ?? ''),
		requests,
		ok: requests - nonOk,
		unexpected: nonOk,
		errors: socket ? socket.slice(1).reduce((total, n) => total + Number(n), 0) : 0,
		fewestPerConnection: Number.NaN,
		mostPerConnection: Number.NaN,
	}
}

async function withAutocannon(target: Target, seconds: number, connections: number, timeoutSeconds: number) {
	const headers = Object.entries(target.headers ?? {}).flatMap(([name, value]) => ['-H', `${name}=${value}`])
	const { stdout } = await run(
		nodeBin,
		[
			path.join(ROOT, 'node_modules/.bin/autocannon'),
			'--json',
			'-c',
			String(connections),
			'-d',
			String(seconds),
			'-t',
			String(timeoutSeconds),
			...headers,
			target.url,
		],
		{ maxBuffer: 16 << 20 },
	)
	const r = JSON.parse(stdout) as CannonResult & { non2xx: number }
	return {
		...cannonFigures(r),
		ok: r.requests.total - r.non2xx,
		unexpected: r.non2xx,
		fewestPerConnection: Number.NaN,
		mostPerConnection: Number.NaN,
	}
}

/** One run of `seconds` on a target from a separate process, with its servers' CPU over the run. */
export async function generateLoad(
	target: Target,
	seconds: number,
	options: { connections?: number; timeoutSeconds?: number } = {},
): Promise<Round> {
	const connections = options.connections ?? 50
	const timeoutSeconds = options.timeoutSeconds ?? 10
	const before = cpuMs(...target.pids)
	const result = await (generatorName === 'wrk' ? withWrk : withAutocannon)(target, seconds, connections, timeoutSeconds)
	return { ...result, cpuMs: cpuMs(...target.pids) - before }
}
