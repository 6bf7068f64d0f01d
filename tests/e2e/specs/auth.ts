/* The account area through the UI, the way a fan uses it: sign up, sign out, sign in, mistakes. */
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { BrowserContext, Page } from 'playwright-core'
import { confirmAddress, newMember, signInByForm, signUpByForm } from '../support/accounts.ts'
import { audit } from '../support/axe.ts'
import { assertFieldError } from '../support/forms.ts'
import { closeAll, newVisitor, pathOf, visit, waitForPath } from '../support/harness.ts'
import { t } from '../support/i18n.ts'

const INVALID_CREDENTIALS = 'Adresse e-mail ou mot de passe incorrect.'

export function authSpecs() {
	describe('sign-up, sign-out and sign-in through the pages', () => {
		const member = newMember('Camille')
		let context: BrowserContext
		let page: Page

		before(async () => {
			context = await newVisitor()
			page = await context.newPage()
		})
		after(() => closeAll(context))

		test('the landing page shows the band', async () => {
			const response = await visit(page, '/')
			assert.equal(response.status(), 200)
			await page.getByRole('heading', { level: 1 }).waitFor()
			await page.getByRole('link', { name: 'Se connecter' }).waitFor()
			await audit(page, 'landing')
		})

		test('a visitor signs up, confirms the address from the mail and lands on the dashboard, greeted by first name', async () => {
			const response = await visit(page, '/auth/signup')
			assert.equal(response.status(), 200)
			await page.getByRole('heading', { level: 1, name: 'Créer un compte' }).waitFor()
			await audit(page, 'sign-up')

			await page.getByLabel('Nom ou pseudonyme').fill(member.name)
			await page.getByLabel('Adresse e-mail').fill(member.email)
			await page.getByLabel('Mot de passe', { exact: true }).fill(member.password)
			await page.getByRole('checkbox', { name: /politique de confidentialité/ }).check()
			await page.getByRole('button', { name: 'Créer mon compte' }).click()
			// No session yet: the sign-in page says to look at the inbox.
			await waitForPath(page, (url) => url.pathname === '/auth/signin')
			await page.getByText(t('auth.flash.checkInbox.title'), { exact: true }).waitFor()
			await audit(page, 'sign-in after sign-up (check your inbox)')

			await confirmAddress(context, member)
			await visit(page, '/dashboard')
			await page.getByRole('heading', { level: 1, name: `Bonjour ${member.firstName} !` }).waitFor()
			await audit(page, 'dashboard')
		})

		test('« Se déconnecter » goes back to the landing page and closes the dashboard', async () => {
			await page.getByRole('button', { name: 'Se déconnecter' }).click()
			await waitForPath(page, (url) => url.pathname === '/')
			await page.getByRole('link', { name: 'Se connecter' }).waitFor()

			await visit(page, '/dashboard')
			assert.equal(pathOf(page), '/auth/signin?redirectTo=%2Fdashboard')
			await page.getByRole('heading', { level: 1, name: 'Connexion' }).waitFor()
			await audit(page, 'sign-in')
		})

		test('signing in again with the same credentials opens the dashboard', async () => {
			// Still on the sign-in page the dashboard sent us to.
			await page.getByLabel('Adresse e-mail').fill(member.email)
			await page.getByLabel('Mot de passe').fill(member.password)
			await page.getByRole('button', { name: 'Se connecter' }).click()
			await waitForPath(page, (url) => url.pathname === '/dashboard')
			await page.getByRole('heading', { level: 1, name: `Bonjour ${member.firstName} !` }).waitFor()
		})

		test('a wrong password gets the French error and the e-mail is kept', async () => {
			await page.getByRole('button', { name: 'Se déconnecter' }).click()
			await waitForPath(page, (url) => url.pathname === '/')
			await visit(page, '/auth/signin')

			await page.getByLabel('Adresse e-mail').fill(member.email)
			await page.getByLabel('Mot de passe').fill('pas le bon mot de passe du tout')
			await page.getByRole('button', { name: 'Se connecter' }).click()

			await page.getByRole('alert').filter({ hasText: INVALID_CREDENTIALS }).waitFor()
			assert.equal(new URL(page.url()).pathname, '/auth/signin')
			assert.equal(await page.getByLabel('Adresse e-mail').inputValue(), member.email)
			await audit(page, 'sign-in with errors')
		})

		test('an unknown address reads exactly like a wrong password', async () => {
			await visit(page, '/auth/signin')
			const stranger = newMember('Inconnu')
			await page.getByLabel('Adresse e-mail').fill(stranger.email)
			await page.getByLabel('Mot de passe').fill(stranger.password)
			await page.getByRole('button', { name: 'Se connecter' }).click()
			await page.getByRole('alert').filter({ hasText: INVALID_CREDENTIALS }).waitFor()
			assert.equal(await page.getByLabel('Adresse e-mail').inputValue(), stranger.email)
		})

		test('an empty sign-in form gets French messages next to its fields', async () => {
			await visit(page, '/auth/signin')
			await page.getByRole('button', { name: 'Se connecter' }).click()
			await assertFieldError(page.getByLabel('Adresse e-mail'), 'Saisissez votre adresse e-mail.', 'e-mail')
			await assertFieldError(page.getByLabel('Mot de passe'), 'Saisissez votre mot de passe.', 'password')
			assert.equal(new URL(page.url()).pathname, '/auth/signin')
			await audit(page, 'sign-in with errors')
		})

		test('an empty sign-up form gets French messages next to its fields', async () => {
			await visit(page, '/auth/signup')
			await page.getByRole('button', { name: 'Créer mon compte' }).click()
			await assertFieldError(page.getByLabel('Nom ou pseudonyme'), 'Indiquez votre nom ou un pseudonyme.', 'name')
			await assertFieldError(page.getByLabel('Adresse e-mail'), 'Saisissez votre adresse e-mail.', 'e-mail')
			await assertFieldError(page.getByLabel('Mot de passe', { exact: true }), 'Choisissez un mot de passe.', 'password')
			await assertFieldError(
				page.getByRole('checkbox', { name: /politique de confidentialité/ }),
				'Acceptez la politique de confidentialité',
				'privacy checkbox',
			)
			await audit(page, 'sign-up with errors')
		})

		test('a short or common password is refused in French and the other fields are kept', async () => {
			const other = newMember('Lou')
			await visit(page, '/auth/signup')
			const fill = async (password: string) => {
				await page.getByLabel('Nom ou pseudonyme').fill(other.name)
				await page.getByLabel('Adresse e-mail').fill(other.email)
				await page.getByLabel('Mot de passe', { exact: true }).fill(password)
				await page.getByRole('checkbox', { name: /politique de confidentialité/ }).check()
				await page.getByRole('button', { name: 'Créer mon compte' }).click()
			}
			await fill('court')
			await assertFieldError(page.getByLabel('Mot de passe', { exact: true }), 'au moins 12 caractères', 'short password')
			assert.equal(await page.getByLabel('Nom ou pseudonyme').inputValue(), other.name)
			assert.equal(await page.getByLabel('Adresse e-mail').inputValue(), other.email)

			await fill('motdepasse123')
			await assertFieldError(page.getByLabel('Mot de passe', { exact: true }), 'trop courant', 'common password')
			assert.equal(new URL(page.url()).pathname, '/auth/signup')
		})

		test('signing up again with an address already taken signs nobody in and changes nothing', async () => {
			await visit(page, '/auth/signup')
			await page.getByLabel('Nom ou pseudonyme').fill('Quelqu’un d’autre')
			await page.getByLabel('Adresse e-mail').fill(member.email)
			await page.getByLabel('Mot de passe', { exact: true }).fill('une toute autre phrase secrète')
			await page.getByRole('checkbox', { name: /politique de confidentialité/ }).check()
			const [response] = await Promise.all([
				page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname.startsWith('/auth/signup')),
				page.getByRole('button', { name: 'Créer mon compte' }).click(),
			])
			assert.ok(response.status() < 500, `sign-up answered ${response.status()}`)
			await page.waitForLoadState('load')
			assert.notEqual(new URL(page.url()).pathname, '/dashboard')
			const me = await context.request.get('/api/me')
			assert.equal(me.status(), 401, 'the second sign-up must not open a session')
			// The owner's password still works.
			assert.equal(await signInByForm(context, member), '/dashboard')
		})
	})

	describe('the sign-in form without JavaScript', () => {
		let context: BrowserContext
		before(async () => {
			context = await newVisitor({ javaScriptEnabled: false })
		})
		after(() => closeAll(context))

		test('a wrong password is answered by the server with the message and the e-mail kept', async () => {
			const member = newMember('Sacha')
			const setup = await newVisitor()
			try {
				await signUpByForm(setup, member)
			} finally {
				await closeAll(setup)
			}
			const page = await context.newPage()
			await page.goto('/auth/signin')
			await page.getByLabel('Adresse e-mail').fill(member.email)
			await page.getByLabel('Mot de passe').fill('encore un mauvais mot de passe')
			const [response] = await Promise.all([
				page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/auth/signin'),
				page.getByRole('button', { name: 'Se connecter' }).click(),
			])
			assert.equal(response.status(), 400)
			await page.waitForLoadState('load')
			await page.getByRole('alert').filter({ hasText: INVALID_CREDENTIALS }).waitFor()
			assert.equal(await page.getByLabel('Adresse e-mail').inputValue(), member.email)
			assert.equal(await page.getByLabel('Mot de passe').inputValue(), '', 'the password must not be sent back')

			await page.getByLabel('Mot de passe').fill(member.password)
			await page.getByRole('button', { name: 'Se connecter' }).click()
			await waitForPath(page, (url) => url.pathname === '/dashboard')
			await page.getByRole('heading', { level: 1, name: `Bonjour ${member.firstName} !` }).waitFor()
		})
	})
}
