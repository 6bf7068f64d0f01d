/*
 * The account pages on a 375 px wide phone: audited like every other page, and photographed when
 * E2E_SHOTS_DIR names a folder (for a person to look at; nothing is written otherwise).
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import type { BrowserContext, Page } from 'playwright-core'
import { newMember, signUpByForm } from '../support/accounts.ts'
import { audit } from '../support/axe.ts'
import { assertFieldError } from '../support/forms.ts'
import { closeAll, newVisitor, SEQUENTIAL, visit } from '../support/harness.ts'
import { t } from '../support/i18n.ts'
import { buttonLink, pathAndQuery, waitForMail } from '../support/mail-links.ts'

const PHONE = { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 }
const SHOTS = process.env.E2E_SHOTS_DIR

async function shoot(page: Page, name: string): Promise<void> {
	const width = await page.evaluate(() => document.documentElement.scrollWidth)
	assert.ok(width <= 375, `${name}: the page is ${width} px wide on a 375 px screen (it scrolls sideways)`)
	if (!SHOTS) return
	fs.mkdirSync(SHOTS, { recursive: true })
	await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true, animations: 'disabled' })
}

export function phoneSpecs() {
	describe('account pages at 375 px', SEQUENTIAL, () => {
		let context: BrowserContext
		let page: Page

		before(async () => {
			context = await newVisitor(PHONE)
			page = await context.newPage()
		})
		after(() => closeAll(context))

		test('/auth/signup fits a phone', async () => {
			await visit(page, '/auth/signup')
			await page.getByRole('heading', { level: 1, name: t('auth.signup.title') }).waitFor()
			await audit(page, 'sign-up (375 px)')
			await shoot(page, 'signup-375')
		})

		test('the new-password page fits a phone, with and without errors', async () => {
			const member = newMember('Inès')
			const setup = await newVisitor()
			try {
				await signUpByForm(setup, member)
			} finally {
				await closeAll(setup)
			}
			await visit(page, '/auth/forgot-password')
			await page.getByLabel(t('auth.fields.email')).fill(member.email)
			await page.getByRole('button', { name: t('auth.forgot.submit') }).click()
			await page
				.getByRole('status')
				.filter({ hasText: t('auth.forgot.sentTitle') })
				.waitFor()
			const link = buttonLink(await waitForMail(member.email, 'Choisir un nouveau mot de passe'), 'Choisir un nouveau mot de passe')

			await visit(page, pathAndQuery(link))
			await page.getByRole('heading', { level: 1, name: t('auth.claim.resetPassword.title') }).waitFor()
			await audit(page, 'claim: new password (375 px)')
			await shoot(page, 'claim-reset-password-375')

			await page.getByLabel(t('auth.fields.newPassword'), { exact: true }).fill('marmotte violoncelle automne')
			await page.getByLabel(t('auth.fields.confirmPassword')).fill('marmotte violoncelle hiver')
			await page.getByRole('button', { name: t('auth.claim.resetPassword.submit') }).click()
			await assertFieldError(
				page.getByLabel(t('auth.fields.confirmPassword')),
				'Les deux mots de passe ne sont pas identiques.',
				'confirmation',
			)
			await audit(page, 'claim: new password with errors (375 px)')
			await shoot(page, 'claim-reset-password-errors-375')
		})

		test('/dashboard/settings fits a phone', async () => {
			const member = newMember('Lina')
			// The page still shows the previous test's new-password page, which follows another tab's sign-in
			// by reloading itself (app/islands/follow-session.ts): leave it first, so that reload does
			// not cut the visit below short.
			await page.goto('about:blank')
			await signUpByForm(context, member)
			await visit(page, '/dashboard/settings')
			await page.getByRole('heading', { level: 1, name: t('settings.title') }).waitFor()
			await audit(page, 'settings (375 px)')
			await shoot(page, 'dashboard-settings-375')
		})
	})
}
