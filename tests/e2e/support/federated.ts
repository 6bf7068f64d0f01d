/* Signing in with the OpenID Connect provider the way a person does: the site's button, the provider's pages. */
import assert from 'node:assert/strict'
import type { BrowserContext, Page } from 'playwright-core'
import { h, visit } from './harness.ts'
import { t } from './i18n.ts'
import type { OidcUser } from './oidc.ts'

export interface ProviderTrip {
	/** The provider pages shown on the way, in order (`login`, `consent`). */
	prompts: string[]
	/** Where the browser came back to on the site (path and query). */
	landedOn: URL
}

/** The label of the site's button for the test provider: « Continuer avec <OIDC_NAME> ». */
export function providerButtonName(): string {
	return t('auth.signin.withProvider', { provider: h.oidc.name })
}

/** One of the provider's interaction pages (its sign-in form or its consent page). */
function onProvider(url: URL): boolean {
	return url.origin === h.oidc.origin && /^\/interaction\/[^/]+$/.test(url.pathname)
}

/**
 * From the page shown in `page` (the sign-in page, or the settings with `button` « Relier … »),
 * clicks the provider's button and goes through whatever the provider asks: its sign-in form
 * (typing `user`'s login) and its consent page, answered with `decision`. Returns once the
 * browser is back on the site, at another address than the one it started from.
 */
export async function continueWithProvider(
	page: Page,
	user: OidcUser,
	decision: 'allow' | 'deny',
	button = providerButtonName(),
): Promise<ProviderTrip> {
	const prompts: string[] = []
	const start = new URL(page.url())
	const backOnSite = (url: URL) =>
		url.origin === h.origin &&
		// Passing through the callback; Better Auth's own error page (/api/auth/error) counts as back.
		!url.pathname.startsWith('/api/auth/callback/') &&
		!url.pathname.startsWith('/auth/social') &&
		url.href !== start.href
	await page.getByRole('button', { name: button }).click()
	for (let step = 0; step < 6; step++) {
		await page.waitForURL((url) => onProvider(url) || backOnSite(url), { waitUntil: 'load', timeout: 20_000 })
		const url = new URL(page.url())
		if (backOnSite(url)) return { prompts, landedOn: url }
		const heading = await page.getByRole('heading', { level: 1 }).innerText()
		if (await page.getByLabel('Identifiant').count()) {
			prompts.push('login')
			await page.getByLabel('Identifiant').fill(user.login)
			await Promise.all([
				page.waitForURL((next) => next.href !== url.href, { waitUntil: 'commit' }),
				page.getByRole('button', { name: 'Se connecter' }).click(),
			])
		} else if (await page.getByRole('button', { name: 'Autoriser' }).count()) {
			prompts.push('consent')
			await Promise.all([
				page.waitForURL((next) => next.href !== url.href, { waitUntil: 'commit' }),
				page.getByRole('button', { name: decision === 'allow' ? 'Autoriser' : 'Refuser' }).click(),
			])
		} else {
			assert.fail(`unexpected provider page « ${heading} » at ${url.href}: ${(await page.locator('body').innerText()).slice(0, 500)}`)
		}
	}
	assert.fail(`still going back and forth with the provider after 6 pages (${page.url()}; prompts ${prompts.join(', ')})`)
}

/** Opens the sign-in page and goes through the provider (see continueWithProvider). */
export async function signInWithProvider(page: Page, user: OidcUser, decision: 'allow' | 'deny' = 'allow'): Promise<ProviderTrip> {
	await visit(page, '/auth/signin')
	return continueWithProvider(page, user, decision)
}

export interface MeAnswer {
	status: number
	id?: string
	name?: string
	email?: string
	emailVerified?: boolean
}

/** GET /api/me in this context (the profile of whoever the session belongs to, or 401). */
export async function me(context: BrowserContext): Promise<MeAnswer> {
	const response = await context.request.get('/api/me')
	if (response.status() !== 200) return { status: response.status() }
	return { status: 200, ...((await response.json()) as Omit<MeAnswer, 'status'>) }
}

/** The sign-in methods of the session's account, as the member's own data export lists them. */
export async function signInMethods(context: BrowserContext): Promise<string[]> {
	const response = await context.request.get('/dashboard/settings/export')
	assert.equal(response.status(), 200, `the data export answered ${response.status()}: ${(await response.text()).slice(0, 300)}`)
	const data = (await response.json()) as { signInMethods: { provider: string }[] }
	return data.signInMethods.map((m) => m.provider).sort()
}
