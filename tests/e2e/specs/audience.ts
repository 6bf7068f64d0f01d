/*
 * Audience figures against real browser navigations: cookieless visitors open the site, follow a
 * link (a full page load: public pages run no script, docs/decisions/0027-html-first-public-pages.md),
 * reload and go back. Each page the browser asks the site for is one « vue » on the admin's stats
 * screen (going back shows the copy the browser kept, without asking: no new view), which is open meanwhile and shows the
 * new figure by itself within 5 s (server-sent events, batches written every 2 s). Screenshots of
 * the audience section at 1280 and 375 px go to E2E_SHOTS_DIR when it is set.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import type { BrowserContext, Page } from 'playwright-core'
import { signInAdmin } from '../support/accounts.ts'
import { closeAll, newVisitor, SEQUENTIAL, visit } from '../support/harness.ts'
import { t } from '../support/i18n.ts'

const SHOTS = process.env.E2E_SHOTS_DIR
/** A person's Chrome: headless Chromium's own user agent (« HeadlessChrome ») is rightly counted as a robot. */
const PERSON = { userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36' }

async function shootAudience(page: Page, name: string): Promise<void> {
	if (!SHOTS) return
	fs.mkdirSync(SHOTS, { recursive: true })
	await page.locator('#source-audience').scrollIntoViewIfNeeded()
	await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true, animations: 'disabled' })
}

/** The « Pages vues » total the open stats screen shows now. */
async function pageViewsShown(page: Page): Promise<number> {
	const tile = page.locator('dl > div').filter({ has: page.getByText(t('stats.audience.pageViews'), { exact: true }) })
	const text = await tile.locator('dd').first().innerText()
	return Number(text.replace(/\D/g, ''))
}

/** Waits until the open screen shows `expected` views; returns how long after `since` it did. */
async function shownWithin(page: Page, expected: number, since: number, limitMs: number): Promise<number> {
	let seen = await pageViewsShown(page)
	while (seen !== expected) {
		assert.ok(Date.now() - since < limitMs, `the stats screen still shows ${seen} views, not ${expected}, ${limitMs / 1000} s later`)
		await page.waitForTimeout(100)
		seen = await pageViewsShown(page)
	}
	return Date.now() - since
}

export function audienceSpecs() {
	describe('audience figures', SEQUENTIAL, () => {
		let adminContext: BrowserContext
		let stats: Page
		const visitors: BrowserContext[] = []

		before(async () => {
			adminContext = await newVisitor()
			// Signing up hashes a password: slow on a busy machine (this spec may run alone, as the first).
			adminContext.setDefaultTimeout(60_000)
			await signInAdmin(adminContext)
			stats = await adminContext.newPage()
			await visit(stats, '/dashboard/admin/stats?periode=7')
		})
		after(() => closeAll(adminContext, ...visitors))

		test('the stats screen says what one « vue » is', async () => {
			await stats.getByText(t('stats.audience.viewDefinition')).waitFor()
			await shootAudience(stats, 'stats-audience-1280')
			await stats.setViewportSize({ width: 375, height: 800 })
			await shootAudience(stats, 'stats-audience-375')
			await stats.setViewportSize({ width: 1280, height: 900 })
		})

		test('three cookieless visitors: a first load, a link followed and a reload are 3 views each, a step back none, shown live within 5 s', async () => {
			// What earlier specs viewed is written (every 2 s) and shown (at most every 2 s) first.
			await stats.waitForTimeout(4_500)
			const before = await pageViewsShown(stats)
			for (let n = 0; n < 3; n++) {
				const context = await newVisitor(PERSON)
				visitors.push(context)
				const page = await context.newPage()
				const documents: string[] = []
				page.on('request', (request) => {
					if (request.resourceType() === 'document') documents.push(new URL(request.url()).pathname)
				})
				// 1. The landing page, first load.
				await visit(page, '/')
				// 2. A link followed (the footer's « Contact »): a new page from the server.
				await page.locator('footer a[href="/contact"]').first().click()
				await page.waitForURL((url) => url.pathname === '/contact')
				await page.getByRole('heading', { level: 1 }).waitFor()
				// 3. That page reloaded.
				await page.reload()
				await page.getByRole('heading', { level: 1 }).waitFor()
				// 4. Back to the landing page: Chromium shows the copy it kept, the site is not asked again.
				await page.goBack()
				await page.waitForURL((url) => url.pathname === '/')
				await page.getByRole('heading', { level: 1 }).first().waitFor()
				assert.deepEqual(documents.slice(0, 3), ['/', '/contact', '/contact'], 'a new page for the link, and again for the reload')
				assert.deepEqual(await context.cookies(), [], 'the visitor got no cookie')
			}
			const lastVisit = Date.now()
			const took = await shownWithin(stats, before + 9, lastVisit, 5_000)
			// Nothing more arrives late (the step back was not a view).
			await stats.waitForTimeout(4_500)
			assert.equal(await pageViewsShown(stats), before + 9)
			process.stderr.write(`e2e: 9 views of 3 visitors shown on the open stats screen ${took} ms after the last one\n`)
		})

		test('a visit with the stats screen open appears there within 5 s', async () => {
			const before = await pageViewsShown(stats)
			const context = await newVisitor(PERSON)
			visitors.push(context)
			const page = await context.newPage()
			const at = Date.now()
			await visit(page, '/policies/privacy')
			const took = await shownWithin(stats, before + 1, at, 5_000)
			process.stderr.write(`e2e: one view shown on the open stats screen ${took} ms after the visit\n`)
		})
	})
}
