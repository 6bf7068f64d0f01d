/*
 * Every form with server validation survives a refused submit: the visitor presses the button with
 * a mistake, gets the French message next to the field, then goes on typing. The form stays on
 * screen, keeps everything typed and tells when the mistake is fixed; nothing is posted while they
 * type (no rate-limit point spent, no « Demande incomprise » in place of the form).
 */
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { BrowserContext, Locator, Page } from 'playwright-core'
import { newMember, signInAdmin, signUpByForm } from '../support/accounts.ts'
import { assertFieldError } from '../support/forms.ts'
import { closeAll, h, newVisitor, SEQUENTIAL, visit } from '../support/harness.ts'
import { t } from '../support/i18n.ts'
import { buttonLink, pathAndQuery, waitForMail } from '../support/mail-links.ts'

/** The POSTs this page sends while `act` runs (and half a second after, for a late validation). */
async function postsDuring(page: Page, act: () => Promise<void>): Promise<string[]> {
	const posts: string[] = []
	const listen = (request: { method(): string; url(): string }) => {
		if (request.method() === 'POST') posts.push(request.url())
	}
	page.on('request', listen)
	try {
		await act()
		await page.waitForTimeout(600)
	} finally {
		page.off('request', listen)
	}
	return posts
}

/** The page still shows this form with its field, not an error page in its place. */
async function assertStillThere(page: Page, field: Locator, value: string, what: string): Promise<void> {
	assert.equal(
		await page.getByRole('heading', { name: t('errors.badRequest.title') }).count(),
		0,
		`${what}: an error page replaced the form`,
	)
	assert.equal(await field.inputValue(), value, `${what}: what was typed is lost`)
}

/**
 * Types one more letter into a field the server (or the browser) just refused: nothing is posted
 * while typing, the typed text stays, and the message goes once the value is right.
 */
async function typeAfterRefusal(page: Page, field: Locator, before: string, letter: string, what: string): Promise<void> {
	const posts = await postsDuring(page, async () => {
		await field.focus()
		await field.press('End')
		await field.pressSequentially(letter)
	})
	await assertStillThere(page, field, before + letter, what)
	assert.deepEqual(posts, [], `${what}: typing after a refused submit posted the form`)
}

export function refusedFormSpecs() {
	describe('a form refused once keeps what was typed', SEQUENTIAL, () => {
		let adminContext: BrowserContext
		let memberContext: BrowserContext
		let anonymous: BrowserContext
		const member = newMember('Ysé')

		before(async () => {
			adminContext = await newVisitor()
			await signInAdmin(adminContext)
			memberContext = await newVisitor()
			await signUpByForm(memberContext, member)
			anonymous = await newVisitor()
		})
		after(() => closeAll(adminContext, memberContext, anonymous))

		test('event editor: « Enregistrer » on the empty form, then typing a title', async () => {
			const page = await adminContext.newPage()
			await visit(page, '/dashboard/admin/events/new')
			const title = page.getByLabel(t('admin.events.fields.title'), { exact: true })
			await page.getByRole('button', { name: t('admin.events.editor.saveDraft') }).click()
			await assertFieldError(title, 'titre', 'the empty title')
			await page.getByText(t('admin.events.editor.refused')).waitFor()
			await typeAfterRefusal(page, title, '', 'L', 'new event, title')
			assert.equal(await title.getAttribute('aria-invalid'), null, 'the title’s message goes once a title is typed')
			await page.close()
		})

		test('event editor: a refused save of a stored event, then typing', async () => {
			const page = await adminContext.newPage()
			await visit(page, '/dashboard/admin/events/new')
			await page.getByLabel(t('admin.events.fields.title'), { exact: true }).fill('Nuit des refus')
			await page.getByLabel(t('admin.events.fields.startsAt'), { exact: true }).fill('2031-06-12T20:30')
			await page.getByLabel(t('admin.events.fields.venueName'), { exact: true }).fill('La Cigale')
			await page.getByLabel(t('admin.events.fields.city'), { exact: true }).fill('Paris')
			await page.getByRole('button', { name: t('admin.events.editor.saveDraft') }).click()
			await page.waitForURL((url) => /^\/dashboard\/admin\/events\/(?!new)[^/]+$/.test(url.pathname))
			await page.getByRole('heading', { level: 1, name: 'Nuit des refus' }).waitFor()

			const city = page.getByLabel(t('admin.events.fields.city'), { exact: true })
			await city.fill('')
			const venue = page.getByLabel(t('admin.events.fields.venueName'), { exact: true })
			await venue.fill('La Cigale, salle haute')
			await page.getByRole('button', { name: t('admin.events.editor.save'), exact: true }).click()
			await assertFieldError(city, 'ville', 'the emptied city')
			await typeAfterRefusal(page, city, '', 'P', 'stored event, city')
			assert.equal(await venue.inputValue(), 'La Cigale, salle haute', 'the other field typed before the refusal is kept')
			await page.close()
		})

		test('settings: each section refused, then typing', async () => {
			const page = await memberContext.newPage()
			await visit(page, '/dashboard/settings')

			const name = page.getByLabel(t('settings.profile.name'), { exact: true })
			await name.fill('')
			await page
				.locator('#form-profil')
				.getByRole('button', { name: t('settings.profile.submit') })
				.click()
			await assertFieldError(name, 'nom', 'the emptied name')
			await typeAfterRefusal(page, name, '', 'Y', 'profile, name')
			assert.equal(await name.getAttribute('aria-invalid'), null, 'the name’s message goes once a name is typed')

			const email = page.getByLabel(t('settings.email.newEmail'), { exact: true })
			await email.fill('ysé@')
			await page.locator('#form-adresse').getByLabel(t('settings.currentPassword')).fill(member.password)
			await page.getByRole('button', { name: t('settings.email.submit') }).click()
			await assertFieldError(email, 'adresse', 'the bad address')
			await typeAfterRefusal(page, email, 'ysé@', 'e', 'email, new address')

			const newPassword = page.getByLabel(t('settings.password.newPassword'), { exact: true })
			await newPassword.fill('court')
			await page.getByRole('button', { name: t('settings.password.submit') }).click()
			await assertFieldError(newPassword, 'caractères', 'the short password')
			await typeAfterRefusal(page, newPassword, 'court', 's', 'password, new password')

			await page.getByRole('button', { name: t('settings.delete.open') }).click()
			const word = page.getByLabel(t('settings.delete.wordLabel', { word: 'SUPPRIMER' }))
			await word.fill('SUPPR')
			await page.getByRole('button', { name: t('settings.delete.confirm') }).click()
			await assertFieldError(word, 'SUPPRIMER', 'the wrong word')
			await typeAfterRefusal(page, word, 'SUPPR', 'I', 'deletion, word')
			await page.getByRole('button', { name: t('settings.delete.cancel') }).click()
			await page.close()
		})

		test('sign-up: refused, then typing', async () => {
			const page = await anonymous.newPage()
			await visit(page, '/auth/signup')
			const name = page.getByLabel(t('auth.fields.name'), { exact: true })
			await name.fill('Ysé Refus')
			const email = page.getByLabel(t('auth.fields.email'), { exact: true })
			await email.fill('yse@')
			await page.getByRole('button', { name: t('auth.signup.submit') }).click()
			await assertFieldError(email, 'adresse', 'the bad address')
			await typeAfterRefusal(page, email, 'yse@', 'e', 'sign-up, address')
			assert.equal(await name.inputValue(), 'Ysé Refus', 'the name typed before the refusal is kept')
			assert.equal(await email.getAttribute('aria-invalid'), null, 'an edited field no longer shows the refused value’s message')
			await page.close()
		})

		test('setlist song: a refused duration, then typing, then the corrected song is saved', async () => {
			const page = await adminContext.newPage()
			await visit(page, '/dashboard/admin/setlist/songs/new')
			await page.getByLabel(t('setlist.song.fields.title'), { exact: true }).fill('Refrain refusé')
			const duration = page.getByLabel(t('setlist.song.fields.duration'))
			await duration.fill('7:99')
			await page.getByRole('button', { name: t('setlist.song.create') }).click()
			await assertFieldError(duration, 'minutes et secondes', 'the duration 7:99')
			await typeAfterRefusal(page, duration, '7:99', '9', 'song, duration')
			await duration.fill('3:30')
			assert.equal(await duration.getAttribute('aria-invalid'), null, 'the duration’s message goes once it is right')
			await page.getByRole('button', { name: t('setlist.song.create') }).click()
			await page.waitForURL((url) => url.pathname === '/dashboard/admin/setlist/songs')
			await page.close()
		})

		test('code campaign: a refused save without a name, then typing', async () => {
			const page = await adminContext.newPage()
			await visit(page, '/dashboard/admin/codes/new')
			const name = page.getByLabel(t('admin.codes.form.name'), { exact: true })
			await page.getByRole('button', { name: t('admin.codes.form.create') }).click()
			await assertFieldError(name, 'Donnez un nom', 'the empty campaign name')
			await typeAfterRefusal(page, name, '', 'C', 'campaign, name')
			assert.equal(await name.getAttribute('aria-invalid'), null, 'the name’s message goes once a name is typed')
			await page.close()
		})

		test('contact: refused, then typing', async () => {
			const page = await anonymous.newPage()
			await visit(page, '/contact')
			const message = page.getByLabel(t('contact.fields.message'), { exact: true })
			await message.fill('Salut')
			await page.getByRole('button', { name: t('contact.submit') }).click()
			const name = page.getByLabel(t('contact.fields.name'), { exact: true })
			await assertFieldError(name, 'Indiquez votre nom.', 'the empty name')
			await typeAfterRefusal(page, name, '', 'Y', 'contact, name')
			assert.equal(await name.getAttribute('aria-invalid'), null, 'an edited field no longer shows the refused value’s message')
			assert.equal(await message.inputValue(), 'Salut', 'the message typed before the refusal is kept')
			await page.close()
		})

		test('claim (new password from the mailed link): refused, then typing', async () => {
			const page = await anonymous.newPage()
			await visit(page, '/auth/forgot-password')
			await page.getByLabel(t('auth.fields.email'), { exact: true }).fill(member.email)
			await page.getByRole('button', { name: t('auth.forgot.submit') }).click()
			const mail = await waitForMail(member.email, 'Choisir un nouveau mot de passe')
			await visit(page, pathAndQuery(buttonLink(mail, 'Choisir un nouveau mot de passe')))
			const password = page.getByLabel(t('auth.fields.newPassword'), { exact: true })
			const confirm = page.getByLabel(t('auth.fields.confirmPassword'), { exact: true })
			await password.fill('lanterne marée contrebasse')
			await confirm.fill('lanterne')
			await page.getByRole('button', { name: t('auth.claim.resetPassword.submit') }).click()
			await assertFieldError(confirm, 'identiques', 'the mismatched confirmation')
			await typeAfterRefusal(page, confirm, await confirm.inputValue(), 'l', 'claim, confirmation')
			assert.equal(h.serverErrors.length, 0, `server errors: ${h.serverErrors.join(', ')}`)
			await page.close()
		})
	})
}
