/*
 * Every redirect rule of the site (unknown paths, an id left out, the sign-in guard and its
 * redirectTo, signed-in visitors on the sign-in pages, /banner), checked on the first response
 * (redirects not followed), then a few of them in the browser the way a visitor meets them.
 */
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { APIResponse, BrowserContext } from 'playwright-core'
import { anonymousFetch, newMember, signUpByForm } from '../support/accounts.ts'
import { closeAll, h, newVisitor, sameSite, visit, waitForPath } from '../support/harness.ts'

/** Status and Location of a response, as a string that reads well in a failure message. */
async function firstHop(response: Response | APIResponse): Promise<{ status: number; location: string | null }> {
	if ('headers' in response && typeof response.headers === 'function') {
		const r = response as APIResponse
		return { status: r.status(), location: r.headers()['location'] ?? null }
	}
	const r = response as Response
	await r.arrayBuffer()
	return { status: r.status, location: r.headers.get('location') }
}

async function assertRedirect(response: Response | APIResponse, what: string, expected: string | ((location: URL) => boolean)) {
	const { status, location } = await firstHop(response)
	assert.equal(status, 302, `${what}: expected a 302, got ${status} (Location: ${location})`)
	assert.ok(location, `${what}: a 302 without Location`)
	if (typeof expected === 'string') assert.equal(location, expected, `${what}: wrong Location`)
	else assert.ok(expected(new URL(location, h.origin)), `${what}: unexpected Location ${location}`)
}

/** A Location that keeps the visitor on this site (a path; nothing a browser would read as another host). */
function assertStaysOnSite(location: string | null, what: string) {
	assert.ok(location, `${what}: no Location`)
	assert.match(location, /^\/(?![/\\])/, `${what}: Location ${location} is not a same-site path`)
	assert.equal(new URL(location, h.origin).origin, h.origin, `${what}: Location ${location} leaves the site`)
}

const signInTarget = (path: string) => (url: URL) =>
	url.origin === h.origin && url.pathname === '/auth/signin' && url.searchParams.get('redirectTo') === path

/** What an attacker might put in ?redirectTo= to send a member elsewhere after signing in. */
const HOSTILE_TARGETS = [
	'https://evil.example',
	'https://evil.example/dashboard',
	'//evil.example',
	'///evil.example',
	'/\\evil.example',
	'\\\\evil.example',
	'https:evil.example',
	' //evil.example',
	'\t//evil.example',
	'/%0D%0ALocation:https://evil.example',
	'javascript:alert(document.domain)',
	'data:text/html,<script>alert(1)</script>',
	`http://localhost.evil.example/`,
]

export function redirectSpecs() {
	describe('redirect rules', () => {
		test('an unknown path answers 302 to /', async () => {
			for (const path of ['/nope', '/une/page/qui/n-existe/pas', '/dashboardx', '/nope?utm_source=affiche', '/auth/nope/plus/loin']) {
				await assertRedirect(await anonymousFetch(path), `GET ${path}`, '/')
			}
		})

		test('/events/ without an id answers 302 to /events', async () => {
			await assertRedirect(await anonymousFetch('/events/'), 'GET /events/', '/events')
		})

		test('/dashboard/admin/events/ without an id answers 302 to /dashboard/admin/events', async () => {
			await assertRedirect(await anonymousFetch('/dashboard/admin/events/'), 'GET /dashboard/admin/events/', '/dashboard/admin/events')
		})

		test('a path with extra slashes in front never redirects to another host', async () => {
			for (const path of ['//evil.example/', '//evil.example/dashboard/', '///evil.example/', '/\\evil.example/']) {
				const response = await anonymousFetch(path)
				const { status, location } = await firstHop(response)
				assert.ok(status < 500, `GET ${path} answered ${status}`)
				if (status >= 300 && status < 400) assertStaysOnSite(location, `GET ${path}`)
			}
		})

		test('the dashboard signed out answers 302 to /auth/signin?redirectTo=<path>', async () => {
			for (const path of ['/dashboard', '/dashboard/admin', '/dashboard?onglet=contenus']) {
				await assertRedirect(await anonymousFetch(path), `GET ${path} signed out`, signInTarget(path))
			}
		})

		test('data requests for dashboard routes signed out carry no member data', async () => {
			for (const path of ['/dashboard.data', '/dashboard/admin.data']) {
				const response = await anonymousFetch(path)
				const body = await response.text()
				assert.ok(response.status < 500, `GET ${path} answered ${response.status}`)
				assert.doesNotMatch(body, /@example\.test/, `GET ${path} signed out leaks an address: ${body.slice(0, 300)}`)
			}
		})

		test('/banner without a link-in-bio address answers 302 to /', async () => {
			await assertRedirect(await anonymousFetch('/banner'), 'GET /banner', '/')
		})
	})

	describe('redirect rules for a signed-in member', () => {
		const member = newMember('Maël')
		let context: BrowserContext

		before(async () => {
			context = await newVisitor()
			await signUpByForm(context, member)
		})
		after(() => closeAll(context))

		test('/auth/signin and /auth/signup signed in answer 302 to /dashboard', async () => {
			for (const path of ['/auth/signin', '/auth/signup']) {
				await assertRedirect(await context.request.get(path, { maxRedirects: 0 }), `GET ${path} signed in`, '/dashboard')
			}
		})

		test('/auth/signin?redirectTo=<hostile> signed in never leaves the site', async () => {
			for (const target of HOSTILE_TARGETS) {
				const path = `/auth/signin?${new URLSearchParams({ redirectTo: target })}`
				const response = await context.request.get(path, { maxRedirects: 0 })
				assert.equal(response.status(), 302, `GET ${path} signed in: ${response.status()}`)
				assertStaysOnSite(response.headers()['location'] ?? null, `GET ${path} signed in`)
			}
		})

		test('signing in with a hostile redirectTo lands on the site', async () => {
			const visitor = await newVisitor()
			try {
				for (const target of HOSTILE_TARGETS) {
					const response = await visitor.request.post('/auth/signin', {
						form: { email: member.email, password: member.password, redirectTo: target },
						headers: sameSite(),
						maxRedirects: 0,
					})
					assert.equal(response.status(), 302, `sign-in with redirectTo=${target}: ${response.status()}`)
					assertStaysOnSite(response.headers()['location'] ?? null, `sign-in with redirectTo=${JSON.stringify(target)}`)
					// Signed in now: sign out again for the next attempt.
					await visitor.clearCookies()
				}
			} finally {
				await closeAll(visitor)
			}
		})
	})

	describe('redirectTo in the browser', () => {
		const member = newMember('Inès')
		let context: BrowserContext

		before(async () => {
			context = await newVisitor()
			await signUpByForm(context, member)
			await context.clearCookies()
		})
		after(() => closeAll(context))

		test('after signing in from a redirect, the member lands on the page they asked for', async () => {
			const page = await context.newPage()
			await visit(page, '/dashboard?onglet=contenus')
			await waitForPath(page, signInTarget('/dashboard?onglet=contenus'))
			await page.getByLabel('Adresse e-mail').fill(member.email)
			await page.getByLabel('Mot de passe').fill(member.password)
			await page.getByRole('button', { name: 'Se connecter' }).click()
			await waitForPath(page, (url) => url.pathname === '/dashboard' && url.searchParams.get('onglet') === 'contenus')
			await page.getByRole('heading', { level: 1, name: `Bonjour ${member.firstName} !` }).waitFor()
			await page.close()
			await context.clearCookies()
		})

		test('/auth/signin?redirectTo=https://evil.example signs in onto the site itself', async () => {
			const page = await context.newPage()
			const response = await visit(page, '/auth/signin?redirectTo=https%3A%2F%2Fevil.example')
			assert.equal(response.status(), 200)
			await page.getByLabel('Adresse e-mail').fill(member.email)
			await page.getByLabel('Mot de passe').fill(member.password)
			await page.getByRole('button', { name: 'Se connecter' }).click()
			await waitForPath(page, (url) => url.pathname === '/dashboard')
			assert.equal(new URL(page.url()).origin, h.origin)
			// Closed once the dashboard has loaded: closing the page at the navigation's commit, while the
			// dashboard was still loading, left page.close() waiting for ever once in a few runs.
			await page.getByRole('heading', { level: 1, name: `Bonjour ${member.firstName} !` }).waitFor()
			await page.close()
		})

		test('the session cookie is HttpOnly and SameSite', async () => {
			const cookies = await context.cookies()
			const session = cookies.find((c) => /session/i.test(c.name) && !/data|cache/i.test(c.name))
			assert.ok(session, `no session cookie among ${cookies.map((c) => c.name).join(', ')}`)
			assert.equal(session.httpOnly, true, `${session.name} must be HttpOnly`)
			assert.ok(['Lax', 'Strict'].includes(session.sameSite), `${session.name} is SameSite=${session.sameSite}`)
		})
	})
}
