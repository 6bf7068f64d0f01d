import { randomUUID } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getSessionUser, requireAdmin } from '#app/features/accounts/session.server.ts'
import { memberContents } from '#app/features/codes/contents.server.ts'
import { claimReservation, redeemForMember, reserveForVisitor } from '#app/features/codes/redeem.server.ts'
import { user } from '#app/platform/db/schema.ts'
import * as signin from '#app/routes/auth/signin.tsx'
import * as signout from '#app/routes/auth/signout.tsx'
import * as settings from '#app/routes/dashboard/settings.tsx'
import { campaignWithCodes } from '../support/codes.ts'
import { signUpConfirmed } from '../support/members.ts'
import { startTestPlatform, type TestPlatform } from '../support/platform.ts'
import { cookieFrom, formPost, get, outcome, routeArgs, thrown } from '../support/requests.ts'

/*
 * Signed-in requests are answered from a few seconds' memory of the session
 * (app/platform/session-cache.server.ts). Whatever ends a session or changes its rights must still
 * be refused on the very next request: these tests warm that memory first, then revoke, then ask.
 */
const PASSWORD = 'cheval agrafe pile correcte'
const NEW_PASSWORD = 'lanterne bleue sous la pluie'
const ADMIN_EMAIL = 'cheffe@groupe.example'

let env: TestPlatform
beforeAll(async () => {
	env = await startTestPlatform({ adminEmails: [ADMIN_EMAIL] })
})
afterAll(async () => {
	await env?.stop()
})

const db = () => env.platform.database.db

/** Who this cookie signs in, as a page of the site sees it (a new Request each time, as the browser's next one). */
const signedIn = (cookie: string) => getSessionUser(get('/dashboard', { cookie }))

async function member(name = 'Nina Simone', email = `membre-${randomUUID().slice(0, 8)}@exemple.fr`) {
	const cookie = await signUpConfirmed({ name, email, password: PASSWORD })
	const [row] = await db().select({ id: user.id }).from(user).where(eq(user.email, email))
	return { id: row!.id, email, cookie }
}

async function signInAgain(email: string, password = PASSWORD): Promise<string> {
	const result = await outcome(await signin.action(routeArgs(formPost('/auth/signin', { email, password }), '/auth/signin')))
	expect(result.status).toBe(302)
	return cookieFrom(result.headers)
}

async function post(cookie: string, fields: Record<string, string>) {
	return outcome(await settings.action(routeArgs(formPost('/dashboard/settings', fields, { cookie }), '/dashboard/settings')))
}

/** Renames the member behind the site's back: only a fresh read of the database shows it. */
async function renameBehindTheBack(id: string, name: string) {
	await db().update(user).set({ name }).where(eq(user.id, id))
}

describe('the session memory', () => {
	it('answers the same cookie from memory, and never remembers a refused one', async () => {
		const m = await member('Odetta Holmes')
		expect((await signedIn(m.cookie))?.name).toBe('Odetta Holmes')
		await renameBehindTheBack(m.id, 'Odetta Gordon')
		// Remembered: the change made outside the site is not seen yet (at most a few seconds).
		expect((await signedIn(m.cookie))?.name).toBe('Odetta Holmes')
		// A forged or unknown cookie is asked of Better Auth each time, and refused.
		expect(await signedIn('better-auth.session_token=inconnu.signature')).toBeNull()
		expect(await signedIn(m.cookie.replace(/session_token=[^.;]*/, 'session_token=autre'))).toBeNull()
	})

	it('forgets on a signal from another instance (the realtime channel)', async () => {
		const m = await member('Mavis Staples')
		expect((await signedIn(m.cookie))?.name).toBe('Mavis Staples')
		await renameBehindTheBack(m.id, 'Mavis Staples II')
		// What another instance sends when it revokes a session of this member.
		const payload = JSON.stringify({ t: 'session-cache', d: { userId: m.id } })
		await db().execute(sql`select pg_notify('band_realtime', ${payload})`)
		await expect.poll(async () => (await signedIn(m.cookie))?.name, { timeout: 2_000 }).toBe('Mavis Staples II')
	})

	it('refuses a session signed out on the very next request', async () => {
		const m = await member()
		expect((await signedIn(m.cookie))?.id).toBe(m.id)
		const result = await outcome(await signout.action(routeArgs(formPost('/auth/signout', {}, { cookie: m.cookie }), '/auth/signout')))
		expect(result.status).toBe(302)
		expect(await signedIn(m.cookie)).toBeNull()
	})

	it('refuses the other sessions at once when the member signs them out from the settings', async () => {
		const m = await member()
		const elsewhere = await signInAgain(m.email)
		expect((await signedIn(elsewhere))?.id).toBe(m.id)
		expect((await post(m.cookie, { intent: 'revoke-others' })).status).toBe(302)
		expect(await signedIn(elsewhere)).toBeNull()
		expect((await signedIn(m.cookie))?.id).toBe(m.id)
	})

	it('refuses the other sessions at once after a password change', async () => {
		const m = await member()
		const elsewhere = await signInAgain(m.email)
		expect((await signedIn(elsewhere))?.id).toBe(m.id)
		const result = await post(m.cookie, {
			intent: 'change-password',
			currentPassword: PASSWORD,
			newPassword: NEW_PASSWORD,
			confirm: NEW_PASSWORD,
		})
		expect(result.status).toBe(302)
		expect(await signedIn(elsewhere)).toBeNull()
	})

	it('refuses the admin pages at once when the admin role is taken away', async () => {
		const chief = await member('Cheffe', ADMIN_EMAIL)
		const deputy = await member('Adjointe')
		const asChief = get('/', { cookie: chief.cookie }).headers
		await env.platform.auth.api.setRole({ body: { userId: deputy.id, role: 'admin' }, headers: asChief })
		expect((await requireAdmin(get('/dashboard/admin', { cookie: deputy.cookie }))).id).toBe(deputy.id)

		await env.platform.auth.api.setRole({ body: { userId: deputy.id, role: 'user' }, headers: asChief })
		const refused = await thrown(() => requireAdmin(get('/dashboard/admin', { cookie: deputy.cookie })))
		expect(refused.status).toBe(403)
	})

	it('refuses every session of a deleted account at once', async () => {
		const m = await member()
		const elsewhere = await signInAgain(m.email)
		expect((await signedIn(elsewhere))?.id).toBe(m.id)
		expect((await signedIn(m.cookie))?.id).toBe(m.id)
		const result = await post(m.cookie, { intent: 'delete-account', confirmation: 'SUPPRIMER', password: PASSWORD })
		expect(result.status).toBe(302)
		expect(await signedIn(elsewhere)).toBeNull()
		expect(await signedIn(m.cookie)).toBeNull()
	})

	it('shows a new name at once after the member edits their profile', async () => {
		const m = await member('Sister Rosetta')
		expect((await signedIn(m.cookie))?.name).toBe('Sister Rosetta')
		expect((await post(m.cookie, { intent: 'profile', name: 'Rosetta Tharpe' })).status).toBe(302)
		expect((await signedIn(m.cookie))?.name).toBe('Rosetta Tharpe')
	})

	it('lists a content unlocked by a code at once, redeemed signed in or claimed after signing in', async () => {
		const m = await member()
		const contents = () => memberContents(db(), env.platform.env, m.id)
		const { codes } = await campaignWithCodes(db(), 2)
		expect(await contents()).toEqual([])
		expect((await redeemForMember(db(), codes[0]!, m.id)).outcome).toBe('granted')
		expect(await contents()).toHaveLength(1)

		const { codes: others } = await campaignWithCodes(db(), 1, { name: 'Maxi « Aube »' })
		const reserved = await reserveForVisitor(db(), others[0]!)
		if (reserved.outcome !== 'reserved') throw new Error(reserved.outcome)
		expect((await claimReservation(db(), reserved.token, m.id)).outcome).toBe('granted')
		expect((await contents()).map((c) => c.name)).toContain('Maxi « Aube »')
	})
})
