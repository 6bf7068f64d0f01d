import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getSessionUser } from '#app/features/accounts/session.server.ts'
import { account, outboxMail, session, user } from '#app/platform/db/schema.ts'
import * as claim from '#app/routes/auth/claim.tsx'
import * as signin from '#app/routes/auth/signin.tsx'
import * as settings from '#app/routes/dashboard/settings.tsx'
import * as settingsExport from '#app/routes/dashboard/settings-export.ts'
import { databaseKind } from '../support/database.ts'
import { signUpConfirmed } from '../support/members.ts'
import { startTestPlatform, type TestPlatform } from '../support/platform.ts'
import { cookieFrom, formPost, get, outcome, routeArgs, thrown, type Outcome } from '../support/requests.ts'

/*
 * The member's settings screen, part by part, through the real route module's loader and action
 * with the Request a browser would send, on real Better Auth and a real database. No SMTP relay is
 * configured: every mail the site sends stays queued in outbox_mail, where the tests read it.
 */
const PASSWORD = 'cheval agrafe pile correcte'
const NEW_PASSWORD = 'lanterne bleue sous la pluie'
const FIREFOX = 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0'

let env: TestPlatform
beforeAll(async () => {
	env = await startTestPlatform()
})
afterAll(async () => {
	await env?.stop()
})

const db = () => env.platform.database.db

interface Reply {
	status?: string
	initialValue?: Record<string, unknown> | null
	error?: Record<string, string[] | null> | null
}

interface Member {
	id: string
	email: string
	cookie: string
}

let counter = 0
/** A new member, signed up through the sign-up page; returns their id, address and session cookie. */
async function member(name = 'Nina Simone'): Promise<Member> {
	counter += 1
	const email = `membre${counter}-${randomUUID().slice(0, 8)}@exemple.fr`
	const cookie = await signUpConfirmed({ name, email, password: PASSWORD })
	const [row] = await db().select({ id: user.id }).from(user).where(eq(user.email, email))
	return { id: row!.id, email, cookie }
}

/** Another sign-in of the same member, as from another browser. */
async function signInAgain(email: string, userAgent?: string): Promise<string> {
	const request = formPost('/auth/signin', { email, password: PASSWORD })
	if (userAgent) request.headers.set('user-agent', userAgent)
	const result = await outcome(await signin.action(routeArgs(request, '/auth/signin')))
	expect(result.status).toBe(302)
	return cookieFrom(result.headers)
}

async function post(cookie: string, fields: Record<string, string>): Promise<Outcome> {
	const request = formPost('/dashboard/settings', fields, { cookie })
	return outcome(await settings.action(routeArgs(request, '/dashboard/settings')))
}

async function load(cookie: string, search = '') {
	const result = await settings.loader(routeArgs(get(`/dashboard/settings${search}`, { cookie }), '/dashboard/settings'))
	return result
}

/** The form's reply in an action's answer. */
function reply(result: Outcome): Reply {
	return (result.body as { result: Reply }).result
}

async function mailsTo(address: string) {
	return db().select().from(outboxMail).where(eq(outboxMail.toAddress, address))
}

async function signedIn(cookie: string) {
	return getSessionUser(get('/dashboard', { cookie }))
}

/** Moves the member's sessions back in time, as if they had signed in days ago (and stayed active). */
async function ageSessions(member: Member, days: number) {
	await db()
		.update(session)
		.set({ createdAt: new Date(Date.now() - days * 24 * 3600 * 1000) })
		.where(eq(session.userId, member.id))
}

/** Makes the member one who signed up through a provider: no password, one external method. */
async function withoutPassword(member: Member) {
	await db()
		.delete(account)
		.where(and(eq(account.userId, member.id), eq(account.providerId, 'credential')))
	await db()
		.insert(account)
		.values({ id: randomUUID(), accountId: `google-${member.id}`, providerId: 'google', userId: member.id })
}

describe(`member settings on ${databaseKind()}`, () => {
	it('needs a signed-in member, for the page, its forms and the export', async () => {
		const page = await thrown(() => settings.loader(routeArgs(get('/dashboard/settings'), '/dashboard/settings')))
		expect(page.status).toBe(302)
		expect(page.headers.get('location')).toBe('/auth/signin?redirectTo=%2Fdashboard%2Fsettings')
		const form = await thrown(async () =>
			settings.action(routeArgs(formPost('/dashboard/settings', { intent: 'profile', name: 'X' }), '/dashboard/settings')),
		)
		expect(form.status).toBe(302)
		const file = await thrown(() => settingsExport.loader(routeArgs(get('/dashboard/settings/export'), '/dashboard/settings/export')))
		expect(file.status).toBe(302)
	})

	describe('name and city', () => {
		it('saves the new name and city, and says so with a flash message', async () => {
			const m = await member()
			const result = await post(m.cookie, { intent: 'profile', name: '  Nina Waymon ', city: 'Tryon' })
			expect(result.status).toBe(302)
			expect(result.headers.get('location')).toBe('/dashboard/settings')
			expect(result.headers.getSetCookie().join('\n')).toMatch(/^flash=/m)
			const [row] = await db().select().from(user).where(eq(user.id, m.id))
			expect(row).toMatchObject({ name: 'Nina Waymon', city: 'Tryon' })

			// An emptied city is removed.
			await post(m.cookie, { intent: 'profile', name: 'Nina Waymon', city: '' })
			const [again] = await db().select().from(user).where(eq(user.id, m.id))
			expect(again!.city).toBeNull()
		})

		it('refuses an empty name in French, next to the field, and keeps what was typed', async () => {
			const m = await member()
			const result = await post(m.cookie, { intent: 'profile', name: '   ', city: 'Nantes' })
			expect(result.status).toBe(400)
			expect(reply(result).error?.name).toEqual(['Indiquez votre nom ou un pseudonyme.'])
			expect(reply(result).initialValue).toMatchObject({ city: 'Nantes' })
			const [row] = await db().select().from(user).where(eq(user.id, m.id))
			expect(row!.name).toBe('Nina Simone')
		})
	})

	describe('e-mail change', () => {
		it('mails a link to the new address, tells the old one, and changes it only once the link is followed', async () => {
			const m = await member()
			const newEmail = `nouvelle-${randomUUID().slice(0, 8)}@exemple.fr`
			const result = await post(m.cookie, { intent: 'email', newEmail, currentPassword: PASSWORD })
			expect(result.status).toBe(302)
			expect(result.headers.get('location')).toBe('/dashboard/settings?email=sent')

			// Nothing has changed yet.
			const [before] = await db().select().from(user).where(eq(user.id, m.id))
			expect(before!.email).toBe(m.email)

			const [link] = await mailsTo(newEmail)
			expect(link).toMatchObject({ kind: 'change-email', status: 'queued' })
			const notices = (await mailsTo(m.email)).filter((mail) => mail.kind === 'email-change-requested')
			expect(notices).toHaveLength(1)
			expect(notices[0]!.subject).toMatch(/^Changement d’adresse demandé/)
			expect(notices[0]!.text).toMatch(/n••••••@exemple\.fr/)
			expect(notices[0]!.text).not.toContain(newEmail)

			// The page says a link went to the new address.
			const page = await load(m.cookie, '?email=sent')
			expect(page.emailSent).toBe(true)

			// The member follows the link: the claim page acts on its POST, with the account's password.
			const token = /token=([A-Za-z0-9._-]+)/.exec(link!.text ?? '')?.[1]
			expect(token, 'a token in the mail').toBeTruthy()
			const claimRequest = formPost(
				`/auth/claim?${new URLSearchParams({ mode: 'verifyEmail', token: token! })}`,
				{ password: PASSWORD },
				{ cookie: m.cookie },
			)
			const claimed = await outcome(await claim.action(routeArgs(claimRequest, '/auth/claim')))
			expect(claimed.status).toBe(200)
			expect(claimed.body).toMatchObject({ state: 'done' })
			const [after] = await db().select().from(user).where(eq(user.id, m.id))
			expect(after!.email).toBe(newEmail)
		})

		it('refuses a wrong current password next to that field, and sends nothing', async () => {
			const m = await member()
			const newEmail = `autre-${randomUUID().slice(0, 8)}@exemple.fr`
			const result = await post(m.cookie, { intent: 'email', newEmail, currentPassword: 'pas le bon mot de passe' })
			expect(result.status).toBe(400)
			expect(reply(result).error?.currentPassword).toEqual(['Mot de passe incorrect.'])
			expect(reply(result).initialValue).toMatchObject({ newEmail })
			expect(reply(result).initialValue).not.toHaveProperty('currentPassword')
			expect(await mailsTo(newEmail)).toEqual([])
			expect((await mailsTo(m.email)).filter((mail) => mail.kind === 'email-change-requested')).toEqual([])
		})

		it('answers the same when the new address already has an account, and mails nothing there', async () => {
			const m = await member()
			const other = await member('Autre membre')
			const before = (await mailsTo(other.email)).length
			const result = await post(m.cookie, { intent: 'email', newEmail: other.email, currentPassword: PASSWORD })
			expect(result.status).toBe(302)
			expect(result.headers.get('location')).toBe('/dashboard/settings?email=sent')
			expect(await mailsTo(other.email)).toHaveLength(before)
			expect((await mailsTo(m.email)).filter((mail) => mail.kind === 'email-change-requested')).toHaveLength(1)
			const [row] = await db().select().from(user).where(eq(user.id, m.id))
			expect(row!.email).toBe(m.email)
		})

		it('refuses a malformed address or the current one in French', async () => {
			const m = await member()
			const bad = await post(m.cookie, { intent: 'email', newEmail: 'pas-une-adresse', currentPassword: PASSWORD })
			expect(bad.status).toBe(400)
			expect(reply(bad).error?.newEmail?.[0]).toMatch(/n’est pas valide/)
			const same = await post(m.cookie, { intent: 'email', newEmail: m.email.toUpperCase(), currentPassword: PASSWORD })
			expect(same.status).toBe(400)
			expect(reply(same).error?.newEmail).toEqual(['C’est déjà l’adresse de votre compte.'])
		})
	})

	describe('password', () => {
		it('refuses a wrong current password with a French message next to that field', async () => {
			const m = await member()
			const result = await post(m.cookie, {
				intent: 'change-password',
				currentPassword: 'pas le bon mot de passe',
				newPassword: NEW_PASSWORD,
				confirm: NEW_PASSWORD,
			})
			expect(result.status).toBe(400)
			expect(reply(result).error?.currentPassword).toEqual(['Mot de passe incorrect.'])
			expect(await signedIn(m.cookie)).not.toBeNull()
		})

		it('refuses a weak or mistyped new password in French', async () => {
			const m = await member()
			const weak = await post(m.cookie, {
				intent: 'change-password',
				currentPassword: PASSWORD,
				newPassword: 'azertyuiop123',
				confirm: 'azertyuiop123',
			})
			expect(weak.status).toBe(400)
			expect(reply(weak).error?.newPassword?.[0]).toMatch(/trop courant/)
			const short = await post(m.cookie, { intent: 'change-password', currentPassword: PASSWORD, newPassword: 'Zq8!xw', confirm: 'Zq8!xw' })
			expect(reply(short).error?.newPassword).toEqual(['Le mot de passe doit contenir au moins 12 caractères.'])
			const mismatch = await post(m.cookie, {
				intent: 'change-password',
				currentPassword: PASSWORD,
				newPassword: NEW_PASSWORD,
				confirm: `${NEW_PASSWORD}!`,
			})
			expect(reply(mismatch).error?.confirm).toEqual(['Les deux mots de passe ne sont pas identiques.'])
		})

		it('changes it, signs the other devices out, renews this session and sends a notice', async () => {
			const m = await member()
			const elsewhere = await signInAgain(m.email)
			expect(await signedIn(elsewhere)).not.toBeNull()

			const result = await post(m.cookie, {
				intent: 'change-password',
				currentPassword: PASSWORD,
				newPassword: NEW_PASSWORD,
				confirm: NEW_PASSWORD,
			})
			expect(result.status).toBe(302)
			expect(result.headers.get('location')).toBe('/dashboard/settings')
			const renewed = cookieFrom(result.headers)
			expect(renewed).toMatch(/session_token=/)

			expect(await signedIn(elsewhere), 'the other device is signed out').toBeNull()
			expect(await signedIn(m.cookie), 'the old session token is gone too').toBeNull()
			expect((await signedIn(renewed))?.id).toBe(m.id)

			const notices = (await mailsTo(m.email)).filter((mail) => mail.kind === 'password-changed')
			expect(notices).toHaveLength(1)
			expect(notices[0]!.subject).toMatch(/^Mot de passe modifié/)

			// The new password signs in.
			const request = formPost('/auth/signin', { email: m.email, password: NEW_PASSWORD })
			expect((await outcome(await signin.action(routeArgs(request, '/auth/signin')))).status).toBe(302)
		})

		it('lets a member without a password set one', async () => {
			const m = await member()
			await withoutPassword(m)
			const page = await load(m.cookie)
			expect(page.hasPassword).toBe(false)

			const result = await post(m.cookie, { intent: 'set-password', newPassword: NEW_PASSWORD, confirm: NEW_PASSWORD })
			expect(result.status).toBe(302)
			expect((await load(m.cookie)).hasPassword).toBe(true)
			const request = formPost('/auth/signin', { email: m.email, password: NEW_PASSWORD })
			expect((await outcome(await signin.action(routeArgs(request, '/auth/signin')))).status).toBe(302)
			expect((await mailsTo(m.email)).some((mail) => mail.kind === 'password-changed')).toBe(true)
		})
	})

	describe('sign-in methods', () => {
		it('lists the methods by name, and refuses to remove the last one', async () => {
			const m = await member()
			const page = await load(m.cookie)
			expect(page.methods).toHaveLength(1)
			expect(page.methods[0]).toMatchObject({ providerId: 'credential', name: 'E-mail et mot de passe' })

			const result = await post(m.cookie, { intent: 'unlink', methodId: page.methods[0]!.id })
			expect(result.status).toBe(400)
			expect(reply(result).error?.['']).toEqual([
				'Impossible de retirer votre dernière méthode de connexion : reliez-en une autre d’abord.',
			])
			expect(await db().select().from(account).where(eq(account.userId, m.id))).toHaveLength(1)
		})

		it('removes one of two methods, and never another member’s', async () => {
			const m = await member()
			await db()
				.insert(account)
				.values({ id: randomUUID(), accountId: `google-${m.id}`, providerId: 'google', userId: m.id })
			const stranger = await member('Quelqu’un d’autre')
			const [strangers] = await db().select().from(account).where(eq(account.userId, stranger.id))

			const foreign = await post(m.cookie, { intent: 'unlink', methodId: strangers!.id })
			expect(foreign.status).toBe(404)
			expect(await db().select().from(account).where(eq(account.userId, stranger.id))).toHaveLength(1)

			const page = await load(m.cookie)
			const google = page.methods.find((method) => method.providerId === 'google')!
			const result = await post(m.cookie, { intent: 'unlink', methodId: google.id })
			expect(result.status).toBe(302)
			const left = await db().select().from(account).where(eq(account.userId, m.id))
			expect(left.map((a) => a.providerId)).toEqual(['credential'])
		})

		it('asks a member signed in more than a day ago to sign in again before unlinking', async () => {
			const m = await member()
			await db()
				.insert(account)
				.values({ id: randomUUID(), accountId: `google-${m.id}`, providerId: 'google', userId: m.id })
			await ageSessions(m, 2)
			const google = (await load(m.cookie)).methods.find((method) => method.providerId === 'google')!
			const result = await post(m.cookie, { intent: 'unlink', methodId: google.id })
			expect(result.status).toBe(403)
			expect(reply(result).error?.['']?.[0]).toMatch(/^Par sécurité, cette opération demande une connexion récente/)
			expect(await db().select().from(account).where(eq(account.userId, m.id))).toHaveLength(2)
		})

		it('shows a French message after a link, or after a failed one', async () => {
			const m = await member()
			expect((await load(m.cookie, '?linked=1')).linkNotice).toEqual({
				type: 'success',
				message: 'C’est fait : ce service est relié à votre compte.',
			})
			expect((await load(m.cookie, '?error=access_denied')).linkNotice?.message).toMatch(/^Liaison annulée/)
			expect((await load(m.cookie, '?error=email_does_not_match')).linkNotice?.message).toMatch(/même adresse e-mail/)
			expect((await load(m.cookie, '?error=<script>')).linkNotice?.message).toMatch(/n’a pas abouti/)
		})
	})

	describe('active sessions', () => {
		it('lists this device first with its browser, and signs the others out', async () => {
			const m = await member()
			const firefox = await signInAgain(m.email, FIREFOX)
			const page = await load(m.cookie)
			expect(page.sessions).toHaveLength(2)
			expect(page.sessions[0]).toMatchObject({ current: true })
			expect(page.sessions[1]).toMatchObject({ current: false, device: 'Firefox sur Linux' })
			expect(page.sessions[1]!.ipAddress).toMatch(/^198\.18\./)

			const result = await post(m.cookie, { intent: 'revoke-others' })
			expect(result.status).toBe(302)
			expect(await signedIn(firefox)).toBeNull()
			expect((await signedIn(m.cookie))?.id).toBe(m.id)
			expect((await load(m.cookie)).sessions).toHaveLength(1)
		})
	})

	describe('data export', () => {
		it('downloads the profile, methods, sessions and mails as JSON, without any secret', async () => {
			const m = await member('Odetta Holmes')
			await post(m.cookie, { intent: 'profile', name: 'Odetta Holmes', city: 'Birmingham' })
			const response = await settingsExport.loader(
				routeArgs(get('/dashboard/settings/export', { cookie: m.cookie }), '/dashboard/settings/export'),
			)
			expect(response.status).toBe(200)
			expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
			expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="donnees-\d{4}-\d{2}-\d{2}\.json"$/)
			expect(response.headers.get('cache-control')).toBe('no-store')
			const text = await response.text()
			const exported = JSON.parse(text)

			expect(exported.exportedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/)
			expect(exported.note).toMatch(/données/)
			expect(exported.profile).toMatchObject({ id: m.id, name: 'Odetta Holmes', email: m.email, city: 'Birmingham' })
			expect(exported.profile).not.toHaveProperty('role')
			expect(exported.signInMethods).toEqual([expect.objectContaining({ provider: 'credential', name: 'E-mail et mot de passe' })])
			expect(exported.sessions).toHaveLength(1)
			expect(exported.sessions[0]).toMatchObject({ userAgent: 'vitest' })
			expect(exported.emails.map((mail: { kind: string }) => mail.kind)).toContain('verify-email')

			// No secret, not even the member's own: no password hash, no session or provider token.
			const [credential] = await db().select().from(account).where(eq(account.userId, m.id))
			expect(credential!.password).toBeTruthy()
			expect(text).not.toContain(credential!.password!)
			for (const row of await db().select({ token: session.token }).from(session).where(eq(session.userId, m.id))) {
				expect(text).not.toContain(row.token)
			}
			expect(text).not.toMatch(/"(password|token|accessToken|refreshToken|idToken)"\s*:/i)
		})

		it('holds only the signed-in member’s data', async () => {
			const a = await member('Membre A')
			const b = await member('Membre B')
			const response = await settingsExport.loader(
				routeArgs(get('/dashboard/settings/export', { cookie: a.cookie }), '/dashboard/settings/export'),
			)
			const text = await response.text()
			expect(text).toContain(a.email)
			expect(text).not.toContain(b.email)
			expect(text).not.toContain(b.id)
		})
	})

	describe('account deletion', () => {
		async function footprint(m: Member) {
			return {
				users: (await db().select().from(user).where(eq(user.id, m.id))).length,
				sessions: (await db().select().from(session).where(eq(session.userId, m.id))).length,
				accounts: (await db().select().from(account).where(eq(account.userId, m.id))).length,
				mails: (await mailsTo(m.email)).map((mail) => mail.kind).sort(),
			}
		}

		it('refuses a wrong confirmation word or a wrong password, and deletes nothing', async () => {
			const m = await member()
			const before = await footprint(m)
			expect(before).toMatchObject({ users: 1, sessions: 1, accounts: 1 })

			const word = await post(m.cookie, { intent: 'delete-account', confirmation: 'supprime', password: PASSWORD })
			expect(word.status).toBe(400)
			expect(reply(word).error?.confirmation).toEqual(['Saisissez SUPPRIMER, en majuscules, pour confirmer.'])
			expect(reply(word).initialValue).not.toHaveProperty('password')

			const password = await post(m.cookie, { intent: 'delete-account', confirmation: 'SUPPRIMER', password: 'pas le bon mot de passe' })
			expect(password.status).toBe(400)
			expect(reply(password).error?.password).toEqual(['Mot de passe incorrect.'])

			expect(await footprint(m)).toEqual(before)
			expect(await signedIn(m.cookie)).not.toBeNull()
		})

		it('deletes the account, its sessions, methods and mails, signs out and confirms by mail', async () => {
			const m = await member()
			await signInAgain(m.email)
			const bystander = await member('Témoin')
			const bystanderBefore = await footprint(bystander)
			expect((await footprint(m)).mails).toContain('verify-email')

			const result = await post(m.cookie, { intent: 'delete-account', confirmation: ' SUPPRIMER ', password: PASSWORD })
			expect(result.status).toBe(302)
			expect(result.headers.get('location')).toBe('/')
			const cookies = result.headers.getSetCookie().join('\n')
			expect(cookies).toMatch(/session_token=;[^\n]*Max-Age=0/i)
			expect(cookies).toMatch(/^flash=/m)

			expect(await footprint(m)).toEqual({ users: 0, sessions: 0, accounts: 0, mails: ['account-deleted'] })
			const [confirmation] = await mailsTo(m.email)
			expect(confirmation).toMatchObject({ kind: 'account-deleted', status: 'queued' })
			expect(confirmation!.subject).toMatch(/^Votre compte a été supprimé/)
			expect(await signedIn(m.cookie)).toBeNull()

			expect(await footprint(bystander), 'another member keeps everything').toEqual(bystanderBefore)
		})

		it('deletes an account without a password on the typed word alone, from a recent session', async () => {
			const m = await member()
			await withoutPassword(m)
			const result = await post(m.cookie, { intent: 'delete-account', confirmation: 'SUPPRIMER' })
			expect(result.status).toBe(302)
			expect(await footprint(m)).toEqual({ users: 0, sessions: 0, accounts: 0, mails: ['account-deleted'] })
		})

		it('asks a member without a password to sign in again when their session is old, and deletes nothing', async () => {
			const m = await member()
			await withoutPassword(m)
			await ageSessions(m, 2)
			const before = await footprint(m)
			const result = await post(m.cookie, { intent: 'delete-account', confirmation: 'SUPPRIMER' })
			expect(result.status).toBe(403)
			expect(reply(result).error?.['']?.[0]).toMatch(/connexion récente/)
			expect(await footprint(m)).toEqual(before)
		})
	})

	it('limits the changes per account, with a French message and Retry-After', async () => {
		const m = await member()
		for (let i = 0; i < 30; i++) {
			expect((await post(m.cookie, { intent: 'profile', name: `Nom ${i}` })).status).toBe(302)
		}
		const result = await post(m.cookie, { intent: 'profile', name: 'Encore' })
		expect(result.status).toBe(429)
		expect(result.headers.get('retry-after')).toMatch(/^\d+$/)
		expect(reply(result).error?.['']?.[0]).toMatch(/^Trop de tentatives\. Réessayez dans/)
		expect(reply(result).initialValue).toMatchObject({ name: 'Encore' })
		const [row] = await db().select().from(user).where(eq(user.id, m.id))
		expect(row!.name).toBe('Nom 29')
	})
})
