import { and, eq, like } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type Database } from '#app/platform/db/client.server.ts'
import { rateLimit } from '#app/platform/db/schema.ts'
import { createRateLimits, RULES, type LimitResult } from '#app/platform/rate-limit.server.ts'
import { DEVICE_COOKIE } from '#app/features/accounts/device-cookie.server.ts'
import * as authApi from '#app/routes/api/auth.ts'
import * as signin from '#app/routes/auth/signin.tsx'
import { databaseKind } from '../support/database.ts'
import { signUpConfirmed } from '../support/members.ts'
import { startTestPlatform, type TestPlatform } from '../support/platform.ts'
import { formPost, jsonRequest, outcome, routeArgs, thrown } from '../support/requests.ts'

/*
 * The rate limits with real parts: the sign-in route's action called with the Request our server
 * would hand it (with its X-Client-Address), on real Better Auth; and the counters' store, shared
 * by every instance of the site through the database.
 */
const kind = databaseKind()
const PASSWORD = 'cheval agrafe pile correcte'
const ACCOUNT_LIMIT = RULES.signInByAccount.points

let env: TestPlatform
beforeAll(async () => {
	env = await startTestPlatform()
})
afterAll(async () => {
	await env?.stop()
})

interface SubmissionReply {
	error?: Record<string, string[] | null> | null
	initialValue?: Record<string, unknown> | null
}

async function member(name: string, email: string) {
	await signUpConfirmed({ name, email, password: PASSWORD })
}

/** A sign-in through the form, each from a new client address (X-Client-Address, as our server sets it). */
async function signIn(email: string, password: string, cookie?: string) {
	const request = formPost('/auth/signin', { email, password }, { cookie })
	return outcome(await signin.action(routeArgs(request, '/auth/signin')))
}

/** The device cookie a successful sign-in set (name=value, as the browser sends it back). */
function deviceCookieOf(headers: Headers): string {
	const set = headers.getSetCookie().find((cookie) => cookie.startsWith(`${DEVICE_COOKIE}=`))
	expect(set, 'a device cookie').toBeDefined()
	expect(set).toMatch(/HttpOnly/i)
	expect(set).toMatch(/Path=\/auth(;|$)/)
	return set!.split(';')[0]!
}

function formErrors(body: unknown) {
	return (body as SubmissionReply).error?.[''] ?? []
}

describe(`rate limits on ${kind}`, () => {
	describe('sign-in by account, through the /auth/signin form', () => {
		it(`refuses the ${ACCOUNT_LIMIT + 1}th attempt on one account with a 429 in French, even with the right password`, async () => {
			const email = 'cible@exemple.fr'
			await member('Cible', email)

			// Failures from as many addresses as there are attempts: only the account's counter fills up.
			for (let attempt = 1; attempt <= ACCOUNT_LIMIT; attempt++) {
				const result = await signIn(email, `mauvais mot de passe ${attempt}`)
				expect(result.status, `attempt ${attempt}`).toBe(400)
				expect(formErrors(result.body)).toEqual(['Adresse e-mail ou mot de passe incorrect.'])
			}

			const blocked = await signIn(email, PASSWORD)
			expect(blocked.status).toBe(429)
			// The account's window is 15 minutes: the message says how long to wait, in French.
			expect(formErrors(blocked.body)).toEqual(['Trop de tentatives. Réessayez dans 15 minutes.'])
			const retryAfter = Number(blocked.headers.get('retry-after'))
			expect(retryAfter).toBeGreaterThan(RULES.signInByAccount.durationSeconds - 60)
			expect(retryAfter).toBeLessThanOrEqual(RULES.signInByAccount.durationSeconds)
			expect(blocked.headers.getSetCookie()).toEqual([])
			// The route's `headers` passes the wait on to the browser's document response.
			const documentHeaders = signin.headers({
				parentHeaders: new Headers(),
				loaderHeaders: new Headers(),
				actionHeaders: blocked.headers,
				errorHeaders: undefined,
			} as Parameters<typeof signin.headers>[0])
			expect(new Headers(documentHeaders).get('retry-after')).toBe(String(retryAfter))
			expect((blocked.body as SubmissionReply).initialValue).toMatchObject({ email })
			expect((blocked.body as SubmissionReply).initialValue).not.toHaveProperty('password')

			// Another spelling of the same address is the same account.
			expect((await signIn(' CIBLE@Exemple.fr ', PASSWORD)).status).toBe(429)
			// Better Auth's own endpoint is no way around the form's limit, whatever the body's type:
			// it is not exposed at all (only the providers' callbacks are).
			const api = jsonRequest('POST', '/api/auth/sign-in/email', { email, password: PASSWORD })
			const viaJson = await thrown(() => authApi.action(routeArgs(api, '/api/auth/*', { '*': 'sign-in/email' })))
			expect(viaJson.status).toBe(404)
			const encoded = formPost('/api/auth/sign-in/email', { email, password: PASSWORD })
			const viaForm = await thrown(() => authApi.action(routeArgs(encoded, '/api/auth/*', { '*': 'sign-in/email' })))
			expect(viaForm.status).toBe(404)
			expect(viaForm.headers.getSetCookie()).toEqual([])

			// Other accounts are not affected.
			await member('Voisine', 'voisine@exemple.fr')
			expect((await signIn('voisine@exemple.fr', PASSWORD)).status).toBe(302)
		})

		it('starts the account’s count again after a successful sign-in', async () => {
			const email = 'distraite@exemple.fr'
			await member('Distraite', email)
			for (let attempt = 1; attempt < ACCOUNT_LIMIT; attempt++) {
				expect((await signIn(email, 'pas le bon mot de passe')).status, `attempt ${attempt}`).toBe(400)
			}
			// The last attempt the window allows succeeds, and clears the failures…
			expect((await signIn(email, PASSWORD)).status).toBe(302)
			const accountKey = like(rateLimit.key, `signInByAccount%${email}`)
			const [row] = await env.platform.database.db.select().from(rateLimit).where(accountKey)
			expect(row?.points ?? 0).toBe(0)
			// …so the next failure is one of a new allowance: without the reset it would be refused (429).
			expect((await signIn(email, 'pas le bon mot de passe')).status).toBe(400)
			const [after] = await env.platform.database.db.select().from(rateLimit).where(accountKey)
			expect(after?.points).toBe(1)
		})
	})

	describe('a device the account signed in from before', () => {
		it('still signs its owner in while strangers have locked the account, and nobody else', async () => {
			const email = 'proprietaire@exemple.fr'
			await member('Propriétaire', email)
			const signedIn = await signIn(email, PASSWORD)
			expect(signedIn.status).toBe(302)
			const device = deviceCookieOf(signedIn.headers)

			// Strangers, each from its own address, use up the account's allowance: it is locked for them.
			for (let attempt = 1; attempt <= ACCOUNT_LIMIT; attempt++) {
				expect((await signIn(email, `devinette ${attempt}`)).status, `attempt ${attempt}`).toBe(400)
			}
			expect((await signIn(email, PASSWORD)).status).toBe(429)

			// The owner's device, with its cookie and the right password: signed in, during the lockout.
			const owner = await signIn(email, PASSWORD, device)
			expect(owner.status).toBe(302)
			expect(owner.headers.getSetCookie().some((cookie) => cookie.includes('session_token='))).toBe(true)
			// The account stays locked for everyone else: no cookie, another account's, or a forged one.
			expect((await signIn(email, PASSWORD)).status).toBe(429)
			await member('Voisin', 'voisin@exemple.fr')
			const neighbour = deviceCookieOf((await signIn('voisin@exemple.fr', PASSWORD)).headers)
			expect((await signIn(email, PASSWORD, neighbour)).status).toBe(429)
			const forged = device.replace(/.(?=[^.]*$)/, (c) => (c === 'A' ? 'B' : 'A'))
			expect((await signIn(email, PASSWORD, forged)).status).toBe(429)

			// The device has its own allowance: guesses from it lock that device alone.
			for (let attempt = 1; attempt <= RULES.signInByDevice.points; attempt++) {
				expect((await signIn(email, `essai ${attempt}`, device)).status, `device attempt ${attempt}`).toBe(400)
			}
			expect((await signIn(email, PASSWORD, device)).status).toBe(429)
		})
	})

	describe('counters shared by every instance', () => {
		const opened: Database[] = []
		afterAll(async () => {
			for (const database of opened) await database.close()
		})

		it('gives exactly the allowed number of 20 parallel attempts made through two instances', async () => {
			let dbs
			if (kind === 'postgres') {
				// Two instances of the site: each its own pool of connections to the same database.
				for (let i = 0; i < 2; i++) {
					opened.push(await openDatabase({ databaseUrl: env.database.databaseUrl, dataDir: env.database.dataDir }))
				}
				dbs = opened.map((database) => database.db)
			} else {
				// An embedded database has one process; two limiters on it still share its table.
				dbs = [env.platform.database.db, env.platform.database.db]
			}
			const instances = dbs.map((db) => createRateLimits(db))
			const key = 'partagee@exemple.fr'
			const results: LimitResult[] = await Promise.all(
				Array.from({ length: 20 }, (_, i) => instances[i % 2]!.consume('signInByAccount', key)),
			)
			expect(results.filter((r) => r.ok)).toHaveLength(ACCOUNT_LIMIT)
			for (const refused of results.filter((r) => !r.ok)) {
				expect(refused.retryAfterSeconds).toBeGreaterThan(0)
				expect(refused.retryAfterSeconds).toBeLessThanOrEqual(RULES.signInByAccount.durationSeconds)
			}
			// One row holds the count, whichever instance wrote it.
			const rows = await dbs[0]!
				.select()
				.from(rateLimit)
				.where(and(like(rateLimit.key, 'signInByAccount%'), like(rateLimit.key, `%${key}`)))
			expect(rows).toHaveLength(1)
			expect(rows[0]!.points).toBe(20)

			// A reset through one instance is seen by the other.
			await instances[0]!.reset('signInByAccount', key)
			expect(await instances[1]!.consume('signInByAccount', key)).toEqual({ ok: true })
			expect(await dbs[1]!.select().from(rateLimit).where(eq(rateLimit.key, rows[0]!.key))).toMatchObject([{ points: 1 }])
		})
	})
})
