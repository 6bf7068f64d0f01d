import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getSessionUser, requireAdmin, requireUser } from '#app/features/accounts/session.server.ts'
import { outboxMail, user } from '#app/platform/db/schema.ts'
import * as adminStats from '#app/routes/admin/stats.tsx'
import * as authApi from '#app/routes/api/auth.ts'
import * as me from '#app/routes/api/me.ts'
import * as claim from '#app/routes/auth/claim.tsx'
import * as forgotPassword from '#app/routes/auth/forgot-password.tsx'
import * as signin from '#app/routes/auth/signin.tsx'
import * as signout from '#app/routes/auth/signout.tsx'
import * as signup from '#app/routes/auth/signup.tsx'
import { SIGN_UP_RESPONSE_FLOOR_MS } from '#app/features/accounts/auth-actions.server.ts'
import { databaseKind } from '../support/database.ts'
import { confirmByLink, signUpConfirmed, verifyTokenFor } from '../support/members.ts'
import { startTestPlatform, type TestPlatform } from '../support/platform.ts'
import { cookieFrom, formPost, get, jsonRequest, outcome, routeArgs, thrown } from '../support/requests.ts'

/*
 * The account flows end to end on the server side: the real route modules' loaders and actions,
 * called with the Request a browser would send, on real Better Auth and a real database.
 */
const ADMIN_EMAIL = 'cheffe@groupe.example'
const PASSWORD = 'cheval agrafe pile correcte'

let env: TestPlatform
beforeAll(async () => {
	// The real sign-up floor and password hashing (tests/support/platform.ts lowers them elsewhere):
	// this file proves the floor and goes through every password flow at production cost.
	env = await startTestPlatform({
		adminEmails: [ADMIN_EMAIL],
		env: { TEST_SIGN_UP_FLOOR_MS: undefined, TEST_PASSWORD_HASH_COST: undefined },
	})
})
afterAll(async () => {
	await env?.stop()
})

const db = () => env.platform.database.db

interface SubmissionReply {
	status?: string
	initialValue?: Record<string, unknown> | null
	error?: Record<string, string[] | null> | null
}

async function signUp(fields: { name: string; email: string; password?: string; redirectTo?: string }) {
	const request = formPost('/auth/signup', {
		name: fields.name,
		email: fields.email,
		password: fields.password ?? PASSWORD,
		acceptPrivacy: 'on',
		...(fields.redirectTo ? { redirectTo: fields.redirectTo } : {}),
	})
	return outcome(await signup.action(routeArgs(request, '/auth/signup')))
}

/** Signs up a new member, confirms the address from the mail; returns the Cookie header their browser now sends. */
async function member(name: string, email: string): Promise<string> {
	return signUpConfirmed({ name, email, password: PASSWORD })
}

async function getMe(cookie?: string) {
	return outcome(await me.loader(routeArgs(get('/api/me', { cookie }), '/api/me')))
}

async function patchMe(body: unknown, cookie?: string, contentType?: string) {
	return outcome(await me.action(routeArgs(jsonRequest('PATCH', '/api/me', body, { cookie, contentType }), '/api/me')))
}

describe(`accounts on ${databaseKind()}`, () => {
	it('answers a bare /auth/claim (no mode, or an unknown one) with a page about these links, not a 404', async () => {
		for (const path of ['/auth/claim', '/auth/claim?mode=inconnu&token=abc']) {
			const page = await outcome(await claim.loader(routeArgs(get(path), '/auth/claim')))
			expect(page.status, path).toBe(200)
			expect(page.body).toMatchObject({ mode: null, signedIn: false, title: expect.stringContaining('Liens reçus par e-mail') })
		}
	})

	describe('sign-up', () => {
		it('creates the member without a session, and asks them to open the link of the mail', async () => {
			const result = await signUp({ name: 'Ada Lovelace', email: ' Ada@Exemple.FR ' })
			expect(result.status).toBe(302)
			expect(result.headers.get('location')).toBe('/auth/signin')
			const setCookie = result.headers.getSetCookie().join('\n')
			expect(setCookie).not.toMatch(/session_token=/)
			expect(setCookie).toMatch(/flash=/)

			const [row] = await db().select().from(user).where(eq(user.email, 'ada@exemple.fr'))
			expect(row).toMatchObject({ name: 'Ada Lovelace', email: 'ada@exemple.fr', role: 'user', emailVerified: false })
			await verifyTokenFor('ada@exemple.fr')
		})

		it('opens the account for whoever confirms the address with its password, and keeps where they were going', async () => {
			const result = await signUp({ name: 'Bea', email: 'bea@exemple.fr', redirectTo: '/dashboard/admin?tab=1' })
			expect(result.headers.get('location')).toBe('/auth/signin?redirectTo=%2Fdashboard%2Fadmin%3Ftab%3D1')
			const outside = await signUp({ name: 'Cal', email: 'cal@exemple.fr', redirectTo: '//evil.example/x' })
			expect(outside.headers.get('location')).toBe('/auth/signin?redirectTo=%2Fdashboard')

			const confirmed = await confirmByLink(await verifyTokenFor('bea@exemple.fr'), { password: PASSWORD })
			expect(confirmed.status).toBe(200)
			expect(confirmed.body).toMatchObject({ state: 'done', signedIn: true })
			const cookie = cookieFrom(confirmed.headers)
			expect((await getMe(cookie)).body).toMatchObject({ email: 'bea@exemple.fr', emailVerified: true })
		})

		it('answers a known address exactly as a new one: same status, page, cookies and time', async () => {
			await member('Déjà Là', 'deja@exemple.fr')
			const started = performance.now()
			const known = await signUp({ name: 'Autre', email: 'deja@exemple.fr' })
			const knownMs = performance.now() - started
			const again = performance.now()
			const fresh = await signUp({ name: 'Nouvelle', email: 'nouvelle-adresse@exemple.fr' })
			const freshMs = performance.now() - again
			const shape = (r: Awaited<ReturnType<typeof signUp>>) => ({
				status: r.status,
				location: r.headers.get('location'),
				cookies: r.headers.getSetCookie().map((c) => c.split('=')[0]),
			})
			expect(shape(known)).toEqual(shape(fresh))
			// Both wait for the same floor, whatever the work behind.
			expect(knownMs).toBeGreaterThanOrEqual(SIGN_UP_RESPONSE_FLOOR_MS - 5)
			expect(freshMs).toBeGreaterThanOrEqual(SIGN_UP_RESPONSE_FLOOR_MS - 5)
			// The known address's owner is told by mail; no second account.
			expect(await db().select().from(user).where(eq(user.email, 'deja@exemple.fr'))).toHaveLength(1)
		})

		it('refuses a password sign-in until the address is confirmed, in French, and sends the link again', async () => {
			await signUp({ name: 'Pressée', email: 'pressee@exemple.fr' })
			const mailsBefore = await db().select().from(outboxMail).where(eq(outboxMail.toAddress, 'pressee@exemple.fr'))
			const request = formPost('/auth/signin', { email: 'pressee@exemple.fr', password: PASSWORD })
			const result = await outcome(await signin.action(routeArgs(request, '/auth/signin')))
			expect(result.status).toBe(403)
			expect((result.body as SubmissionReply).error?.['']?.[0]).toMatch(/^Confirmez d’abord votre adresse e-mail/)
			expect(result.headers.getSetCookie()).toEqual([])
			const mailsAfter = await db().select().from(outboxMail).where(eq(outboxMail.toAddress, 'pressee@exemple.fr'))
			expect(mailsAfter.length).toBe(mailsBefore.length + 1)
		})

		it('refuses a too-short password with a French message next to the password field', async () => {
			const result = await signUp({ name: 'Dan', email: 'dan@exemple.fr', password: 'Zq8!xw' })
			expect(result.status).toBe(400)
			const reply = result.body as SubmissionReply
			expect(reply.error?.password).toEqual(['Le mot de passe doit contenir au moins 12 caractères.'])
			// The password is never sent back; what the visitor typed elsewhere is.
			expect(reply.initialValue).toMatchObject({ name: 'Dan', email: 'dan@exemple.fr' })
			expect(reply.initialValue).not.toHaveProperty('password')
			expect(result.headers.getSetCookie()).toEqual([])
			expect(await db().select().from(user).where(eq(user.email, 'dan@exemple.fr'))).toEqual([])
		})

		it('refuses a common password with a French message next to the password field', async () => {
			const result = await signUp({ name: 'Eve', email: 'eve@exemple.fr', password: 'azertyuiop123' })
			expect(result.status).toBe(400)
			expect((result.body as SubmissionReply).error?.password).toEqual([
				'Ce mot de passe est trop courant. Choisissez-en un autre, par exemple une phrase de quelques mots.',
			])
			expect(await db().select().from(user).where(eq(user.email, 'eve@exemple.fr'))).toEqual([])
		})

		it('refuses a NUL byte or a bidi override in the name next to the field, and keeps what was typed', async () => {
			for (const name of ['Zoé\u0000', 'Zoé\u202egnp.exe']) {
				const result = await signUp({ name, email: 'zoe@exemple.fr' })
				expect(result.status).toBe(400)
				const reply = result.body as SubmissionReply
				expect(reply.error?.name?.[0]).toMatch(/caractères invisibles ou de contrôle/)
				expect(reply.initialValue).toMatchObject({ email: 'zoe@exemple.fr' })
			}
			expect(await db().select().from(user).where(eq(user.email, 'zoe@exemple.fr'))).toEqual([])
		})

		it('refuses a form without the privacy consent or with a bad address, in French', async () => {
			const request = formPost('/auth/signup', { name: 'Fay', email: 'pas-une-adresse', password: PASSWORD })
			const result = await outcome(await signup.action(routeArgs(request, '/auth/signup')))
			expect(result.status).toBe(400)
			const reply = result.body as SubmissionReply
			expect(reply.error?.email?.[0]).toMatch(/adresse e-mail n’est pas valide/)
			expect(reply.error?.acceptPrivacy?.[0]).toMatch(/politique de confidentialité/)
		})
	})

	describe('account pre-hijacking: whoever proves the address owns the account', () => {
		const SQUATTER_PASSWORD = 'pirate tenace du dimanche'
		const OWNER_PASSWORD = 'violoncelle brume 1994 phare'

		it('gives the squatter of an address no session, and the owner the account without the squatter’s password', async () => {
			const email = 'victime@exemple.fr'
			// Someone signs up with another person's address and a password of their own.
			const squat = await signUp({ name: 'Mallory', email, password: SQUATTER_PASSWORD })
			expect(squat.headers.getSetCookie().join('\n')).not.toMatch(/session_token=/)
			const squatterSignIn = await outcome(
				await signin.action(routeArgs(formPost('/auth/signin', { email, password: SQUATTER_PASSWORD }), '/auth/signin')),
			)
			expect(squatterSignIn.status).toBe(403)
			expect(squatterSignIn.headers.getSetCookie().join('\n')).not.toMatch(/session_token=/)

			// The owner opens the link of the mail: without the squatter's password it confirms nothing…
			const token = await verifyTokenFor(email)
			const page = await outcome(await claim.loader(routeArgs(get(`/auth/claim?mode=verifyEmail&token=${token}`), '/auth/claim')))
			expect(page.body).toMatchObject({ state: 'confirm', needsPassword: true })
			const refused = await confirmByLink(token, { password: OWNER_PASSWORD })
			expect(refused.status).toBe(400)
			expect((refused.body as { result: SubmissionReply }).result.error?.['']).toEqual([
				'Mot de passe incorrect. C’est celui choisi à l’inscription.',
			])
			const [still] = await db().select().from(user).where(eq(user.email, email))
			expect(still!.emailVerified).toBe(false)

			// …so they choose their own password from the mailbox (« Mot de passe oublié »)…
			await forgotPassword.action(routeArgs(formPost('/auth/forgot-password', { email }), '/auth/forgot-password'))
			const [reset] = await db()
				.select()
				.from(outboxMail)
				.where(and(eq(outboxMail.toAddress, email), eq(outboxMail.kind, 'reset-password')))
			const resetToken = /token=([A-Za-z0-9._-]+)/.exec(reset!.text ?? '')![1]!
			const resetUrl = `/auth/claim?mode=resetPassword&token=${resetToken}`
			const changed = await outcome(
				await claim.action(routeArgs(formPost(resetUrl, { password: OWNER_PASSWORD, confirm: OWNER_PASSWORD }), '/auth/claim')),
			)
			expect(changed.status).toBe(302)

			// …and confirm the address with it (the sign-in sends a fresh link).
			const signInFirst = await outcome(
				await signin.action(routeArgs(formPost('/auth/signin', { email, password: OWNER_PASSWORD }), '/auth/signin')),
			)
			expect(signInFirst.status).toBe(403)
			const confirmed = await confirmByLink(await verifyTokenFor(email), { password: OWNER_PASSWORD })
			expect(confirmed.status).toBe(200)
			const cookie = cookieFrom(confirmed.headers)
			expect((await getMe(cookie)).body).toMatchObject({ email, emailVerified: true })

			// The squatter's password opens nothing any more.
			const late = await outcome(
				await signin.action(routeArgs(formPost('/auth/signin', { email, password: SQUATTER_PASSWORD }), '/auth/signin')),
			)
			expect(late.status).toBe(400)
			expect(late.headers.getSetCookie().join('\n')).not.toMatch(/session_token=/)
		})

		it('confirms nothing on the form’s validation round trip (typing in the field), only on its submit', async () => {
			await signUp({ name: 'Val', email: 'val@exemple.fr' })
			const token = await verifyTokenFor('val@exemple.fr')
			const typing = await confirmByLink(token, {
				password: PASSWORD,
				__intent__: JSON.stringify({ type: 'validate', payload: { name: 'password' } }),
			})
			expect(typing.status).toBe(400)
			expect(typing.headers.getSetCookie().join('\n')).not.toMatch(/session_token=/)
			const [row] = await db().select().from(user).where(eq(user.email, 'val@exemple.fr'))
			expect(row!.emailVerified).toBe(false)
			expect((await confirmByLink(token, { password: PASSWORD })).status).toBe(200)
		})

		it('ends every session opened before the proof: only the verifier’s new session remains', async () => {
			const email = 'sessions@exemple.fr'
			const first = await member('Sam Sessions', email)
			const other = cookieFrom(
				(await outcome(await signin.action(routeArgs(formPost('/auth/signin', { email, password: PASSWORD }), '/auth/signin')))).headers,
			)
			expect((await getMe(other)).status).toBe(200)
			// A new address for this account, confirmed from its link.
			const newEmail = 'sessions-nouvelle@exemple.fr'
			const [row] = await db().select().from(user).where(eq(user.email, email))
			await env.platform.auth.api.changeEmail({ body: { newEmail }, headers: get('/', { cookie: first }).headers })
			const [mail] = await db()
				.select()
				.from(outboxMail)
				.where(and(eq(outboxMail.toAddress, newEmail), eq(outboxMail.kind, 'change-email')))
			const token = /token=([A-Za-z0-9._-]+)/.exec(mail!.text ?? '')![1]!
			const confirmed = await confirmByLink(token, { password: PASSWORD }, first)
			expect(confirmed.status).toBe(200)
			const fresh = cookieFrom(confirmed.headers)
			expect((await getMe(fresh)).body).toMatchObject({ id: row!.id, email: newEmail })
			expect((await getMe(first)).status).toBe(401)
			expect((await getMe(other)).status).toBe(401)
		})

		it('never lets the owner of an ADMIN_EMAILS address promote an account they did not open', async () => {
			// A member moves their account to the admin's address; the admin, who reads that mailbox,
			// follows the link (not knowing this account's password): nothing happens.
			const cookie = await member('Intrus', 'intrus@exemple.fr')
			await env.platform.auth.api.changeEmail({ body: { newEmail: ADMIN_EMAIL }, headers: get('/', { cookie }).headers })
			const [mail] = await db()
				.select()
				.from(outboxMail)
				.where(and(eq(outboxMail.toAddress, ADMIN_EMAIL), eq(outboxMail.kind, 'change-email')))
			const token = /token=([A-Za-z0-9._-]+)/.exec(mail!.text ?? '')![1]!
			const refused = await confirmByLink(token, { password: 'un mot de passe au hasard' })
			expect(refused.status).toBe(400)
			const withoutPassword = await confirmByLink(token, {})
			expect(withoutPassword.status).toBe(400)
			expect((await getMe(cookie)).body).toMatchObject({ email: 'intrus@exemple.fr', role: 'user' })
			expect(await db().select().from(user).where(eq(user.email, ADMIN_EMAIL))).toEqual([])
		})
	})

	describe('Better Auth’s own endpoints are no second door', () => {
		it.each([
			['POST', 'sign-up/email', { name: 'x'.repeat(60_000), email: 'api@exemple.fr', password: 'azertyuiop123' }],
			['POST', 'sign-in/email', { email: 'grace@exemple.fr', password: PASSWORD }],
			['POST', 'request-password-reset', { email: 'grace@exemple.fr' }],
			['POST', 'delete-user', {}],
			['POST', 'change-email', { newEmail: 'ailleurs@exemple.fr' }],
			['POST', 'change-password', { currentPassword: PASSWORD, newPassword: 'azertyuiop123' }],
			['POST', 'update-user', { name: `Grace\u0000\u202e${'x'.repeat(30_000)}`, image: 'https://evil.example/x.png' }],
			['POST', 'send-verification-email', { email: 'grace@exemple.fr' }],
			['GET', 'get-session', null],
			['GET', 'list-sessions', null],
		])('%s /api/auth/%s answers 404, changes nothing and opens no session', async (method, path, body) => {
			const cookie = await member(`Porte ${path}`, `porte-${path.replace(/\W/g, '-')}@exemple.fr`)
			const before = await getMe(cookie)
			const request = method === 'GET' ? get(`/api/auth/${path}`, { cookie }) : jsonRequest(method, `/api/auth/${path}`, body, { cookie })
			const run = method === 'GET' ? authApi.loader : authApi.action
			const result = await thrown(() => run(routeArgs(request, '/api/auth/*', { '*': path })))
			expect(result.status).toBe(404)
			expect(result.headers.getSetCookie()).toEqual([])
			expect((await getMe(cookie)).body).toEqual(before.body)
			expect(await db().select().from(user).where(eq(user.email, 'api@exemple.fr'))).toEqual([])
		})

		it('still lets a provider come back to /api/auth/callback/:id', async () => {
			// No provider is configured here: Better Auth itself answers (a redirect to the sign-in page), not our 404.
			const result = await outcome(await authApi.loader(routeArgs(get('/api/auth/callback/oidc?state=x&code=y'), '/api/auth/*')))
			expect(result.status).not.toBe(404)
		})
	})

	describe('GET and PATCH /api/me', () => {
		let cookie: string
		beforeAll(async () => {
			cookie = await member('Grace Hopper', 'grace@exemple.fr')
		})

		it('answers the signed-in member’s profile, never cached', async () => {
			const result = await getMe(cookie)
			expect(result.status).toBe(200)
			expect(result.headers.get('cache-control')).toBe('private, no-store')
			expect(result.body).toMatchObject({
				name: 'Grace Hopper',
				email: 'grace@exemple.fr',
				role: 'user',
				city: null,
				emailVerified: true,
			})
			expect((result.body as { id: string }).id).toEqual(expect.any(String))
		})

		it('updates name and city and answers { data: profile }', async () => {
			const result = await patchMe({ values: { name: 'Grace B. Hopper', city: 'Arlington' } }, cookie)
			expect(result.status).toBe(200)
			expect(result.body).toMatchObject({ data: { name: 'Grace B. Hopper', city: 'Arlington', email: 'grace@exemple.fr' } })
			expect((await getMe(cookie)).body).toMatchObject({ name: 'Grace B. Hopper', city: 'Arlington' })
		})

		it('clears a field listed in valuesToClear', async () => {
			const result = await patchMe({ valuesToClear: ['city'] }, cookie)
			expect(result.status).toBe(200)
			expect(result.body).toMatchObject({ data: { city: null } })
		})

		it.each([
			['role', { values: { role: 'admin' } }],
			['id', { values: { id: 'someone-else' } }],
			['email', { values: { email: 'other@exemple.fr' } }],
			['nickname', { values: { nickname: 'x' } }],
			['isAdmin', { values: { name: 'x' }, isAdmin: true }],
		])('refuses %s with a 400 that names the field, and changes nothing', async (field, body) => {
			const before = await getMe(cookie)
			const result = await patchMe(body, cookie)
			expect(result.status).toBe(400)
			expect(result.body).toMatchObject({ field })
			expect((result.body as { error: string }).error).toContain(field)
			expect((await getMe(cookie)).body).toEqual(before.body)
		})

		it.each([
			['a NUL byte', 'Grace\u0000'],
			['a bidi override', 'ecarG\u202e'],
			['an escape sequence', '\u001b[31mGrace'],
		])('refuses a name with %s with a 400 in French, and stores nothing', async (_, name) => {
			const before = await getMe(cookie)
			const result = await patchMe({ values: { name } }, cookie)
			expect(result.status).toBe(400)
			expect(result.body).toMatchObject({ field: 'name' })
			expect((result.body as { error: string }).error).toContain('caractères invisibles ou de contrôle')
			expect((await getMe(cookie)).body).toEqual(before.body)
		})

		it('answers 400 to malformed JSON', async () => {
			const result = await patchMe('{"values": {"name": ', cookie)
			expect(result.status).toBe(400)
			expect(result.body).toEqual({ error: 'JSON invalide.' })
		})

		it('answers 415 to a body that is not JSON', async () => {
			const result = await patchMe('name=x', cookie, 'application/x-www-form-urlencoded')
			expect(result.status).toBe(415)
		})

		it('answers 401 when signed out, or with a forged cookie', async () => {
			expect((await getMe()).status).toBe(401)
			expect((await patchMe({ values: { name: 'x' } })).status).toBe(401)
			const forged = cookie.replace(/session_token=[^;]+/, 'session_token=forged.value')
			expect(forged).not.toBe(cookie)
			expect((await getMe(forged)).status).toBe(401)
			expect((await getMe(forged)).body).toEqual({ error: 'Connexion requise.' })
		})
	})

	describe('sign-in and sign-out', () => {
		beforeAll(async () => {
			await member('Hedy Lamarr', 'hedy@exemple.fr')
		})

		async function signIn(email: string, password: string, redirectTo?: string) {
			const request = formPost('/auth/signin', { email, password, ...(redirectTo ? { redirectTo } : {}) })
			return outcome(await signin.action(routeArgs(request, '/auth/signin')))
		}

		it('refuses a wrong password in French, keeps the e-mail and drops the password', async () => {
			const result = await signIn('hedy@exemple.fr', 'pas le bon mot de passe')
			expect(result.status).toBe(400)
			const reply = result.body as SubmissionReply
			expect(reply.error?.['']).toEqual(['Adresse e-mail ou mot de passe incorrect.'])
			expect(reply.initialValue).toMatchObject({ email: 'hedy@exemple.fr' })
			expect(reply.initialValue).not.toHaveProperty('password')
			expect(result.headers.getSetCookie()).toEqual([])
		})

		it('says exactly the same for an address without an account', async () => {
			const result = await signIn('personne@exemple.fr', PASSWORD)
			expect(result.status).toBe(400)
			expect((result.body as SubmissionReply).error?.['']).toEqual(['Adresse e-mail ou mot de passe incorrect.'])
		})

		it('signs in with the right password, and the cookie then opens the member’s pages', async () => {
			const result = await signIn('HEDY@exemple.fr', PASSWORD, '/dashboard?welcome=1')
			expect(result.status).toBe(302)
			expect(result.headers.get('location')).toBe('/dashboard?welcome=1')
			const cookie = cookieFrom(result.headers)
			expect(await requireUser(get('/dashboard', { cookie }))).toMatchObject({ email: 'hedy@exemple.fr', role: 'user' })

			// A signed-in member who opens the sign-in page again goes on to the dashboard.
			const again = await thrown(() => signin.loader(routeArgs(get('/auth/signin', { cookie }), '/auth/signin')))
			expect(again.status).toBe(302)
			expect(again.headers.get('location')).toBe('/dashboard')
		})

		it('signs out: the session is revoked, not only the cookie dropped', async () => {
			const signedIn = await signIn('hedy@exemple.fr', PASSWORD)
			const cookie = cookieFrom(signedIn.headers)
			expect((await getMe(cookie)).status).toBe(200)

			const request = formPost('/auth/signout', {}, { cookie })
			const result = await outcome(await signout.action(routeArgs(request, '/auth/signout')))
			expect(result.status).toBe(302)
			expect(result.headers.get('location')).toBe('/')
			expect(result.headers.getSetCookie().join('\n')).toMatch(/session_token=;|session_token=.*Max-Age=0/i)
			// What this browser kept for the session goes too (the stage views' copies and their worker).
			expect(result.headers.get('clear-site-data')).toBe('"storage"')
			// The old cookie, replayed, no longer works.
			expect((await getMe(cookie)).status).toBe(401)
		})
	})

	describe('roles', () => {
		it('sends a signed-out visitor of an admin page to sign in, coming back afterwards', async () => {
			const result = await thrown(() => requireAdmin(get('/dashboard/admin?tab=codes')))
			expect(result.status).toBe(302)
			const location = new URL(result.headers.get('location')!, 'http://x')
			expect(location.pathname).toBe('/auth/signin')
			expect(location.searchParams.get('redirectTo')).toBe('/dashboard/admin?tab=codes')
		})

		it('answers a member with a 403 and no data', async () => {
			const cookie = await member('Ida', 'ida@exemple.fr')
			const guard = await thrown(() => requireAdmin(get('/dashboard/admin', { cookie })))
			expect(guard.status).toBe(403)
			const page = await thrown(() => adminStats.loader(routeArgs(get('/dashboard/admin/stats', { cookie }), '/dashboard/admin/stats')))
			expect(page.status).toBe(403)
			expect(JSON.stringify(page.body)).not.toContain('@')
		})

		it('makes an address listed in ADMIN_EMAILS an admin once it is verified, in the verifier’s new session only', async () => {
			const result = await signUp({ name: 'La Cheffe', email: ADMIN_EMAIL.toUpperCase() })
			// Anyone can type an address: no session, and no role, before the proof that the address is theirs.
			expect(result.headers.getSetCookie().join('\n')).not.toMatch(/session_token=/)
			const [before] = await db().select().from(user).where(eq(user.email, ADMIN_EMAIL))
			expect(before).toMatchObject({ role: 'user', emailVerified: false })

			// Better Auth's own verification endpoint is no way around the page: not exposed.
			const token = await verifyTokenFor(ADMIN_EMAIL)
			const verify = get(`/api/auth/verify-email?${new URLSearchParams({ token })}`)
			expect((await thrown(() => authApi.loader(routeArgs(verify, '/api/auth/*', { '*': 'verify-email' })))).status).toBe(404)

			const confirmed = await confirmByLink(token, { password: PASSWORD })
			expect(confirmed.status).toBe(200)
			const cookie = cookieFrom(confirmed.headers)
			expect((await getMe(cookie)).body).toMatchObject({ email: ADMIN_EMAIL, role: 'admin', emailVerified: true })
			expect(await requireAdmin(get('/dashboard/admin', { cookie }))).toMatchObject({ role: 'admin' })
			const page = await outcome(await adminStats.loader(routeArgs(get('/dashboard/admin/stats', { cookie }), '/dashboard/admin/stats')))
			expect(page.status).toBe(200)
			const members = (page.body as { results: { id: string; figures: { key: string; value: number }[] }[] }).results.find(
				(r) => r.id === 'members',
			)
			const figure = (key: string) => members?.figures.find((f) => f.key === key)?.value
			expect(figure('members.admins')).toBe(1)
			expect(figure('members.total')).toBeGreaterThanOrEqual(2)
		})

		it('never gives the admin role to an address that is not listed', async () => {
			const cookie = await member('Jo', 'jo@exemple.fr')
			const session = await getSessionUser(get('/', { cookie }))
			expect(session?.role).toBe('user')
		})
	})
})
