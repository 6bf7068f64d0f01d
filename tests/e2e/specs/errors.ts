/* The French 404 page, and where /banner goes when no link-in-bio address is configured. */
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { BrowserContext } from 'playwright-core'
import { audit } from '../support/axe.ts'
import { closeAll, newVisitor, visit, waitForPath } from '../support/harness.ts'
import { t } from '../support/i18n.ts'

export function errorSpecs() {
	describe('error pages and /banner', () => {
		let context: BrowserContext
		before(async () => {
			context = await newVisitor()
		})
		after(() => closeAll(context))

		test('a form POSTed to an unknown path gets the French 404 page with status 404', async () => {
			const page = await context.newPage()
			await visit(page, '/')
			const [response] = await Promise.all([
				page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/nope'),
				page.evaluate(() => {
					const form = document.createElement('form')
					form.method = 'post'
					form.action = '/nope'
					const field = document.createElement('input')
					field.name = 'message'
					field.value = 'bonjour'
					form.append(field)
					document.body.append(form)
					form.submit()
				}),
			])
			assert.equal(response.status(), 404)
			await page.waitForURL((url) => url.pathname === '/nope')
			await page.waitForLoadState('load')
			await page.getByRole('heading', { level: 1, name: t('errors.notFound.title') }).waitFor()
			assert.ok((await page.locator('body').innerText()).includes(t('errors.notFound.body')))
			await page.getByRole('link', { name: t('errors.backHome') }).waitFor()
			assert.equal(await page.evaluate(() => document.documentElement.lang), 'fr')
			await audit(page, '404')

			// The way back works.
			await page.getByRole('link', { name: t('errors.backHome') }).click()
			await waitForPath(page, (url) => url.pathname === '/')
			await page.close()
		})

		test('a visitor opening /banner without a link-in-bio address lands on the landing page', async () => {
			const page = await context.newPage()
			const response = await page.goto('/banner')
			assert.ok(response)
			assert.equal(new URL(page.url()).pathname, '/')
			assert.equal(response.status(), 200)
			assert.equal(response.request().redirectedFrom()?.url(), new URL('/banner', page.url()).href)
			await page.close()
		})
	})
}
