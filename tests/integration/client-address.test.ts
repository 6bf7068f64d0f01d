import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RULES } from '#app/platform/rate-limit.server.ts'
import { createMigratedTestDatabase, databaseKind, type TestDatabase } from '../support/database.ts'
import { ensureBuild, TEST_BUILD_DIR, isRunning, startSiteServer, type SiteServer } from '../support/site-server.ts'

/*
 * Who the client is, through the real HTTP server (server/index.ts on a production build): the
 * per-address limits count the socket's address, and X-Forwarded-For is read only from a proxy
 * listed in TRUST_PROXY. A client that forges the header gets no fresh identity from it.
 */
const kind = databaseKind()
const LIMIT = RULES.resetByAddress.points

interface Site {
	server: SiteServer
	database: TestDatabase
}
let direct: Site
let proxied: Site

async function start(env: Record<string, string>): Promise<Site> {
	const database = await createMigratedTestDatabase()
	try {
		const server = await startSiteServer({
			buildDir: TEST_BUILD_DIR,
			dataDir: database.dataDir,
			env: { DATABASE_URL: database.databaseUrl, ...env },
		})
		return { server, database }
	} catch (error) {
		await database.dispose()
		throw error
	}
}

let emails = 0
/** « Mot de passe oublié » posted by a browser without JavaScript, with whatever X-Forwarded-For it likes. */
async function forgotPassword(site: Site, forwardedFor: string) {
	emails += 1
	const origin = site.server.origin
	const response = await fetch(`${origin}/auth/forgot-password`, {
		method: 'POST',
		headers: {
			origin,
			'content-type': 'application/x-www-form-urlencoded',
			'x-forwarded-for': forwardedFor,
		},
		// A different account each time: only the per-address limit can refuse.
		body: new URLSearchParams({ email: `oubli-${emails}@exemple.fr` }),
		redirect: 'manual',
	})
	return { status: response.status, retryAfter: response.headers.get('retry-after'), html: await response.text() }
}

const statuses = (results: { status: number }[]) => results.map((r) => r.status).sort()
const forged = (i: number) => `203.0.113.${i}`

// The HTTP path does not depend on the database, and a server on PostgreSQL starts in a fraction of
// the time an embedded one takes: this file runs once, in the PostgreSQL project. (The limits'
// store itself is tested on both databases in rate-limits.test.ts.)
describe.runIf(kind === 'postgres')(`the client address through the real HTTP server on ${kind}`, () => {
	beforeAll(async () => {
		await ensureBuild()
		const [a, b] = await Promise.allSettled([start({}), start({ TRUST_PROXY: '127.0.0.1' })])
		if (a.status === 'fulfilled') direct = a.value
		if (b.status === 'fulfilled') proxied = b.value
		if (a.status === 'rejected') throw a.reason
		if (b.status === 'rejected') throw b.reason
	}, 180_000)

	afterAll(async () => {
		const sites = [direct, proxied].filter(Boolean)
		await Promise.all(sites.map((site) => site.server.stop()))
		for (const site of sites) {
			// Stopped means gone: nothing of this test keeps running.
			expect(isRunning(site.server.pid), `server ${site.server.pid}`).toBe(false)
			await site.database.dispose()
		}
	})

	it('without TRUST_PROXY, ignores X-Forwarded-For: forged addresses all count as the one real client', async () => {
		const results = await Promise.all(Array.from({ length: LIMIT + 3 }, (_, i) => forgotPassword(direct, forged(i + 1))))
		expect(statuses(results)).toEqual([...Array(LIMIT).fill(200), 429, 429, 429])
		for (const refused of results.filter((r) => r.status === 429)) {
			expect(refused.html).toContain('Trop de tentatives. Réessayez dans 1 heure.')
			expect(Number(refused.retryAfter)).toBeGreaterThan(RULES.resetByAddress.durationSeconds - 60)
		}
		// And one more, from yet another forged address, is still refused.
		const again = await forgotPassword(direct, forged(200))
		expect(again.status).toBe(429)
	})

	it('behind a trusted proxy (TRUST_PROXY=127.0.0.1), counts each forwarded address on its own', async () => {
		const results = await Promise.all(Array.from({ length: LIMIT + 3 }, (_, i) => forgotPassword(proxied, forged(i + 1))))
		expect(statuses(results)).toEqual(Array(LIMIT + 3).fill(200))

		// One forwarded address still has its limit…
		const one = await Promise.all(Array.from({ length: LIMIT }, () => forgotPassword(proxied, '198.51.100.7')))
		expect(statuses(one)).toEqual(Array(LIMIT).fill(200))
		const over = await forgotPassword(proxied, '198.51.100.7')
		expect(over.status).toBe(429)
		// …and a client that prepends a forged hop is still counted by the hop the proxy added.
		expect((await forgotPassword(proxied, '192.0.2.1, 198.51.100.7')).status).toBe(429)
		expect((await forgotPassword(proxied, '198.51.100.8')).status).toBe(200)
	})
})
