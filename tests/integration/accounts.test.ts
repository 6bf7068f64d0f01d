import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getSessionUser, requireAdmin, requireUser } from '#app/features/accounts/session.server.ts'
import { outboxMail, user } from '#app/platform/db/schema.ts'
import * as adminStats from '#app/routes/admin/stats.tsx'
import * as authApi from '#app/routes/api/auth.ts'
import * as me from '#app/routes/api/me.ts'
import * as signin from '#app/routes/auth/signin.tsx'
import * as signout from '#app/routes/auth/signout.tsx'
import * as signup from '#app/routes/auth/signup.tsx'
import { databaseKind } from '../support/database.ts'
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
	env = await startTestPlatform({ adminEmails: [ADMIN_EMAIL] })
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

/** Signs up a new member and returns the Cookie header their browser would now send. */
async function member(name: string, email: string): Promise<string> {
	const result = await signUp({ name, email })
	expect(result.status).toBe(302)
	return cookieFrom(result.headers)
}

async function getMe(cookie?: string) {
	return outcome(await me.loader(routeArgs(get('/api/me', { cookie }), '/api/me')))
}

async function patchMe(body: unknown, cookie?: string, contentType?: string) {
	return outcome(await me.action(routeArgs(jsonRequest('PATCH', '/api/me', body, { cookie, contentType }), '/api/me')))
}

describe(`accounts on ${databaseKind()}`, () => {
	describe('sign-up', () => {
		it('creates the member, signs them in with a session cookie and sends them on', async () => {
			const result = await signUp({ name: 'Ada Lovelace', email: ' Ada@Exemple.FR ' })
			expect(result.status).toBe(302)
			expect(result.headers.get('location')).toBe('/dashboard')
			const setCookie = result.headers.getSetCookie().join('\n')
			expect(setCookie).toMatch(/session_token=[^;]+;/)
			expect(setCookie).toMatch(/HttpOnly/i)
			expect(setCookie).toMatch(/SameSite=Lax/i)

			const [row] = await db().select().from(user).where(eq(user.email, 'ada@exemple.fr'))
			expect(row).toMatchObject({ name: 'Ada Lovelace', email: 'ada@exemple.fr', role: 'user', emailVerified: false })
		})

		it('sends the new member where they were going, but never off the site', async () => {
			const inside = await signUp({ name: 'Bea', email: 'bea@exemple.fr', redirectTo: '/dashboard/admin?tab=1' })
			expect(inside.headers.get('location')).toBe('/dashboard/admin?tab=1')
			const outside = await signUp({ name: 'Cal', email: 'cal@exemple.fr', redirectTo: '//evil.example/x' })
			expect(outside.headers.get('location')).toBe('/dashboard')
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

		it('refuses a form without the privacy consent or with a bad address, in French', async () => {
			const request = formPost('/auth/signup', { name: 'Fay', email: 'pas-une-adresse', password: PASSWORD })
			const result = await outcome(await signup.action(routeArgs(request, '/auth/signup')))
			expect(result.status).toBe(400)
			const reply = result.body as SubmissionReply
			expect(reply.error?.email?.[0]).toMatch(/adresse e-mail n’est pas valide/)
			expect(reply.error?.acceptPrivacy?.[0]).toMatch(/politique de confidentialité/)
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
				emailVerified: false,
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

		it('makes an address listed in ADMIN_EMAILS an admin once it is verified', async () => {
			const cookie = await member('La Cheffe', ADMIN_EMAIL.toUpperCase())
			// Anyone can type an address: the role waits for the proof that the address is theirs.
			expect((await getMe(cookie)).body).toMatchObject({ email: ADMIN_EMAIL, role: 'user', emailVerified: false })
			expect((await thrown(() => requireAdmin(get('/dashboard/admin', { cookie })))).status).toBe(403)

			// The link of the verification mail, waiting in the outbox.
			const mails = await db().select().from(outboxMail).where(eq(outboxMail.toAddress, ADMIN_EMAIL))
			const mail = mails.find((m) => m.kind === 'verify-email')
			expect(mail, 'a verification mail in the outbox').toBeDefined()
			const link = /https?:\/\/[^\s"<>]+token=[^\s"<>]+/.exec(mail!.text ?? '')?.[0]
			expect(link).toBeDefined()
			const token = new URL(link!.replaceAll('&amp;', '&')).searchParams.get('token')!
			expect(token).toBeTruthy()

			// Better Auth's own endpoint, through the site's /api/auth/* route.
			const verify = get(`/api/auth/verify-email?${new URLSearchParams({ token })}`)
			const verified = await outcome(await authApi.loader(routeArgs(verify, '/api/auth/*', { '*': 'verify-email' })))
			expect(verified.status).toBeLessThan(400)

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
