import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPglite } from '#app/platform/db/client.server.ts'
import { siteSetting } from '#app/platform/db/schema.ts'
import { closePlatform, getPlatform } from '#app/platform/platform.server.ts'
import * as healthz from '#app/routes/api/healthz.ts'
import * as me from '#app/routes/api/me.ts'
import { databaseKind } from '../support/database.ts'
import { signUpConfirmed } from '../support/members.ts'
import { startTestPlatform, type TestPlatform } from '../support/platform.ts'
import { get, outcome, routeArgs, SITE_URL } from '../support/requests.ts'

/* The per-process platform: opened once, closed cleanly, and a restart keeps what it must keep. */
const kind = databaseKind()

let env: TestPlatform
const METRICS_TOKEN = 'jeton-de-metriques-assez-long-0123456789'
beforeAll(async () => {
	env = await startTestPlatform({ env: { METRICS_TOKEN } })
})
afterAll(async () => {
	await env?.stop()
})

async function health(headers: Record<string, string> = {}) {
	return outcome(await healthz.loader(routeArgs(new Request(`${SITE_URL}/healthz`, { headers }), '/healthz')))
}

describe(`the platform on ${kind}`, () => {
	it('is opened once per process', async () => {
		const [a, b] = await Promise.all([getPlatform(), getPlatform()])
		expect(a).toBe(b)
		expect(a).toBe(env.platform)
		expect(a.database.kind).toBe(kind)
	})

	it('answers the health check with its status to anyone, and the database kind to the bearer of the metrics token only', async () => {
		const result = await health()
		expect(result.status).toBe(200)
		expect(result.headers.get('cache-control')).toBe('no-store')
		expect(result.body).toEqual({ status: 'ok' })
		expect((await health({ authorization: 'Bearer mauvais-jeton' })).body).toEqual({ status: 'ok' })
		const detailed = await health({ authorization: `Bearer ${METRICS_TOKEN}` })
		expect(detailed.body).toMatchObject({ status: 'ok', database: { kind, status: 'ok', latencyMs: expect.any(Number) } })
	})

	it('generates the auth secret once and keeps it in the database', async () => {
		const rows = await env.platform.database.db.select().from(siteSetting).where(eq(siteSetting.key, 'auth_secret'))
		expect(rows).toHaveLength(1)
		expect(rows[0]!.value.length).toBeGreaterThanOrEqual(32)
	})

	it('keeps members signed in across a restart (same secret, same sessions)', async () => {
		const cookie = await signUpConfirmed({ name: 'Nina', email: 'nina@exemple.fr', password: 'cheval agrafe pile correcte' })
		const [secretBefore] = await env.platform.database.db.select().from(siteSetting).where(eq(siteSetting.key, 'auth_secret'))

		await closePlatform()
		if (kind === 'pglite') {
			// Closed means the data folder is free again: another opening succeeds at once.
			const other = await openPglite(env.database.dataDir)
			await other.close()
		}

		const reopened = await getPlatform()
		expect(reopened).not.toBe(env.platform)
		env.platform = reopened
		const [secretAfter] = await reopened.database.db.select().from(siteSetting).where(eq(siteSetting.key, 'auth_secret'))
		expect(secretAfter!.value).toBe(secretBefore!.value)
		const profile = await outcome(await me.loader(routeArgs(get('/api/me', { cookie }), '/api/me')))
		expect(profile.status).toBe(200)
		expect(profile.body).toMatchObject({ email: 'nina@exemple.fr' })
		expect((await health()).status).toBe(200)
	})
})
