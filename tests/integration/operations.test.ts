import fs from 'node:fs'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMigratedTestDatabase, databaseKind, type TestDatabase } from '../support/database.ts'
import { ensureBuild, TEST_BUILD_DIR, isRunning, startSiteServer, type SiteServer } from '../support/site-server.ts'

/*
 * Operations through the real HTTP server (server/index.ts on a production build): request ids in
 * headers, log lines and the French 500 page; readiness beside liveness, both failing cleanly when
 * the database is away; Prometheus metrics behind their token. It breaks its own PostgreSQL
 * database on purpose (a renamed table, refused connections), so it runs in the PostgreSQL project.
 */
const TOKEN = 'jeton-de-metriques-assez-long-0123456789'
const bearer = { authorization: `Bearer ${TOKEN}` }

let server: SiteServer
let database: TestDatabase

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
	const url = new URL(database.databaseUrl!)
	url.pathname = '/postgres'
	const client = new pg.Client({ connectionString: url.toString() })
	await client.connect()
	try {
		return await run(client)
	} finally {
		await client.end()
	}
}

describe.runIf(databaseKind() === 'postgres')('operations', () => {
	beforeAll(async () => {
		await ensureBuild()
		database = await createMigratedTestDatabase()
		server = await startSiteServer({
			buildDir: TEST_BUILD_DIR,
			dataDir: database.dataDir,
			env: { DATABASE_URL: database.databaseUrl, METRICS_TOKEN: TOKEN, LOG_LEVEL: 'info', TRUST_PROXY: 'loopback' },
		})
	}, 300_000)

	afterAll(async () => {
		await server?.stop()
		await database?.dispose()
	})

	it('gives every request an id: in the header and in its log line', async () => {
		const first = await fetch(`${server.origin}/events`)
		const second = await fetch(`${server.origin}/events`)
		const ids = [first.headers.get('x-request-id'), second.headers.get('x-request-id')]
		expect(ids[0]).toMatch(/^[\w-]{16}$/)
		expect(ids[1]).not.toBe(ids[0])
		// A trusted proxy's id is kept, so that one request can be followed through both logs.
		const proxied = await fetch(`${server.origin}/events`, { headers: { 'x-request-id': 'proxy-id-0001' } })
		expect(proxied.headers.get('x-request-id')).toBe('proxy-id-0001')
		// Something unfit for a log line is replaced.
		const odd = await fetch(`${server.origin}/events`, { headers: { 'x-request-id': 'a b' } })
		expect(odd.headers.get('x-request-id')).toMatch(/^[\w-]{16}$/)
		await new Promise((resolve) => setTimeout(resolve, 200))
		const lines = server
			.output()
			.split('\n')
			.filter((line) => line.startsWith('{'))
			.map((line) => JSON.parse(line) as { msg: string; reqId?: string })
		for (const id of [...ids, 'proxy-id-0001'])
			expect(
				lines.some((line) => line.msg === 'request' && line.reqId === id),
				id!,
			).toBe(true)
		expect(lines.filter((line) => line.msg === 'request').every((line) => line.reqId)).toBe(true)
	})

	it('shows the request id on the French 500 page, and logs the error with it', async () => {
		const site = new pg.Client({ connectionString: database.databaseUrl })
		await site.connect()
		try {
			await site.query('alter table event rename to event_away')
			// A page the lists' 5-second cache has not read yet (page 2), and a cookie: no cache answers for it.
			const response = await fetch(`${server.origin}/events?page=2`, { headers: { cookie: 'x=1' } })
			const html = await response.text()
			const id = response.headers.get('x-request-id')!
			expect(response.status).toBe(500)
			expect(html).toContain('lang="fr"')
			expect(html).toContain('Référence de l’erreur, à indiquer au groupe')
			expect(html).toContain(`data-request-id="${id}"`)
			expect(html).not.toMatch(/at .*\.js:\d+/) // no stack trace
			await new Promise((resolve) => setTimeout(resolve, 200))
			const errorLine = server
				.output()
				.split('\n')
				.filter((line) => line.startsWith('{'))
				.map((line) => JSON.parse(line) as { level: number; reqId?: string })
				.find((line) => line.level >= 50 && line.reqId === id)
			expect(errorLine).toBeDefined()
		} finally {
			await site.query('alter table event_away rename to event')
			await site.end()
		}
	})

	it.runIf(process.platform === 'linux')(
		'runs with glibc handing freed memory back and V8’s heap settings (server/memory-settings.ts), as the process it started as',
		async () => {
			// The process the harness spawned (same PID: execve) has the variable in its environment now.
			const environ = fs.readFileSync(`/proc/${server.pid}/environ`, 'latin1').split('\0')
			expect(environ).toContain('MALLOC_TRIM_THRESHOLD_=131072')
			// …and with V8's heap settings (the young generation's cap, the old generation's growth).
			const commandLine = fs.readFileSync(`/proc/${server.pid}/cmdline`, 'latin1').split('\0')
			expect(commandLine).toEqual(expect.arrayContaining(['--max-semi-space-size=8', '--heap-growing-percent=75']))
			expect((await fetch(`${server.origin}/healthz`)).status).toBe(200)
		},
	)

	it('answers liveness and readiness, and readiness fails cleanly while the database is away', async () => {
		const live = await fetch(`${server.origin}/healthz`)
		expect(live.status).toBe(200)
		// Anyone gets the status, nothing about the database behind it.
		expect(await live.json()).toEqual({ status: 'ok' })
		const ready = await fetch(`${server.origin}/readyz`)
		expect(ready.status).toBe(200)
		expect(await ready.json()).toEqual({ status: 'ready' })
		const wrong = await fetch(`${server.origin}/readyz`, { headers: { authorization: 'Bearer mauvais-jeton' } })
		expect(await wrong.json()).toEqual({ status: 'ready' })
		// The bearer of the metrics token gets the details.
		const liveDetail = await fetch(`${server.origin}/healthz`, { headers: bearer })
		expect(await liveDetail.json()).toMatchObject({
			status: 'ok',
			database: { kind: 'postgres', status: 'ok', latencyMs: expect.any(Number) },
		})
		const readyDetail = await fetch(`${server.origin}/readyz`, { headers: bearer })
		expect(await readyDetail.json()).toMatchObject({ status: 'ready', checks: { database: 'ok', jobs: 'ok', draining: false } })

		const name = new URL(database.databaseUrl!).pathname.slice(1)
		await admin(async (client) => {
			await client.query(`alter database "${name}" with allow_connections false`)
			await client.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name])
		})
		try {
			const away = await fetch(`${server.origin}/readyz`)
			expect(away.status).toBe(503)
			expect(await away.json()).toEqual({ status: 'not-ready' })
			const awayDetail = await fetch(`${server.origin}/readyz`, { headers: bearer })
			expect(awayDetail.status).toBe(503)
			expect(await awayDetail.json()).toMatchObject({ status: 'not-ready', checks: { database: 'unavailable' } })
		} finally {
			await admin((client) => client.query(`alter database "${name}" with allow_connections true`))
		}
		// Back by itself: the pool replaces the connections the server closed.
		let status = 0
		for (let i = 0; i < 50 && status !== 200; i++) {
			status = (await fetch(`${server.origin}/readyz`)).status
			if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 200))
		}
		expect(status).toBe(200)
	})

	it('serves Prometheus metrics to the bearer of the token only', async () => {
		expect((await fetch(`${server.origin}/metrics`)).status).toBe(401)
		expect((await fetch(`${server.origin}/metrics`, { headers: { authorization: 'Bearer mauvais-jeton' } })).status).toBe(401)
		// Same length as the token, or a prefix of it: refused alike.
		for (const given of [TOKEN.replace(/9$/, '8'), TOKEN.slice(0, 24), `${TOKEN}0`]) {
			expect((await fetch(`${server.origin}/metrics`, { headers: { authorization: `Bearer ${given}` } })).status).toBe(401)
		}
		await fetch(`${server.origin}/events`)
		await fetch(`${server.origin}/page-qui-n-existe-pas`)
		const response = await fetch(`${server.origin}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
		expect(response.status).toBe(200)
		expect(response.headers.get('content-type')).toContain('text/plain; version=0.0.4')
		const text = await response.text()
		expect(text).toMatch(/band_http_requests_total\{route="routes\/public\/events",method="GET",status="200"\} \d+/)
		expect(text).toMatch(/band_http_requests_total\{route="routes\/public\/events",method="GET",status="500"\} 1/)
		expect(text).toMatch(/band_http_request_duration_seconds_bucket\{le="\+Inf",route="routes\/public\/events"\} \d+/)
		expect(text).toMatch(/band_job_queue_jobs\{queue="mail\.send",state="queued"\} \d+/)
		expect(text).toMatch(/band_outbox_mails\{status="queued"\} \d+/)
		expect(text).toMatch(/band_mails_total\{result="sent"\} 0/)
		// Node's own figures come along (prom-client's default metrics), under the same prefix.
		expect(text).toMatch(/^band_process_resident_memory_bytes \d+$/m)
		expect(text).toMatch(/^band_process_uptime_seconds \d+$/m)
		expect(text).toMatch(/^# TYPE band_nodejs_eventloop_lag_seconds gauge$/m)
		// Every sample line is `name{labels} number`.
		for (const line of text.split('\n').filter((l) => l && !l.startsWith('#')))
			expect(line).toMatch(/^[a-z_][a-z0-9_]*(\{[^}]*\})? -?[\d.e+-]+$/)
	})
	it('while PostgreSQL is away under load, every request answers in French, and the same process serves again once it is back', async () => {
		const name = new URL(database.databaseUrl!).pathname.slice(1)
		// Pages the lists' cache has not read yet, with a cookie: each one asks the database.
		const burst = (from: number) =>
			Promise.all(
				Array.from({ length: 20 }, async (_, i) => {
					const response = await fetch(`${server.origin}/events?page=${from + i}`, { headers: { cookie: 'x=1' } })
					return { status: response.status, html: await response.text() }
				}),
			)
		await admin(async (client) => {
			await client.query(`alter database "${name}" with allow_connections false`)
			await client.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name])
		})
		try {
			for (const answer of await burst(100)) {
				expect(answer.status).toBeGreaterThanOrEqual(500)
				expect(answer.html).toContain('lang="fr"')
				expect(answer.html).toContain('Référence de l’erreur, à indiquer au groupe')
				expect(answer.html).not.toMatch(/at .*\.js:\d+/)
			}
		} finally {
			await admin((client) => client.query(`alter database "${name}" with allow_connections true`))
		}
		let answers: { status: number }[] = []
		for (let i = 0; i < 50; i++) {
			answers = await burst(200 + i * 20)
			if (answers.every((answer) => answer.status === 200)) break
			await new Promise((resolve) => setTimeout(resolve, 200))
		}
		expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200))
		expect(isRunning(server.pid)).toBe(true)
	})
})
