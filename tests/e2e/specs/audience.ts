/*
 * Audience figures against real browser navigations: cookieless visitors open the site, follow a
 * link (a client-side navigation once the page's script runs), reload and go back, and each page
 * they are shown is one « vue » on the admin's stats screen, which is open meanwhile and shows the
 * new figure by itself within 5 s (server-sent events, batches written every 2 s).
 */
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { BrowserContext, Page } from 'playwright-core'
import { signInAdmin } from '../support/accounts.ts'
import { closeAll, hydrated, newVisitor, SEQUENTIAL, visit } from '../support/harness.ts'
import { t } from '../support/i18n.ts'

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
			await signInAdmin(adminContext)
			stats = await adminContext.newPage()
			await visit(stats, '/dashboard/admin/stats?periode=7')
		})
		after(() => closeAll(adminContext, ...visitors))

		test('the stats screen says what one « vue » is', async () => {
			await stats.getByText(t('stats.audience.viewDefinition')).waitFor()
		})

		test('three cookieless visitors: a first load, a link followed, a reload and a step back are 4 views each, shown live within 5 s', async () => {
			// The views of earlier specs are written (every 2 s) and shown (at most every 2 s) first.
			await stats.waitForTimeout(4_500)
			const before = await pageViewsShown(stats)
			for (let n = 0; n < 3; n++) {
				const context = await newVisitor()
				visitors.push(context)
				const page = await context.newPage()
				const documents: string[] = []
				page.on('request', (request) => {
					if (request.resourceType() === 'document') documents.push(new URL(request.url()).pathname)
				})
				// 1. First load of the landing page.
				await visit(page, '/')
				// 2. A link followed: the hydrated page navigates on the client (no new document).
				await page.locator('a[href="/events"]').first().click()
				await page.waitForURL((url) => url.pathname === '/events')
				await page.getByRole('heading', { level: 1 }).waitFor()
				assert.deepEqual(documents, ['/'], 'the link was followed without loading a new document')
				// 3. A reload of that page.
				await page.reload()
				await hydrated(page)
				// 4. Back to the landing page.
				await page.goBack()
				await page.waitForURL((url) => url.pathname === '/')
				await hydrated(page)
				assert.deepEqual(await context.cookies(), [], 'the visitor got no cookie')
			}
			const lastVisit = Date.now()
			const took = await shownWithin(stats, before + 12, lastVisit, 5_000)
			process.stderr.write(`e2e: 12 views shown on the open stats screen ${took} ms after the last one\n`)
		})

		test('a visit with the stats screen open appears there within 5 s', async () => {
			const before = await pageViewsShown(stats)
			const context = await newVisitor()
			visitors.push(context)
			const page = await context.newPage()
			const at = Date.now()
			await visit(page, '/contact')
			const took = await shownWithin(stats, before + 1, at, 5_000)
			process.stderr.write(`e2e: one view shown on the open stats screen ${took} ms after the visit\n`)
		})
	})
}
