/*
 * Contact and the admin's screens that follow from it: a visitor writes without JavaScript (a
 * refused form keeps what was typed), the band gets the mail and the sender a copy; the admin
 * reads and answers from the Messages screen; the stats screen shows the figures, draws its charts
 * and updates by itself when visitors come. Screenshots go to E2E_SHOTS_DIR when it is set.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import type { BrowserContext, Page } from 'playwright-core'
import { signInAdmin } from '../support/accounts.ts'
import { audit } from '../support/axe.ts'
import { assertFieldError } from '../support/forms.ts'
import { closeAll, CONTACT_EMAIL, h, newVisitor, pathOf, SEQUENTIAL, visit, waitForPath } from '../support/harness.ts'
import { t } from '../support/i18n.ts'

const PHONE = { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 }
const SHOTS = process.env.E2E_SHOTS_DIR

async function shoot(page: Page, name: string): Promise<void> {
	if (!SHOTS) return
	fs.mkdirSync(SHOTS, { recursive: true })
	await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true, animations: 'disabled' })
}

/** Without JavaScript there is nothing to hydrate: the document is all there is. */
async function open(page: Page, url: string) {
	const response = await page.goto(url)
	assert.ok(response, `no response for ${url}`)
	return response
}

const SENDER = { name: 'Jeanne Programmatrice', email: 'jeanne-e2e@example.test' }
const MESSAGE = 'Bonjour ! Nous programmons un festival à Nantes en juillet et aimerions vous y accueillir.'

export function contactSpecs() {
	describe('contact, messages and stats', SEQUENTIAL, () => {
		let visitor: BrowserContext
		let adminContext: BrowserContext

		before(async () => {
			visitor = await newVisitor({ javaScriptEnabled: false })
			adminContext = await newVisitor()
			await signInAdmin(adminContext)
		})
		after(() => closeAll(visitor, adminContext))

		test('the footer leads to /contact, whose form works without JavaScript and keeps what was typed when refused', async () => {
			const page = await visitor.newPage()
			await open(page, '/')
			await page
				.getByRole('contentinfo')
				.getByRole('link', { name: t('site.footer.contact') })
				.click()
			await waitForPath(page, (url) => url.pathname === '/contact')
			await page.getByRole('heading', { level: 1, name: t('contact.title') }).waitFor()

			await page.getByLabel(t('contact.fields.name'), { exact: true }).fill(SENDER.name)
			await page.getByLabel(t('contact.fields.email'), { exact: true }).fill(SENDER.email)
			await page.getByLabel(t('contact.fields.subject'), { exact: true }).selectOption('booking')
			await page.getByLabel(t('contact.fields.message'), { exact: true }).fill('Salut')
			await page.getByRole('button', { name: t('contact.submit') }).click()
			await assertFieldError(page.getByLabel(t('contact.fields.message'), { exact: true }), 'un peu court', 'a too short message')
			assert.equal(await page.getByLabel(t('contact.fields.name'), { exact: true }).inputValue(), SENDER.name)
			assert.equal(await page.getByLabel(t('contact.fields.email'), { exact: true }).inputValue(), SENDER.email)
			assert.equal(await page.getByLabel(t('contact.fields.subject'), { exact: true }).inputValue(), 'booking')

			await page.getByLabel(t('contact.fields.message'), { exact: true }).fill(MESSAGE)
			await page.getByRole('button', { name: t('contact.submit') }).click()
			await page
				.getByRole('status')
				.filter({ hasText: t('contact.sentTitle') })
				.waitFor()
			const toBand = await h.mailbox.waitFor(CONTACT_EMAIL, (mail) => mail.text.includes('festival à Nantes'))
			assert.equal(toBand.subject, `[Contact · Booking] ${SENDER.name}`)
			// No copy to the typed address (it proved nothing): the page's confirmation is the receipt.
			assert.equal(
				h.mailbox.mails.filter((mail) => mail.to.includes(SENDER.email) && mail.text.includes('festival à Nantes')).length,
				0,
				'no copy of the message to the sender',
			)
			await page.close()
		})

		test('/contact passes the accessibility audit, refused form included, and fits a phone', async () => {
			// axe-core runs in the page, so these visitors have JavaScript (the markup is the same).
			for (const [options, suffix] of [
				[{}, ''],
				[PHONE, ' (375 px)'],
			] as const) {
				const context = await newVisitor(options)
				const page = await context.newPage()
				await visit(page, '/contact')
				const width = suffix ? '375' : '1280'
				if (!suffix) {
					await audit(page, 'contact')
					await shoot(page, 'contact-1280')
				}
				await page.getByLabel(t('contact.fields.message'), { exact: true }).fill('Salut')
				await page.getByRole('button', { name: t('contact.submit') }).click()
				await assertFieldError(page.getByLabel(t('contact.fields.name'), { exact: true }), 'Indiquez votre nom.', 'an empty name')
				await assertFieldError(page.getByLabel(t('contact.fields.message'), { exact: true }), 'un peu court', 'a too short message')
				assert.equal(await page.getByLabel(t('contact.fields.message'), { exact: true }).inputValue(), 'Salut')
				const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth)
				assert.ok(scrollWidth <= Number(width), `the contact page is ${scrollWidth} px wide on a ${width} px screen`)
				await audit(page, suffix ? 'contact (375 px)' : 'contact with errors')
				await shoot(page, `contact-error-${width}`)
				await closeAll(context)
			}
		})

		test('the admin sees the unread message, reads it and answers it by e-mail, kept in the thread', async () => {
			const page = await adminContext.newPage()
			await visit(page, '/dashboard/admin/messages')
			await page.getByRole('heading', { level: 1, name: t('contact.admin.title') }).waitFor()
			await page
				.getByText(/\d+ messages? non lus?/)
				.first()
				.waitFor()
			await audit(page, 'admin messages')
			await shoot(page, 'admin-messages-1280')
			await page.getByRole('link', { name: SENDER.name }).click()
			await page.getByRole('heading', { level: 1, name: SENDER.name }).waitFor()
			await page.getByText('festival à Nantes').waitFor()
			await page.getByLabel(t('contact.admin.replyLabel'), { exact: true }).fill('Avec plaisir ! Écrivez-nous les dates exactes.')
			await page.getByRole('button', { name: t('contact.admin.replySubmit') }).click()
			await page.getByRole('heading', { level: 2, name: t('contact.admin.thread') }).waitFor()
			await page.getByText('Écrivez-nous les dates exactes.').waitFor()
			const reply = await h.mailbox.waitFor(SENDER.email, (mail) => mail.text.includes('Écrivez-nous les dates exactes.'))
			assert.ok(reply.text.includes('festival à Nantes'), 'the reply quotes the message')
			// Audited as it reads once the confirmation toast is gone.
			await visit(page, pathOf(page))
			await page.getByRole('heading', { level: 2, name: t('contact.admin.thread') }).waitFor()
			await audit(page, 'admin message')
			await shoot(page, 'admin-message-1280')
			await page.close()
		})

		test('the stats screen shows the figures with charts and a table, and updates by itself when visitors come', async () => {
			const page = await adminContext.newPage()
			await visit(page, '/dashboard/admin')
			await waitForPath(page, (url) => url.pathname === '/dashboard/admin/stats')
			await page.getByRole('heading', { level: 1, name: t('stats.title') }).waitFor()
			// uPlot, loaded on demand, draws one chart per domain.
			await page.locator('main canvas').first().waitFor()
			const tile = page
				.locator('dl > div')
				.filter({ hasText: t('stats.audience.pageViews') })
				.locator('dd')
				.first()
			const before = Number((await tile.innerText()).replace(/\D/g, ''))
			// A visitor opens two pages; the counts are written within about ten seconds and the screen follows.
			// A browser as people use it (headless Chromium says so in its user agent, and bots are not counted).
			const fan = await newVisitor({
				userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36',
			})
			const fanPage = await fan.newPage()
			await visit(fanPage, '/')
			await visit(fanPage, '/events')
			await closeAll(fan)
			await page.waitForFunction(
				([selector, min]) => {
					const cell = [...document.querySelectorAll(selector)].find((dl) => dl.textContent?.includes('Pages vues'))
					const value = Number((cell?.querySelector('dd')?.textContent ?? '').replace(/\D/g, ''))
					return value >= min
				},
				['dl > div', before + 2] as const,
				{ timeout: 30_000 },
			)
			await page.getByText(t('stats.tableToggle', { title: t('stats.audience.title') })).click()
			await page.getByRole('table', { name: t('stats.tableLabel', { title: t('stats.audience.title') }) }).waitFor()
			await audit(page, 'admin stats')
			await shoot(page, 'admin-stats-1280')

			// A reversed period is refused in French, and what was typed stays.
			await visit(page, '/dashboard/admin/stats?periode=perso&du=2026-05-10&au=2026-05-01')
			await page.getByRole('alert').filter({ hasText: 'La date de début doit précéder la date de fin.' }).waitFor()
			assert.equal(await page.getByLabel(t('stats.range.from'), { exact: true }).inputValue(), '2026-05-10')
			await page.close()

			const phone = await adminContext
				.browser()!
				.newContext({ ...PHONE, baseURL: h.origin, storageState: await adminContext.storageState() })
			const small = await phone.newPage()
			await visit(small, '/dashboard/admin/stats?periode=7')
			await small.locator('main canvas').first().waitFor()
			const width = await small.evaluate(() => document.documentElement.scrollWidth)
			assert.ok(width <= 375, `the stats screen is ${width} px wide on a 375 px screen`)
			await shoot(small, 'admin-stats-375')
			await phone.close()
		})
	})
}
