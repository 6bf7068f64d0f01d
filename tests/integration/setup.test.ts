import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { announceSetupLink, hasAdmin } from '#app/features/accounts/setup.server.ts'
import { outboxMail, siteSetting, user } from '#app/platform/db/schema.ts'
import * as claim from '#app/routes/auth/claim.tsx'
import * as dashboard from '#app/routes/dashboard/layout.tsx'
import { databaseKind } from '../support/database.ts'
import { signUpConfirmed } from '../support/members.ts'
import { startTestPlatform, type TestPlatform } from '../support/platform.ts'
import { cookieFrom, formPost, get, outcome, routeArgs } from '../support/requests.ts'

/*
 * First run: with no administrator, the server writes a one-time link to its log; the link creates
 * the first admin account (or promotes the signed-in one), and works once.
 */
let test: TestPlatform
const db = () => test.platform.database.db

beforeAll(async () => {
	// One address is also listed in ADMIN_EMAILS: it is an admin from the account's creation on.
	test = await startTestPlatform({ adminEmails: [LISTED] })
})
afterAll(async () => {
	await test?.stop()
})

function tokenOf(link: string) {
	return new URL(link).searchParams.get('token')!
}

const claimPath = (token: string) => `/auth/claim?mode=setup&token=${encodeURIComponent(token)}`
const password = 'les cordes de la basse'
const LISTED = 'regie-listee@example.com'

async function claimLoader(token: string, cookie?: string) {
	return outcome(await claim.loader(routeArgs(get(claimPath(token), { cookie }), '/auth/claim')))
}

async function claimAction(token: string, fields: Record<string, string>, cookie?: string) {
	return outcome(await claim.action(routeArgs(formPost(claimPath(token), fields, { cookie }), '/auth/claim')))
}

describe(`the first-admin set-up link on ${databaseKind()}`, () => {
	it('is written to the log while there is no admin, and a new one replaces the old at each start', async () => {
		expect(await hasAdmin(db())).toBe(false)
		const first = await announceSetupLink(test.platform)
		const second = await announceSetupLink(test.platform)
		expect(first).toMatch(/\/auth\/claim\?mode=setup&token=[A-Za-z0-9_-]{43}$/)
		expect(second).not.toBe(first)
		expect(((await claimLoader(tokenOf(first!))).body as { state: string }).state).toBe('invalid')
		expect(((await claimLoader(tokenOf(second!))).body as { state: string }).state).toBe('form')
		// Only a hash is stored: the token itself is nowhere in the database.
		const [row] = await db().select().from(siteSetting).where(eq(siteSetting.key, 'setup_token'))
		expect(row!.value).not.toContain(tokenOf(second!))
	})

	it('refuses a forged token and a weak password without creating anything', async () => {
		const link = await announceSetupLink(test.platform)
		const forged = tokenOf(link!).replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'))
		expect(((await claimLoader(forged)).body as { state: string }).state).toBe('invalid')
		const weak = await claimAction(tokenOf(link!), {
			name: 'Régie',
			email: 'regie@example.com',
			password: 'motdepasse123',
			confirm: 'motdepasse123',
		})
		expect(weak.status).toBe(400)
		expect(JSON.stringify(weak.body)).toContain('trop courant')
		expect(await db().select().from(user)).toHaveLength(0)
	})

	it('creates the first admin account, signs it in, and works only once', async () => {
		const link = await announceSetupLink(test.platform)
		const token = tokenOf(link!)
		const done = await claimAction(token, { name: 'Camille Régie', email: 'camille@example.com', password, confirm: password })
		expect(done.status).toBe(302)
		expect(done.headers.get('location')).toBe('/dashboard/admin')
		expect(cookieFrom(done.headers)).toContain('session_token=')
		const [admin] = await db().select().from(user).where(eq(user.email, 'camille@example.com'))
		expect(admin!.role).toBe('admin')
		expect(await hasAdmin(db())).toBe(true)
		// The link proved the address (docs/decisions/0007-first-admin-address.md): it is confirmed, no
		// « Confirmez votre adresse » mail goes out, and the dashboard shows no banner asking for it.
		expect(admin!.emailVerified).toBe(true)
		await new Promise((resolve) => setTimeout(resolve, 300))
		expect(await db().select().from(outboxMail).where(eq(outboxMail.toAddress, 'camille@example.com'))).toHaveLength(0)
		const shell = await outcome(
			await dashboard.loader(routeArgs(get('/dashboard/admin', { cookie: cookieFrom(done.headers) }), '/dashboard')),
		)
		expect((shell.body as { user: { emailVerified: boolean } }).user.emailVerified).toBe(true)

		const again = await claimAction(token, { name: 'Intrus', email: 'intrus@example.com', password, confirm: password })
		expect(again.status).toBe(400)
		expect((again.body as { state: string }).state).toBe('invalid')
		expect(await db().select().from(user).where(eq(user.email, 'intrus@example.com'))).toHaveLength(0)
		// With an admin, the next start prints nothing and clears any leftover token.
		expect(await announceSetupLink(test.platform)).toBeNull()
	})

	it('promotes the signed-in member when the site has no admin yet', async () => {
		await db().update(user).set({ role: 'user' })
		const cookie = await signUpConfirmed({ name: 'Sam', email: 'sam@example.com', password })
		const link = await announceSetupLink(test.platform)
		expect(((await claimLoader(tokenOf(link!), cookie)).body as { signedIn: boolean }).signedIn).toBe(true)
		const done = await claimAction(tokenOf(link!), {}, cookie)
		expect(done.status).toBe(302)
		const [sam] = await db().select().from(user).where(eq(user.email, 'sam@example.com'))
		expect(sam!.role).toBe('admin')
	})
	it('creates the first admin, signed in, when its address is also in ADMIN_EMAILS', async () => {
		await db().update(user).set({ role: 'user' })
		const link = await announceSetupLink(test.platform)
		const token = tokenOf(link!)
		const done = await claimAction(token, { name: 'Régie listée', email: LISTED, password, confirm: password })
		expect(done.status).toBe(302)
		expect(done.headers.get('location')).toBe('/dashboard/admin')
		expect(cookieFrom(done.headers)).toContain('session_token=')
		const [admin] = await db().select().from(user).where(eq(user.email, LISTED))
		expect(admin!.role).toBe('admin')
		// The link is spent: nobody else can use it.
		const again = await claimAction(token, { name: 'Intrus', email: 'intrus2@example.com', password, confirm: password })
		expect((again.body as { state: string }).state).toBe('invalid')
		expect(await db().select().from(user).where(eq(user.email, 'intrus2@example.com'))).toHaveLength(0)
	})
})
