import { randomUUID } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getSessionProfile, getSessionUser, requireAdmin } from '#app/features/accounts/session.server.ts'
import { memberContents } from '#app/features/codes/contents.server.ts'
import { claimReservation, redeemForMember, reserveForVisitor } from '#app/features/codes/redeem.server.ts'
import { memberAvatar } from '#app/features/media/media.server.ts'
import { codeRedemption, media, session, user } from '#app/platform/db/schema.ts'
import { MEMBER_DATA, SESSION_TABLES } from '#app/platform/session-cache.server.ts'
import * as signin from '#app/routes/auth/signin.tsx'
import * as signout from '#app/routes/auth/signout.tsx'
import * as settings from '#app/routes/dashboard/settings.tsx'
import * as settingsAvatar from '#app/routes/dashboard/settings-avatar.ts'
import { campaignWithCodes } from '../support/codes.ts'
import { databaseKind } from '../support/database.ts'
import { signUpConfirmed } from '../support/members.ts'
import { startTestPlatform, type TestPlatform } from '../support/platform.ts'
import { cookieFrom, formPost, get, outcome, routeArgs, thrown } from '../support/requests.ts'

/*
 * Signed-in requests are answered from a few seconds' memory of the session
 * (app/platform/session-cache.server.ts). Whatever ends a session or changes what it shows must
 * still be seen on the very next request: these tests warm that memory first, then write, then
 * ask. No writer tells the memory anything: the database signals every change itself.
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

/**
 * Renames the member without the database's signal (triggers off for this transaction, as a
 * replication tool writes): only a fresh read of the database shows it.
 */
async function renameSilently(id: string, name: string) {
	await db().transaction(async (tx) => {
		await tx.execute(sql`set local session_replication_role = replica`)
		await tx.update(user).set({ name }).where(eq(user.id, id))
	})
}

/** A ready avatar of this member, as the image job leaves it. */
async function readyAvatar(userId: string, id = `avatar-${randomUUID()}`) {
	const variants = [{ format: 'jpeg' as const, width: 96, height: 96, key: `variants/${id}/96.jpg`, bytes: 1_000 }]
	await db()
		.insert(media)
		.values({ id, kind: 'avatar', status: 'ready', originalKey: `originals/${id}.png`, width: 96, height: 96, variants, createdBy: userId })
	return id
}

describe('the session memory', () => {
	it('answers the same cookie from memory, and never remembers a refused one', async () => {
		const m = await member('Odetta Holmes')
		expect((await signedIn(m.cookie))?.name).toBe('Odetta Holmes')
		await renameSilently(m.id, 'Odetta Gordon')
		// Remembered: a change the database did not signal is not seen yet (at most a few seconds).
		expect((await signedIn(m.cookie))?.name).toBe('Odetta Holmes')
		// A forged or unknown cookie is asked of Better Auth each time, and refused.
		expect(await signedIn('better-auth.session_token=inconnu.signature')).toBeNull()
		expect(await signedIn(m.cookie.replace(/session_token=[^.;]*/, 'session_token=autre'))).toBeNull()
	})

	it('forgets on the database’s signal, whoever wrote', async () => {
		const m = await member('Mavis Staples')
		expect((await signedIn(m.cookie))?.name).toBe('Mavis Staples')
		await renameSilently(m.id, 'Mavis Staples II')
		// What the database's triggers send once another instance's write to this member commits.
		await db().execute(sql`select pg_notify('band_member_change', ${JSON.stringify([m.id])})`)
		expect((await signedIn(m.cookie))?.name).toBe('Mavis Staples II')
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

/*
 * The memory's one rule: every statement that changes what a session shows is seen on the very next
 * request, whoever makes it and however it is written. The writes below go through no function of
 * the site: if a write path could change a member's name, role or photo without the memory seeing
 * it, one of these would see the old value.
 */
describe('every write to what a session shows', () => {
	const profileOf = (cookie: string) => getSessionProfile(get('/dashboard', { cookie }))

	it('has the database signal it: each table a session or a member’s remembered data is read from', async () => {
		const rows = (await db().execute(sql`
			select c.relname as "table", t.tgtype as "type", t.tgenabled as "enabled"
			from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_proc p on p.oid = t.tgfoid
			where p.proname in ('band_member_change', 'band_member_change_by_email') and not t.tgisinternal`)) as unknown as {
			rows: { table: string; type: number; enabled: string }[]
		}
		// pg_trigger's tgtype bits: INSERT 4, DELETE 8, UPDATE 16, TRUNCATE 32; enabled 'O' is « origin and local ».
		const events = (table: string) => {
			const bits = rows.rows.filter((row) => row.table === table && row.enabled === 'O').reduce((all, row) => all | row.type, 0)
			return (['insert', 'delete', 'update', 'truncate'] as const).filter((_, k) => bits & (4 << k))
		}
		// A new session or account has nothing remembered yet; every other change counts.
		for (const table of SESSION_TABLES) expect(events(table), table).toEqual(['delete', 'update', 'truncate'])
		for (const table of Object.values(MEMBER_DATA)) expect(events(table), table).toEqual(['insert', 'delete', 'update', 'truncate'])
	})

	it('shows a name, e-mail, role, city or photo changed by any statement on the very next request', async () => {
		const m = await member('Big Mama Thornton')
		expect((await profileOf(m.cookie))?.name).toBe('Big Mama Thornton')

		await db().update(user).set({ name: 'Willie Mae Thornton' }).where(eq(user.id, m.id))
		expect((await profileOf(m.cookie))?.name).toBe('Willie Mae Thornton')

		await db().execute(sql`update "user" set email = ${`autre-${m.email}`} where id = ${m.id}`)
		expect((await profileOf(m.cookie))?.email).toBe(`autre-${m.email}`)

		await db().execute(sql`update "user" set role = 'admin' where id = ${m.id}`)
		expect((await requireAdmin(get('/dashboard/admin', { cookie: m.cookie }))).id).toBe(m.id)
		await db().transaction(async (tx) => {
			await tx.execute(sql`update "user" set role = 'user' where id = ${m.id}`)
		})
		expect((await thrown(() => requireAdmin(get('/dashboard/admin', { cookie: m.cookie })))).status).toBe(403)

		await db().update(user).set({ city: 'Montgomery', image: 'https://images.example/willie.png' }).where(eq(user.id, m.id))
		expect(await profileOf(m.cookie)).toMatchObject({ city: 'Montgomery', image: 'https://images.example/willie.png' })

		// The photo the dashboard shows: remembered per member, beside the session.
		expect(await memberAvatar(db(), m.id)).toBeNull()
		const avatar = await readyAvatar(m.id)
		expect((await memberAvatar(db(), m.id))?.id).toBe(avatar)
		await db().execute(sql`update media set status = 'failed' where id = ${avatar}`)
		expect(await memberAvatar(db(), m.id)).toBeNull()
	})

	it('ends a session whose row is changed or removed by any statement, and every session of a removed account', async () => {
		const m = await member()
		const elsewhere = await signInAgain(m.email)
		expect((await signedIn(m.cookie))?.id).toBe(m.id)
		expect((await signedIn(elsewhere))?.id).toBe(m.id)
		const [mine] = await db().select({ id: session.id }).from(session).where(eq(session.userId, m.id)).limit(1)
		await db()
			.update(session)
			.set({ expiresAt: new Date(Date.now() - 1_000) })
			.where(eq(session.id, mine!.id))
		expect((await Promise.all([signedIn(m.cookie), signedIn(elsewhere)])).filter(Boolean)).toHaveLength(1)
		// The account goes, its sessions with it (ON DELETE CASCADE): a statement on `session` nobody wrote.
		await db().execute(sql`delete from "user" where id = ${m.id}`)
		expect(await signedIn(elsewhere)).toBeNull()
		expect(await signedIn(m.cookie)).toBeNull()
	})

	it('lists a content unlocked by a redemption written by any statement', async () => {
		const m = await member()
		const contents = () => memberContents(db(), env.platform.env, m.id)
		const { campaignId, codes } = await campaignWithCodes(db(), 1, { name: 'Démo « Minuit »' })
		expect(await contents()).toEqual([])
		await db()
			.insert(codeRedemption)
			.values({ id: randomUUID(), code: codes[0]!, campaignId, userId: m.id, status: 'granted', grantedAt: new Date() })
		expect((await contents()).map((c) => c.name)).toEqual(['Démo « Minuit »'])
		await db().delete(codeRedemption).where(eq(codeRedemption.userId, m.id))
		expect(await contents()).toEqual([])
	})

	it('removes the photo at once when the member removes it from the settings', async () => {
		const m = await member()
		const avatar = await readyAvatar(m.id)
		expect((await memberAvatar(db(), m.id))?.id).toBe(avatar)
		const removal = formPost('/dashboard/settings/avatar', { intent: 'remove' }, { cookie: m.cookie })
		expect((await outcome(await settingsAvatar.action(routeArgs(removal, '/dashboard/settings/avatar/:id?')))).status).toBe(302)
		expect(await memberAvatar(db(), m.id)).toBeNull()
	})

	// PGlite has one connection, the site's own: another process never writes to it.
	it.runIf(databaseKind() === 'postgres')(
		'sees a write made on another connection (another instance, a script, by hand) within the signal’s latency',
		async () => {
			const m = await member('Memphis Minnie')
			expect((await signedIn(m.cookie))?.name).toBe('Memphis Minnie')
			const other = new pg.Client({ connectionString: env.database.databaseUrl! })
			await other.connect()
			try {
				await other.query('update "user" set name = $1 where id = $2', ['Lizzie Douglas', m.id])
			} finally {
				await other.end()
			}
			await expect.poll(async () => (await signedIn(m.cookie))?.name, { timeout: 2_000, interval: 10 }).toBe('Lizzie Douglas')
		},
	)
})
