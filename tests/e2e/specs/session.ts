/*
 * The session across tabs: two pages of one browser share the session cookie; signing out (or in)
 * in one makes the other follow. A dashboard page follows without a reload (the app broadcasts auth
 * changes and revalidates); the sign-in page runs no React (app/hydration.ts): its small island
 * hears the same broadcast and loads the page again, which the server answers with the dashboard.
 */
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { BrowserContext, Page } from 'playwright-core'
import { newMember, signUpByForm } from '../support/accounts.ts'
import { closeAll, newVisitor, pathOf, visit, waitForPath } from '../support/harness.ts'

/** Marks the page's JavaScript world: a full reload would lose the mark. */
async function mark(page: Page): Promise<void> {
	await page.evaluate(() => {
		;(window as { __e2eMark?: string }).__e2eMark = 'same document'
	})
}

async function assertNotReloaded(page: Page, what: string): Promise<void> {
	const markValue = await page.evaluate(() => (window as { __e2eMark?: string }).__e2eMark)
	assert.equal(markValue, 'same document', `${what}: the page was reloaded instead of following the session change`)
}

export function sessionSpecs() {
	describe('the session across tabs', () => {
		const member = newMember('Yanis')
		let context: BrowserContext

		before(async () => {
			context = await newVisitor()
			await signUpByForm(context, member)
		})
		after(() => closeAll(context))

		test('signing out in one tab makes the other leave the dashboard without a reload', async () => {
			const first = await context.newPage()
			const second = await context.newPage()
			await visit(first, '/dashboard')
			await visit(second, '/dashboard')
			await second.getByRole('heading', { level: 1, name: `Bonjour ${member.firstName} !` }).waitFor()
			await mark(second)

			await first.getByRole('button', { name: 'Se déconnecter' }).click()
			await waitForPath(first, (url) => url.pathname === '/')

			try {
				await waitForPath(second, (url) => !url.pathname.startsWith('/dashboard'), 10_000)
			} catch {
				assert.fail(`the other tab stayed on ${pathOf(second)} after signing out in the first one`)
			}
			assert.equal(pathOf(second), '/auth/signin?redirectTo=%2Fdashboard')
			await second.getByRole('heading', { level: 1, name: 'Connexion' }).waitFor()
			await assertNotReloaded(second, 'sign-out in another tab')
			await first.close()
			await second.close()
		})

		test('signing in in one tab takes the other from the sign-in page to the dashboard (a new page load: the sign-in page has no React)', async () => {
			const first = await context.newPage()
			const second = await context.newPage()
			await visit(first, '/auth/signin')
			await visit(second, '/auth/signin')
			await mark(second)

			await first.getByLabel('Adresse e-mail').fill(member.email)
			await first.getByLabel('Mot de passe').fill(member.password)
			await first.getByRole('button', { name: 'Se connecter' }).click()
			await waitForPath(first, (url) => url.pathname === '/dashboard')

			try {
				await waitForPath(second, (url) => url.pathname === '/dashboard', 10_000)
			} catch {
				assert.fail(`the other tab stayed on ${pathOf(second)} after signing in in the first one`)
			}
			await second.getByRole('heading', { level: 1, name: `Bonjour ${member.firstName} !` }).waitFor()
			const markValue = await second.evaluate(() => (window as { __e2eMark?: string }).__e2eMark)
			assert.equal(markValue, undefined, 'the sign-in page followed without a page load: it should have no React to do so')
			await first.close()
			await second.close()
		})
	})
}
