// The two test suites of `npm test`, side by side: Vitest (unit, and integration on PGlite and on
// PostgreSQL) and the browser tests (tests/e2e), both on the build `npm test` has just made.
//
// Why at once: neither keeps a 2-core machine busy alone. Vitest's files spend much of their time
// waiting on the servers they start (about 60 % of both cores used over a whole run), the browser
// tests on Chromium and on their server (about 75 %). One after the other they took 419 s + 197 s on
// one machine; side by side 475 s, both cores busy, the same tests passing (2026-11-29, 2 cores,
// AMD EPYC). They share nothing: each starts its own servers on free ports, in its own temporary
// folders, and the integration tests make PostgreSQL databases of their own run's name.
//
// Vitest writes as it goes; what the browser tests print is kept and written whole once they end,
// so that the two never interleave line by line. The exit code is 1 if either failed.
// TEST_SUITES=serial runs them one after the other (Vitest first), as `npm test` did before.
import { spawn } from 'node:child_process'
import './check-node.mjs'

const serial = process.env.TEST_SUITES === 'serial'
const children = new Set()

/** One suite; resolves with its exit code and its duration. */
function run(name, command, args, { env = {}, buffered = false } = {}) {
	const started = performance.now()
	const child = spawn(command, args, {
		env: { ...process.env, ...env },
		stdio: ['ignore', buffered ? 'pipe' : 'inherit', buffered ? 'pipe' : 'inherit'],
		// A process group of its own, with the servers and browsers it starts: a signal reaches them all.
		detached: true,
	})
	children.add(child)
	const output = []
	if (buffered) {
		child.stdout.on('data', (chunk) => output.push(chunk))
		child.stderr.on('data', (chunk) => output.push(chunk))
	}
	return new Promise((resolve) => {
		let finished = false
		// A child that cannot start reports an error and may then close as well: one report.
		const finish = (code) => {
			if (finished) return
			finished = true
			children.delete(child)
			const seconds = Math.round((performance.now() - started) / 1000)
			if (buffered) {
				process.stdout.write(`\n==== ${name} (ran beside the other suite; its whole output) ====\n`)
				process.stdout.write(Buffer.concat(output))
				process.stdout.write(`==== end of ${name}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`}, ${seconds} s ====\n\n`)
			}
			resolve({ name, code, seconds })
		}
		child.on('error', (error) => {
			output.push(Buffer.from(`${name} could not start: ${error.message}\n`))
			finish(1)
		})
		child.on('close', (code, signal) => finish(code ?? (signal ? 1 : 0)))
	})
}

// Stopped (Ctrl-C, CI's timeout, `kill`): the signal goes to each suite's whole process group, so
// that the servers and browsers the tests started get it too, and this waits for them to end.
let stopped = false
for (const signal of ['SIGINT', 'SIGTERM']) {
	process.on(signal, () => {
		stopped = true
		for (const child of children) {
			try {
				process.kill(-child.pid, signal)
			} catch {
				// That group has already ended.
			}
		}
	})
}

// Each suite is its own npm script (package.json), run as `npm run` would: one home for each command.
const vitest = () =>
	run('unit and integration tests (Vitest)', 'npm', ['run', '--silent', 'test:unit'], { env: { TEST_BUILD_DIR: 'build' } })
const browser = (buffered) => run('browser tests (tests/e2e)', 'npm', ['run', '--silent', 'test:e2e'], { buffered })

const results = []
if (!serial) results.push(...(await Promise.all([vitest(), browser(true)])))
else {
	results.push(await vitest())
	if (!stopped) results.push(await browser(false))
}

console.log('')
for (const { name, code, seconds } of results) console.log(`${code === 0 ? 'passed' : 'FAILED'}  ${name}: ${seconds} s`)
if (stopped) console.log('stopped before the end')
if (stopped || results.some((r) => r.code !== 0)) process.exitCode = 1
