/*
 * The admin area: a member gets a French 403 page and not one byte of admin data, whatever the
 * request; the admin (address in ADMIN_EMAILS, confirmed from the mail) gets the stats screen.
 */
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { BrowserContext } from 'playwright-core'
import { admin, newMember, signInAdmin, signUpByForm } from '../support/accounts.ts'
import { audit } from '../support/axe.ts'
import { closeAll, newVisitor, visit, waitForPath } from '../support/harness.ts'
import { t } from '../support/i18n.ts'

/** Texts only the admin's stats screen shows: none may reach a member. */
function adminOnlyTexts(): string[] {
	return [t('stats.title'), t('stats.members.total'), t('stats.members.verified'), t('stats.audience.topPages'), admin.name, admin.email]
}

function assertNoAdminData(body: string, what: string) {
	for (const text of adminOnlyTexts()) {
		assert.ok(!body.includes(text), `${what} contains admin data: « ${text} »`)
	}
	// The stats screen's loader data (its sources' results), in any serialisation.
	assert.doesNotMatch(body, /"(results|series|rankings)"/, `${what} carries the admin loader's data`)
}

export function adminSpecs() {
	describe('the admin area', () => {
		const member = newMember('Noé')
		let adminContext: BrowserContext
		let memberContext: BrowserContext

		before(async () => {
			// The admin exists first, so that there is someone whose data could leak.
			adminContext = await newVisitor()
			await signInAdmin(adminContext)
			memberContext = await newVisitor()
			await signUpByForm(memberContext, member)
		})
		after(() => closeAll(adminContext, memberContext))

		test('a signed-in member gets the French 403 page on /dashboard/admin, without admin data', async () => {
			const page = await memberContext.newPage()
			const response = await visit(page, '/dashboard/admin')
			assert.equal(response.status(), 403)
			assert.equal(new URL(page.url()).pathname, '/dashboard/admin')
			await page.getByRole('heading', { level: 1, name: 'Accès réservé' }).waitFor()
			assertNoAdminData(await page.content(), 'the 403 page (DOM)')
			assertNoAdminData(await response.text(), 'the 403 document')
			await audit(page, '403')
			await page.close()
		})

		test('the member sees no link to the admin area', async () => {
			const page = await memberContext.newPage()
			await visit(page, '/dashboard')
			await page.getByRole('heading', { level: 1, name: `Bonjour ${member.firstName} !` }).waitFor()
			assert.equal(await page.getByRole('link', { name: t('dashboard.nav.admin') }).count(), 0)
			await page.close()
		})

		test('no request of a member gets admin data: neither the document nor the data requests', async () => {
			const document = await memberContext.request.get('/dashboard/admin', { maxRedirects: 0 })
			assert.equal(document.status(), 403)
			assertNoAdminData(await document.text(), 'GET /dashboard/admin')

			for (const path of [
				'/dashboard/admin.data',
				'/dashboard/admin/stats.data',
				'/dashboard/admin/stats.data?_routes=routes%2Fadmin%2Fstats',
				'/dashboard/admin/stats.csv',
				'/dashboard/admin/live?topic=stats',
			]) {
				const response = await memberContext.request.get(path, { maxRedirects: 0 })
				assert.notEqual(response.status(), 200, `GET ${path} as a member answered 200`)
				assertNoAdminData(await response.text(), `GET ${path}`)
			}
		})

		test('the admin listed in ADMIN_EMAILS signs in from a redirect and lands on the stats screen', async () => {
			await adminContext.clearCookies()
			const page = await adminContext.newPage()
			await visit(page, '/dashboard/admin')
			await waitForPath(page, (url) => url.pathname === '/auth/signin' && url.searchParams.get('redirectTo') === '/dashboard/admin')
			await page.getByLabel('Adresse e-mail').fill(admin.email)
			await page.getByLabel('Mot de passe').fill(admin.password)
			await page.getByRole('button', { name: 'Se connecter' }).click()
			await waitForPath(page, (url) => url.pathname === '/dashboard/admin/stats')
			await page.getByRole('heading', { level: 1, name: t('stats.title') }).waitFor()
			const text = await page.locator('main').innerText()
			assert.ok(text.includes(t('stats.members.total')), 'the stats screen shows the member count')
			await page.close()
		})

		test('the admin’s tabs are links that navigate in the page, by mouse and by keyboard, and Back returns (components/route-link.tsx)', async () => {
			const page = await adminContext.newPage()
			await visit(page, '/dashboard/admin/stats')
			// Gone with the page if a click loaded a new document instead of navigating in this one.
			await page.evaluate(() => Object.assign(window, { samePage: true }))
			const samePage = () => page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage === true)
			await page
				.getByRole('navigation', { name: t('admin.nav.label') })
				.getByRole('link', { name: t('admin.nav.events') })
				.click()
			await waitForPath(page, (url) => url.pathname === '/dashboard/admin/events')
			await page.getByRole('heading', { level: 1, name: t('admin.events.title') }).waitFor()
			assert.ok(await samePage(), 'the admin’s tab navigated in the page')
			const current = page.getByRole('navigation', { name: t('admin.nav.label') }).getByRole('link', { name: t('admin.nav.events') })
			assert.equal(await current.getAttribute('aria-current'), 'page', 'the tab of the page shown is the current one')
			const past = page
				.getByRole('navigation', { name: t('admin.events.tabsLabel') })
				.getByRole('link', { name: new RegExp(`^${t('admin.events.tabs.past')}`) })
			await past.focus()
			await page.keyboard.press('Enter')
			await waitForPath(page, (url) => url.pathname === '/dashboard/admin/events' && url.searchParams.get('tab') === 'past')
			await page.getByRole('heading', { level: 2, name: t('admin.events.tabs.past') }).waitFor({ state: 'attached' })
			assert.ok(await samePage(), 'Enter on a list’s tab navigated in the page')
			await audit(page, 'admin events, past')
			await page.goBack()
			await waitForPath(page, (url) => url.pathname === '/dashboard/admin/events' && !url.searchParams.has('tab'))
			assert.ok(await samePage(), 'Back came to the list in the page')
			await page.close()
		})

		test('the event editor’s required status <select> starts with an empty placeholder option (valid HTML)', async () => {
			const page = await adminContext.newPage()
			await visit(page, '/dashboard/admin/events/new')
			const select = page.getByLabel(t('admin.events.fields.status'))
			assert.equal(await select.getAttribute('required'), '', 'the status is required')
			const first = select.locator('option').first()
			assert.equal(await first.getAttribute('value'), '')
			assert.equal(await first.innerText(), t('admin.events.fields.statusPlaceholder'))
			assert.equal(await select.inputValue(), 'scheduled', 'a new event starts « programmé »')
			await page.close()
		})
	})
}
