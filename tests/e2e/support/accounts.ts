/* Test members, and the shortest way to give a browser context a session when the UI is not under test. */
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import type { BrowserContext } from 'playwright-core'
import { ADMIN_EMAIL, h, sameSite, visit } from './harness.ts'
import { t } from './i18n.ts'
import { linkIn } from './mailbox.ts'

export interface Member {
	name: string
	firstName: string
	email: string
	password: string
}

let counter = 0
const run = randomBytes(3).toString('hex')

export function newMember(firstName = 'Camille'): Member {
	counter++
	return {
		firstName,
		name: `${firstName} Essai${counter}`,
		email: `membre-${run}-${counter}@example.test`,
		// Long, not a common password, nothing from the name or the address.
		password: `tilleul orage velours ${counter}${run}`,
	}
}

/** The admin of the run: the address in the server's ADMIN_EMAILS. Signed up once, on first use. */
export const admin: Member = {
	firstName: 'Dominique',
	name: 'Dominique Régie',
	email: ADMIN_EMAIL,
	password: 'contrebasse lanterne 1987 marée',
}

/**
 * Posts the sign-up form as the browser would (same-site Origin). It opens no session: the site
 * asks the new member to open the link of the mail (see signUpByForm).
 */
export async function signUpOnly(context: BrowserContext, member: Member): Promise<void> {
	const response = await context.request.post('/auth/signup', {
		form: { name: member.name, email: member.email, password: member.password, acceptPrivacy: 'on', redirectTo: '' },
		headers: sameSite(),
		maxRedirects: 0,
	})
	assert.equal(response.status(), 302, `sign-up of ${member.email} answered ${response.status()}: ${(await response.text()).slice(0, 500)}`)
	assert.equal(response.headers()['location'], '/auth/signin')
	assert.ok(!(response.headers()['set-cookie'] ?? '').includes('session_token='), 'a sign-up must open no session')
}

/** Signs up, then confirms the address from the mail with the password: the context is signed in. */
export async function signUpByForm(context: BrowserContext, member: Member): Promise<void> {
	await signUpOnly(context, member)
	await confirmAddress(context, member)
}

export async function signInByForm(context: BrowserContext, member: Member, redirectTo = ''): Promise<string> {
	const response = await context.request.post('/auth/signin', {
		form: { email: member.email, password: member.password, redirectTo },
		headers: sameSite(),
		maxRedirects: 0,
	})
	assert.equal(response.status(), 302, `sign-in of ${member.email} answered ${response.status()}: ${(await response.text()).slice(0, 500)}`)
	return response.headers()['location'] ?? ''
}

/** Opens the latest confirmation link the site mailed to this member and confirms the address with the password. */
export async function confirmAddress(context: BrowserContext, member: Member): Promise<void> {
	const isVerifyLink = (url: URL) => url.pathname === '/auth/claim' && url.searchParams.get('mode') === 'verifyEmail'
	const mail = await h.mailbox.waitFor(member.email, (m) => {
		try {
			return Boolean(linkIn(m, h.origin, isVerifyLink))
		} catch {
			return false
		}
	})
	const link = linkIn(mail, h.origin, isVerifyLink)
	const page = await context.newPage()
	try {
		await visit(page, link.pathname + link.search)
		await page.getByLabel(t('auth.fields.password')).fill(member.password)
		await page.getByRole('button', { name: t('auth.claim.verifyEmail.submit') }).click()
		await page.getByText(t('auth.claim.verifyEmail.done')).waitFor()
	} finally {
		await page.close()
	}
}

let adminReady = false

/**
 * Signs the admin in, in this context. The first time, the account is created through the sign-up
 * form and its address confirmed from the mail (ADMIN_EMAILS grants the role to a verified address).
 */
export async function signInAdmin(context: BrowserContext): Promise<void> {
	if (!adminReady) {
		await signUpByForm(context, admin)
		adminReady = true
		return
	}
	assert.equal(await signInByForm(context, admin), '/dashboard')
}

/**
 * Raw fetch against the test server, never following redirects, with no cookies. The path is
 * appended as is (`//evil.example/` stays a path on the test server, not another host).
 */
export function anonymousFetch(path: string, init: RequestInit = {}): Promise<Response> {
	if (!path.startsWith('/')) throw new Error(`anonymousFetch wants a path, got ${path}`)
	return fetch(h.origin + path, { redirect: 'manual', ...init })
}
