import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMigratedTestDatabase, databaseKind, type TestDatabase } from '../support/database.ts'
import { ensureBuild, isRunning, setUpFirstAdmin, startSiteServer, TEST_BUILD_DIR, type SiteServer } from '../support/site-server.ts'

/*
 * A stop as an orchestrator does it (SIGTERM) with signed-in requests in flight, on the real server
 * (server/main.ts on a production build), PGlite and PostgreSQL: every request gets its whole answer,
 * /readyz says 503 during the grace, the process exits 0 within its bound, the embedded lock is gone
 * and the folder opens again at once; a lock left by a kill -9 does not hold the next start either.
 */
const kind = databaseKind()
const GRACE_SECONDS = 5
const TIMEOUT_SECONDS = 10
const REQUESTS = 40

let database: TestDatabase
const servers: SiteServer[] = []
/** The monitoring token: /readyz says which check failed only to its bearer. */
const METRICS_TOKEN = 'jeton-de-supervision-des-tests-2026'

async function start(extra: Record<string, string> = {}) {
	const server = await startSiteServer({
		buildDir: TEST_BUILD_DIR,
		dataDir: database.dataDir,
		startTimeoutMs: 180_000,
		env: {
			DATABASE_URL: database.databaseUrl,
			SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS),
			SHUTDOWN_TIMEOUT_SECONDS: String(TIMEOUT_SECONDS),
			METRICS_TOKEN,
			LOG_LEVEL: 'info',
			...extra,
		},
	})
	servers.push(server)
	return server
}

/** A monitor's GET (with the token) on a connection of its own, closed after the answer. */
function probe(url: string): Promise<{ status: number; body: unknown }> {
	return new Promise((resolve, reject) => {
		const headers = { connection: 'close', authorization: `Bearer ${METRICS_TOKEN}` }
		const request = http.get(url, { agent: false, headers, timeout: 30_000 }, (response) => {
			let text = ''
			response.setEncoding('utf8')
			response.on('data', (chunk: string) => (text += chunk))
			response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as unknown }))
			response.on('error', reject)
		})
		request.on('timeout', () => request.destroy(new Error('timeout')))
		request.on('error', reject)
	})
}

const lockFiles = () => ['pglite.lock', 'pglite.pid'].filter((name) => fs.existsSync(path.join(database.dataDir, name)))

describe(`a SIGTERM with signed-in requests in flight (${kind})`, () => {
	beforeAll(async () => {
		await ensureBuild()
		database = await createMigratedTestDatabase()
	}, 300_000)

	afterAll(async () => {
		for (const server of servers) await server.stop(0)
		await database?.dispose()
	})

	it('answers every request, says 503 on /readyz during the grace, exits 0 in time and leaves no lock', { timeout: 400_000 }, async () => {
		const server = await start()
		const jar = await setUpFirstAdmin(server, { name: 'Alex Admin', email: 'admin@exemple.fr', password: 'cheval agrafe pile correcte' })
		const cookie = Object.entries(jar)
			.map(([name, value]) => `${name}=${value}`)
			.join('; ')
		const page = async () => {
			const response = await fetch(`${server.origin}/dashboard`, { headers: { cookie }, redirect: 'manual' })
			return { status: response.status, body: await response.text(), at: performance.now() }
		}
		// Signed in, rendered per request (never from the page cache).
		const warm = await page()
		expect(warm.status).toBe(200)

		let signalledAt = Number.POSITIVE_INFINITY
		const results = Array.from({ length: REQUESTS }, () =>
			page().catch((error: unknown) => ({ status: 0, body: String((error as Error).cause ?? error), at: performance.now() })),
		)
		// The signal as soon as the first answer is back: the others are in flight, sent and not yet answered.
		await Promise.race(results)
		process.kill(server.pid, 'SIGTERM')
		signalledAt = performance.now()

		// During the grace the instance is up but says it is not ready: a load balancer stops sending.
		// Asked on fresh connections, as a load balancer's probe. The first answers may come before the
		// signal is read (they reach the process side by side): asked again until it says 503.
		let ready: { status: number; body: unknown } | undefined
		for (let i = 0; i < 20 && ready?.status !== 503; i++) {
			ready = await probe(`${server.origin}/readyz`)
			const probedAt = performance.now() - signalledAt
			if (ready.status !== 503) await new Promise((resolve) => setTimeout(resolve, 50))
			else console.info(`/readyz 503 at ${Math.round(probedAt)} ms after the signal`)
		}
		expect(ready).toMatchObject({ status: 503, body: { status: 'not-ready', checks: { draining: true } } })

		const answers = await Promise.all(results)
		const exit = await server.exited
		const stopMs = performance.now() - signalledAt
		const after = answers.filter((answer) => answer.at > signalledAt).length
		const failed = answers.filter((answer) => answer.status !== 200 || !answer.body.includes('</html>'))
		console.info(
			`SIGTERM (${kind}): ${answers.length - failed.length}/${REQUESTS} answered whole (${after} after the signal), ` +
				`exit ${exit.code} after ${Math.round(stopMs)} ms, lock files left: ${JSON.stringify(lockFiles())}`,
		)
		expect(failed.map((answer) => `${answer.status} ${answer.body.slice(0, 80)}`)).toEqual([])
		expect(after).toBeGreaterThan(0)
		expect(exit).toEqual({ code: 0, signal: null })
		expect(stopMs).toBeLessThan((GRACE_SECONDS + TIMEOUT_SECONDS) * 1000 + 10_000)
		expect(stopMs).toBeGreaterThanOrEqual(GRACE_SECONDS * 1000)
		expect(server.output()).toMatch(/"msg":"stopped"/)
		expect(lockFiles()).toEqual([])
		// After the grace the port is closed: a new connection is refused, not left hanging.
		await expect(fetch(`${server.origin}/healthz`)).rejects.toThrow()

		// The same folder (and database) opens again at once.
		const again = await start()
		expect((await fetch(`${again.origin}/readyz`)).status).toBe(200)
		await again.stop(30_000)
		expect(await again.exited).toEqual({ code: 0, signal: null })
		expect(lockFiles()).toEqual([])
	})

	it('starts at once after a kill -9 left its lock behind', { timeout: 400_000 }, async () => {
		const server = await start()
		process.kill(server.pid, 'SIGKILL')
		expect((await server.exited).signal).toBe('SIGKILL')
		expect(isRunning(server.pid)).toBe(false)
		if (kind === 'pglite') expect(lockFiles()).toEqual(['pglite.lock', 'pglite.pid'])
		const started = performance.now()
		const again = await start()
		console.info(`start after kill -9 (${kind}): ${Math.round(performance.now() - started)} ms to /healthz`)
		expect((await fetch(`${again.origin}/readyz`)).status).toBe(200)
		await again.stop(30_000)
		expect(await again.exited).toEqual({ code: 0, signal: null })
	})
})
