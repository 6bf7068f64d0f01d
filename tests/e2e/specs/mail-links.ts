/*
 * The one-time links the site mails, followed from the real mail (received by the test's SMTP
 * server): confirming an address, choosing a new password, a forged link, and « Renvoyer le lien ».
 * /auth/claim shows a page on GET and acts only on the POST of that page.
 */
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import type { BrowserContext, Page } from 'playwright-core'
import { newMember, signInByForm, signUpByForm, type Member } from '../support/accounts.ts'
import { audit } from '../support/axe.ts'
import { me } from '../support/federated.ts'
import { assertFieldError } from '../support/forms.ts'
import { closeAll, h, newVisitor, pathOf, sameSite, SEQUENTIAL, visit, waitForPath } from '../support/harness.ts'
import { t } from '../support/i18n.ts'
import { buttonLink, mailsTo, pathAndQuery, waitForMail } from '../support/mail-links.ts'

const VERIFY_SUBJECT = 'Confirmez votre adresse e-mail'
const VERIFY_BUTTON = 'Confirmer mon adresse'
const RESET_SUBJECT = 'Choisir un nouveau mot de passe'
const RESET_BUTTON = 'Choisir un nouveau mot de passe'
const PASSWORD_CHANGED_SUBJECT = 'Mot de passe modifié'
const MISMATCH = 'Les deux mots de passe ne sont pas identiques.'

/** The banner the dashboard shows until the address is confirmed. */
function verifyBanner(page: Page) {
	return page.getByRole('complementary', { name: t('dashboard.verify.title') })
}

/**
 * A token of the right shape that the site never issued: by default 24 letters and digits, like the
 * reset tokens Better Auth mails.
 */
function forgedToken(length = 24): string {
	const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
	return [...randomBytes(length)].map((byte) => alphabet[byte % alphabet.length]).join('')
}

/** A forged token shaped like a signed one (three URL-safe parts, as Better Auth's JWTs are). */
function forgedJwt(): string {
	const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
	return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ email: 'personne@example.test', iat: 1_700_000_000, exp: 4_000_000_000 })}.${forgedToken(43)}`
}

/** Posts the sign-in form; the status and where it sends the browser. */
async function trySignIn(context: BrowserContext, member: Member, password: string) {
	const response = await context.request.post('/auth/signin', {
		form: { email: member.email, password, redirectTo: '' },
		headers: sameSite(),
		maxRedirects: 0,
	})
	return { status: response.status(), location: response.headers()['location'] ?? '', body: await response.text() }
}

export function mailLinkSpecs() {
	describe('confirming an address from the mail', SEQUENTIAL, () => {
		const member = newMember('Maëlle')
		let context: BrowserContext
		let page: Page
		let link: URL

		before(async () => {
			context = await newVisitor()
			page = await context.newPage()
		})
		after(() => closeAll(context))

		test('signing up opens no session, and sends « Confirmez votre adresse e-mail » with a button to /auth/claim', async () => {
			await visit(page, '/auth/signup')
			await page.getByLabel(t('auth.fields.name')).fill(member.name)
			await page.getByLabel(t('auth.fields.email')).fill(member.email)
			await page.getByLabel(t('auth.fields.newPassword')).fill(member.password)
			await page.getByRole('checkbox', { name: /politique de confidentialité/ }).check()
			await page.getByRole('button', { name: t('auth.signup.submit') }).click()
			await waitForPath(page, (url) => url.pathname === '/auth/signin')
			await page.getByText(t('auth.flash.checkInbox.title'), { exact: true }).waitFor()
			assert.equal((await me(context)).status, 401, 'a sign-up must open no session')

			const mail = await waitForMail(member.email, VERIFY_SUBJECT)
			assert.deepEqual(mail.to, [member.email])
			link = buttonLink(mail, VERIFY_BUTTON)
			assert.equal(link.pathname, '/auth/claim')
			assert.equal(link.searchParams.get('mode'), 'verifyEmail')
			assert.match(link.searchParams.get('token') ?? '', /^[A-Za-z0-9._-]{16,}$/)
		})

		test('signing in before confirming is refused in French, and sends the link again', async () => {
			const first = await waitForMail(member.email, VERIFY_SUBJECT)
			const refused = await trySignIn(context, member, member.password)
			assert.equal(refused.status, 403)
			assert.ok(refused.body.includes('Confirmez d’abord votre adresse e-mail'), 'the French reason')
			await waitForMail(member.email, VERIFY_SUBJECT, [first])
			assert.equal((await me(context)).status, 401)
		})

		test('opening the link asks for the password, and changes nothing by itself', async () => {
			const response = await visit(page, pathAndQuery(link))
			assert.equal(response.status(), 200)
			await page.getByRole('heading', { level: 1, name: t('auth.claim.verifyEmail.title') }).waitFor()
			await page.getByText(t('auth.claim.verifyEmail.introPassword')).waitFor()
			await page.getByLabel(t('auth.fields.password')).waitFor()
			await page.getByRole('link', { name: t('auth.claim.verifyEmail.chooseNew') }).waitFor()
			await audit(page, 'claim: confirm an address')
			// A mail scanner following the link twice confirms nothing.
			await page.reload()
			await page.getByRole('button', { name: t('auth.claim.verifyEmail.submit') }).waitFor()
			assert.equal((await me(context)).status, 401)
		})

		test('a wrong password is refused next to the form, and confirms nothing', async () => {
			await page.getByLabel(t('auth.fields.password')).fill('pas du tout le mot de passe')
			await page.getByRole('button', { name: t('auth.claim.verifyEmail.submit') }).click()
			await page.getByText(t('auth.claim.verifyEmail.wrongPassword')).waitFor()
			await audit(page, 'claim: confirm an address, wrong password')
			assert.equal((await me(context)).status, 401)
		})

		test('the right password confirms the address and signs the member in', async () => {
			await page.getByLabel(t('auth.fields.password')).fill(member.password)
			await page.getByRole('button', { name: t('auth.claim.verifyEmail.submit') }).click()
			await page.getByText(t('auth.claim.verifyEmail.done')).waitFor()
			await audit(page, 'claim: address confirmed')
			const profile = await me(context)
			assert.equal(profile.status, 200)
			assert.equal(profile.emailVerified, true)

			await page.getByRole('link', { name: t('auth.claim.toDashboard') }).click()
			await waitForPath(page, (url) => url.pathname === '/dashboard')
			await page.getByRole('heading', { level: 1, name: t('dashboard.home.greeting', { name: member.firstName }) }).waitFor()
			assert.equal(await verifyBanner(page).count(), 0, 'the « Confirmez votre adresse e-mail » banner shows')
		})
	})

	describe('forgotten password, from the mail', SEQUENTIAL, () => {
		const member = newMember('Jules')
		const stranger = newMember('Personne')
		const newPassword = `clairière fanfare grenadine ${randomBytes(2).toString('hex')}`
		/** Signed in before the reset, on another device. */
		let otherDevice: BrowserContext
		let visitor: BrowserContext
		let page: Page
		let resetLink: URL

		before(async () => {
			otherDevice = await newVisitor()
			await signUpByForm(otherDevice, member)
			visitor = await newVisitor()
			page = await visitor.newPage()
		})
		after(() => closeAll(otherDevice, visitor))

		async function ask(email: string): Promise<string> {
			await visit(page, '/auth/forgot-password')
			await page.getByLabel(t('auth.fields.email')).fill(email)
			await page.getByRole('button', { name: t('auth.forgot.submit') }).click()
			const status = page.getByRole('status').filter({ hasText: t('auth.forgot.sentTitle') })
			await status.waitFor()
			return (await status.innerText()).replace(/\s+/g, ' ').trim()
		}

		test('/auth/forgot-password answers the same French sentence for a known and an unknown address', async () => {
			await visit(page, '/auth/forgot-password')
			await page.getByRole('heading', { level: 1, name: t('auth.forgot.title') }).waitFor()
			await audit(page, 'forgot password')

			const forUnknown = await ask(stranger.email)
			assert.equal(forUnknown, `${t('auth.forgot.sentTitle')} ${t('auth.forgot.sentBody')}`)
			await audit(page, 'forgot password (sent)')
			const forKnown = await ask(member.email)
			assert.equal(forKnown, forUnknown, 'the answer must not tell whether the address has an account')

			const mail = await waitForMail(member.email, RESET_SUBJECT)
			resetLink = buttonLink(mail, RESET_BUTTON)
			assert.equal(resetLink.pathname, '/auth/claim')
			assert.equal(resetLink.searchParams.get('mode'), 'resetPassword')
			// The unknown address was asked first: had anything been sent to it, it would be here by now.
			assert.deepEqual(mailsTo(stranger.email, ''), [], 'nothing is sent to an address without an account')
		})

		test('the link shows the new-password form; mismatched passwords get a French message next to the field', async () => {
			const response = await visit(page, pathAndQuery(resetLink))
			assert.equal(response.status(), 200)
			await page.getByRole('heading', { level: 1, name: t('auth.claim.resetPassword.title') }).waitFor()
			await audit(page, 'claim: new password')

			await page.getByLabel(t('auth.fields.newPassword'), { exact: true }).fill(newPassword)
			await page.getByLabel(t('auth.fields.confirmPassword')).fill(`${newPassword} bis`)
			await page.getByRole('button', { name: t('auth.claim.resetPassword.submit') }).click()
			await assertFieldError(page.getByLabel(t('auth.fields.confirmPassword')), MISMATCH, 'confirmation')
			assert.equal(pathOf(page), pathAndQuery(resetLink), 'still on the link, which still works')
			await audit(page, 'claim: new password with errors')
		})

		test('a good new password leads to the sign-in page with a toast', async () => {
			await page.getByLabel(t('auth.fields.newPassword'), { exact: true }).fill(newPassword)
			await page.getByLabel(t('auth.fields.confirmPassword')).fill(newPassword)
			await page.getByRole('button', { name: t('auth.claim.resetPassword.submit') }).click()
			await waitForPath(page, (url) => url.pathname === '/auth/signin')
			await page.getByText(t('auth.flash.passwordReset.title'), { exact: true }).waitFor()
			await page.getByText(t('auth.flash.passwordReset.body'), { exact: true }).waitFor()
			await waitForMail(member.email, PASSWORD_CHANGED_SUBJECT)
		})

		test('the old password no longer works, the new one does, and the other device is signed out', async () => {
			const fresh = await newVisitor()
			try {
				const old = await trySignIn(fresh, member, member.password)
				assert.equal(old.status, 400, `the old password still signs in (${old.status} → ${old.location})`)
				assert.ok(old.body.includes(t('auth.errors.invalidCredentials')))
				assert.equal(await signInByForm(fresh, { ...member, password: newPassword }), '/dashboard')
				assert.equal((await me(fresh)).email, member.email)
			} finally {
				await closeAll(fresh)
			}
			assert.equal((await me(otherDevice)).status, 401, 'the session opened before the reset must be revoked')
			const stale = await otherDevice.newPage()
			await visit(stale, '/dashboard')
			assert.equal(new URL(stale.url()).pathname, '/auth/signin')
			await stale.close()
		})

		test('the same link opened again shows « Ce lien a expiré… » and a way to ask again', async () => {
			const response = await visit(page, pathAndQuery(resetLink))
			assert.ok(response.status() < 500)
			await page.getByText(t('auth.claim.invalid.body')).waitFor()
			assert.equal(await page.getByLabel(t('auth.fields.confirmPassword')).count(), 0, 'no form on a used link')
			const again = page.getByRole('link', { name: t('auth.claim.invalid.askReset') })
			assert.equal(await again.getAttribute('href'), '/auth/forgot-password')
			await audit(page, 'claim: link expired or used')
		})
	})

	describe('forged and malformed links', SEQUENTIAL, () => {
		let context: BrowserContext
		let page: Page

		before(async () => {
			context = await newVisitor()
			page = await context.newPage()
		})
		after(() => closeAll(context))

		test('a forged reset token shows the expired-or-invalid page with a way to ask again', async () => {
			const response = await visit(page, `/auth/claim?mode=resetPassword&token=${forgedToken()}`)
			assert.equal(response.status(), 200)
			await page.getByRole('heading', { level: 1, name: t('auth.claim.resetPassword.title') }).waitFor()
			await page.getByText(t('auth.claim.invalid.body')).waitFor()
			assert.equal(await page.getByLabel(t('auth.fields.confirmPassword')).count(), 0, 'no password form for a forged token')
			await audit(page, 'claim: forged link')
			await page.getByRole('link', { name: t('auth.claim.invalid.askReset') }).click()
			await waitForPath(page, (url) => url.pathname === '/auth/forgot-password')
		})

		test('posting a new password with a forged reset token changes nothing and is no 500', async () => {
			const response = await context.request.post(`/auth/claim?mode=resetPassword&token=${forgedToken()}`, {
				form: { password: 'une phrase toute neuve 2026', confirm: 'une phrase toute neuve 2026' },
				headers: sameSite(),
				maxRedirects: 0,
			})
			assert.equal(response.status(), 400)
		})

		test('a forged verification token: the « Ce lien a expiré… » page at once, and its POST changes nothing, never a 500', async () => {
			for (const token of [forgedJwt(), forgedToken(48)]) {
				const response = await visit(page, `/auth/claim?mode=verifyEmail&token=${token}`)
				assert.equal(response.status(), 200)
				await page.getByText(t('auth.claim.invalid.body')).waitFor()
				const again = page.getByRole('link', { name: t('auth.claim.invalid.askVerify') })
				assert.equal(await again.getAttribute('href'), '/auth/signin', 'signed out, asking again starts by signing in')
				const post = await page.context().request.post(`/auth/claim?mode=verifyEmail&token=${token}`, {
					form: { password: 'nimporte quoi du tout' },
					headers: sameSite(),
					maxRedirects: 0,
				})
				assert.equal(post.status(), 400, `the confirmation answered ${post.status()}`)
			}
			await audit(page, 'claim: forged address link')
		})

		test('a forged set-up token, a malformed token or none at all: the invalid page, never a 500', async () => {
			const setup = await visit(page, `/auth/claim?mode=setup&token=${forgedToken(43)}`)
			assert.equal(setup.status(), 200)
			await page.getByText(t('auth.claim.invalid.setup')).waitFor()
			await audit(page, 'claim: forged link')

			for (const query of [
				'mode=resetPassword&token=court',
				`mode=resetPassword&token=${encodeURIComponent('<script>alert(1)</script>aaaaaaaaaaaaaaaa')}`,
				`mode=resetPassword&token=${'a'.repeat(5000)}`,
				'mode=resetPassword',
				'mode=verifyEmail&token=',
			]) {
				const response = await visit(page, `/auth/claim?${query}`)
				assert.equal(response.status(), 200, `/auth/claim?${query.slice(0, 80)} answered ${response.status()}`)
				await page.getByText(t('auth.claim.invalid.body')).waitFor()
			}
			// A mode the site never mails: the page that says what mailed links are, with the ways on.
			const unknownMode = await page.goto('/auth/claim?mode=inconnu&token=' + forgedToken())
			assert.equal(unknownMode?.status(), 200)
			await page.getByRole('heading', { level: 1, name: t('auth.claim.about.title') }).waitFor()
			assert.deepEqual(
				h.serverErrors.filter((e) => e.includes('/auth/claim')),
				[],
				'no 5xx on any claim link',
			)
		})
	})
}
