/*
 * Redeemable codes in the browser: the admin creates a campaign and generates a batch (the job's
 * progress shows until its CSV and print sheet are ready); a visitor scans a card (the QR code's
 * link pre-fills /redeem), keeps the code by creating an account through the reward claim (the
 * confirmation mail leads back to it), and finds it in « Mes contenus »; the same code is then used
 * up for anyone else.
 */
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { BrowserContext } from 'playwright-core'
import { newMember, signInAdmin } from '../support/accounts.ts'
import { audit } from '../support/axe.ts'
import { closeAll, newVisitor, visit, waitForPath } from '../support/harness.ts'
import { t } from '../support/i18n.ts'
import { buttonLink, pathAndQuery, waitForMail } from '../support/mail-links.ts'

const VERIFY_SUBJECT = 'Confirmez votre adresse e-mail'
const VERIFY_BUTTON = 'Confirmer mon adresse'

export function codeSpecs() {
	describe('redeemable codes', () => {
		let adminContext: BrowserContext
		let fanContext: BrowserContext
		let otherContext: BrowserContext
		const codes: string[] = []

		before(async () => {
			adminContext = await newVisitor()
			await signInAdmin(adminContext)
			fanContext = await newVisitor({ viewport: { width: 375, height: 800 } })
			otherContext = await newVisitor({ viewport: { width: 375, height: 800 } })
		})
		after(() => closeAll(adminContext, fanContext, otherContext))

		test('the admin creates a campaign and generates a batch, with progress, a CSV and a print sheet', async () => {
			const page = await adminContext.newPage()
			await visit(page, '/dashboard/admin/codes')
			await audit(page, 'admin codes (empty)')
			await page
				.getByRole('link', { name: t('admin.codes.new') })
				.first()
				.click()
			await waitForPath(page, (url) => url.pathname === '/dashboard/admin/codes/new')
			await page.getByLabel(t('admin.codes.form.name')).fill('Carte « Tournée »')
			await page.getByLabel(t('admin.codes.form.message'), { exact: false }).fill('Merci ! **Le live** est à vous.')
			await page.getByRole('button', { name: t('admin.codes.form.create') }).click()
			await waitForPath(page, (url) => /^\/dashboard\/admin\/codes\/[A-Za-z0-9_-]{16}$/.test(url.pathname))
			await page.getByLabel(t('admin.codes.batches.count')).fill('40')
			await page.getByRole('button', { name: t('admin.codes.batches.generate') }).click()
			await page.getByRole('link', { name: t('admin.codes.batches.export') }).waitFor({ timeout: 30_000 })
			await audit(page, 'admin campaign')
			const href = await page.getByRole('link', { name: t('admin.codes.batches.export') }).getAttribute('href')
			const csv = await (await adminContext.request.get(href!)).text()
			const lines = csv.trim().split('\r\n').slice(1)
			assert.equal(lines.length, 40)
			codes.push(...lines.map((line) => line.split(',')[0]!))
			const print = await adminContext.request.get(href!.replace('export.csv', 'print'))
			assert.equal(print.status(), 200)
			assert.match(await print.text(), /<svg/)
			await page.close()
		})

		test('a visitor scans a card, keeps the code by creating an account, and finds it in « Mes contenus »', async () => {
			const page = await fanContext.newPage()
			await visit(page, `/redeem?code=${codes[0]!.toLowerCase()}`)
			assert.equal(await page.getByLabel(t('codes.redeem.label')).inputValue(), codes[0]!.toLowerCase())
			await audit(page, 'redeem')
			await page.getByRole('button', { name: t('codes.redeem.submit') }).click()
			await page.getByText(t('codes.redeem.reserved.keep')).waitFor()
			await page.getByRole('heading', { name: 'Carte « Tournée »' }).waitFor()
			await audit(page, 'redeem: reserved')
			await page.getByRole('link', { name: t('codes.redeem.reserved.signup') }).click()
			await waitForPath(page, (url) => url.pathname === '/auth/signup')
			const fan = newMember('Lou')
			await page.getByLabel(t('auth.fields.name')).fill(fan.name)
			await page.getByLabel(t('auth.fields.email')).fill(fan.email)
			await page.locator('input[name=password]').fill(fan.password)
			await page.locator('input[name=acceptPrivacy]').check()
			await page.locator('form button[type=submit]').last().click()
			// No session before the address is confirmed: the sign-in page keeps where the fan was going.
			await waitForPath(
				page,
				(url) => url.pathname === '/auth/signin' && (url.searchParams.get('redirectTo') ?? '').startsWith('/auth/claim'),
			)
			const claim = new URL(page.url()).searchParams.get('redirectTo')!
			// So does the real mail: its button confirms the address, then leads on to the reward.
			const link = buttonLink(await waitForMail(fan.email, VERIFY_SUBJECT), VERIFY_BUTTON)
			assert.equal(link.searchParams.get('redirectTo'), claim)
			await visit(page, pathAndQuery(link))
			await page.getByLabel(t('auth.fields.password')).fill(fan.password)
			await page.getByRole('button', { name: t('auth.claim.verifyEmail.submit') }).click()
			await waitForPath(page, (url) => url.pathname + url.search === claim)
			await page.getByText(t('auth.flash.addressConfirmed.title'), { exact: true }).waitFor()
			await audit(page, 'claim: reward')
			await page.getByRole('button', { name: t('codes.claim.submit') }).click()
			await waitForPath(page, (url) => url.pathname === '/dashboard')
			await page.getByRole('heading', { name: 'Carte « Tournée »' }).waitFor()
			await audit(page, 'dashboard: Mes contenus')
			await page.close()
		})

		test('the same code is used up for anyone else, and a wrong one says so in French', async () => {
			const page = await otherContext.newPage()
			await visit(page, `/redeem?code=${codes[0]}`)
			await page.getByRole('button', { name: t('codes.redeem.submit') }).click()
			await page.getByText(t('codes.redeem.outcomes.used_up')).waitFor()
			await page.getByLabel(t('codes.redeem.label')).fill('ABCD-EFGH-JKMN')
			await page.getByRole('button', { name: t('codes.redeem.submit') }).click()
			await page.getByText(t('codes.redeem.outcomes.unknown')).waitFor()
			await audit(page, 'redeem: unknown')
			await page.close()
		})
	})
}
