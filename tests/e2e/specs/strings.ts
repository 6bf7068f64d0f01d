/*
 * The browser's strings: a page that runs React downloads only the units of translation.json its
 * routes declare (app/i18n/route-strings.ts), as immutable, pre-compressed files, never the whole
 * file; a client-side navigation to a screen that needs more loads it before that screen shows, so
 * that no raw key (`auth.signin.title`) ever reaches the page, not even for a moment. A public page
 * runs no React (app/hydration.ts) and downloads none. The string files are slowed down here so
 * that a screen shown too early would be seen.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, describe, test } from 'node:test'
import type { BrowserContext, Page } from 'playwright-core'
import { newMember, signUpByForm } from '../support/accounts.ts'
import { closeAll, h, hydrated, newVisitor, ROOT, SEQUENTIAL, visit, waitForPath } from '../support/harness.ts'
import { t } from '../support/i18n.ts'

const STRINGS_PATH = /^\/assets\/strings\/[\w-]+\/([\w.]+)\.json$/
/** Units that only the admin's screens need (setlist and newsletter: but for their public groups). */
const ADMIN_ONLY = /^(admin|setlist|newsletter|stats)(\.|$)/

/**
 * A translation key as it would show if a string were missing: a namespace, a dot, a lower-case
 * name (`auth.signin`; a sentence that ends on « newsletter. » before the next one starts is not).
 */
const RAW_KEY = new RegExp(
	`\\b(?:${Object.keys(JSON.parse(fs.readFileSync(path.join(ROOT, 'public/locales/fr-FR/translation.json'), 'utf8')) as object).join('|')})\\.[a-z0-9][A-Za-z0-9_]*`,
)

/** Records the string files a page asks for, and slows them down. */
async function watchStrings(page: Page) {
	const units: string[] = []
	const wholeFile: string[] = []
	await page.route(/\/assets\/strings\//, async (route) => {
		await new Promise((resolve) => setTimeout(resolve, 400))
		await route.continue()
	})
	page.on('request', (request) => {
		const { pathname } = new URL(request.url())
		const unit = STRINGS_PATH.exec(pathname)?.[1]
		if (unit) units.push(unit)
		if (pathname.startsWith('/locales/')) wholeFile.push(pathname)
	})
	return { units, wholeFile }
}

/** From now on, notes every raw key that appears in the page's text or in a label or placeholder. */
async function watchForRawKeys(page: Page) {
	await page.evaluate((source) => {
		const pattern = new RegExp(source)
		const seen: string[] = []
		;(window as { __rawKeys?: string[] }).__rawKeys = seen
		const check = (node: Node) => {
			const texts = [node.nodeType === Node.TEXT_NODE ? node.textContent : null]
			if (node instanceof Element) {
				texts.push(node.textContent, ...['aria-label', 'placeholder', 'title', 'alt'].map((name) => node.getAttribute(name)))
			}
			for (const text of texts) {
				const match = text ? pattern.exec(text) : null
				if (match) seen.push(match[0])
			}
		}
		new MutationObserver((records) => {
			for (const record of records) {
				if (record.type === 'characterData' || record.type === 'attributes') check(record.target)
				for (const node of record.addedNodes) check(node)
			}
		}).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true })
	}, RAW_KEY.source)
}

async function rawKeysSeen(page: Page): Promise<string[]> {
	const now = await page.evaluate((source) => {
		const match = new RegExp(source).exec(document.body.innerText)
		return match ? [match[0]] : []
	}, RAW_KEY.source)
	return [...(await page.evaluate(() => (window as { __rawKeys?: string[] }).__rawKeys ?? [])), ...now]
}

/** Marks the page's JavaScript world: a full reload would lose the mark. */
async function sameDocument(page: Page): Promise<() => Promise<boolean>> {
	await page.evaluate(() => ((window as { __stringsMark?: boolean }).__stringsMark = true))
	return () => page.evaluate(() => (window as { __stringsMark?: boolean }).__stringsMark === true)
}

export function stringsSpecs() {
	describe('the strings a page downloads', SEQUENTIAL, () => {
		const contexts: BrowserContext[] = []
		after(() => closeAll(...contexts))

		test('a public page loads no strings (it sends no script), and its links are full navigations to pages rendered whole', async () => {
			const context = await newVisitor()
			contexts.push(context)
			const page = await context.newPage()
			const strings = await watchStrings(page)
			const response = await visit(page, '/events')
			assert.equal(response.status(), 200)
			// The server rendered every word (app/hydration.ts): nothing for the browser to fetch.
			assert.deepEqual(strings.wholeFile, [], 'the whole translation file was downloaded')
			assert.deepEqual(strings.units, [], `/events downloaded strings: ${strings.units.join(', ')}`)
			assert.deepEqual(await rawKeysSeen(page), [])

			// To the sign-in page through the header's link: a new document, with every word in it.
			const stillSameDocument = await sameDocument(page)
			await page.getByRole('link', { name: t('site.nav.signIn') }).click()
			await waitForPath(page, (url) => url.pathname === '/auth/signin')
			await page.getByRole('heading', { level: 1, name: t('auth.signin.title') }).waitFor()
			await page.getByLabel(t('auth.fields.email')).waitFor()
			assert.equal(await stillSameDocument(), false, 'the sign-in page came by a client-side navigation: it should be a full one')
			await watchForRawKeys(page)
			assert.deepEqual(strings.units, [], `/auth/signin downloaded strings: ${strings.units.join(', ')}`)
			assert.deepEqual(await rawKeysSeen(page), [], 'a raw key shows on the sign-in page')
		})

		test('the dashboard loads no admin strings, and its settings screen comes with its own', async () => {
			const setup = await newVisitor()
			contexts.push(setup)
			const member = newMember('Inès')
			await signUpByForm(setup, member)
			// A context of its own with the session only: nothing in its cache yet.
			const context = await newVisitor({ storageState: await setup.storageState() })
			contexts.push(context)
			const page = await context.newPage()
			const strings = await watchStrings(page)
			await visit(page, '/dashboard')
			await page.getByRole('heading', { level: 1, name: `Bonjour ${member.firstName} !` }).waitFor()
			assert.deepEqual(strings.wholeFile, [])
			assert.ok(strings.units.includes('dashboard'), `units of /dashboard: ${strings.units.join(', ')}`)
			// The home's newsletter card brings its own units (its labels module also names the admin's
			// campaign statuses, as on the settings screen); nothing else of the admin or the settings.
			const newsletterCard = new Set(['newsletter.setting', 'newsletter.status', 'newsletter.admin'])
			const foreign = strings.units.filter((unit) => (ADMIN_ONLY.test(unit) && !newsletterCard.has(unit)) || unit === 'settings')
			assert.deepEqual(foreign, [], `/dashboard downloaded strings it does not show: ${foreign.join(', ')}`)
			assert.equal(new Set(strings.units).size, strings.units.length, `a unit was downloaded twice: ${strings.units.join(', ')}`)

			// The files: cached for good, pre-compressed.
			const file = await page.request.get(`${h.origin}${await unitUrl(page, 'dashboard')}`, { headers: { 'accept-encoding': 'br, gzip' } })
			assert.equal(file.status(), 200)
			assert.match(file.headers()['cache-control'] ?? '', /immutable/)
			assert.equal(file.headers()['content-encoding'], 'br')

			const stillSameDocument = await sameDocument(page)
			await watchForRawKeys(page)
			await page.getByRole('link', { name: t('dashboard.nav.settings') }).click()
			await waitForPath(page, (url) => url.pathname === '/dashboard/settings')
			await page.getByRole('heading', { level: 1, name: t('settings.title') }).waitFor()
			await hydrated(page)
			assert.ok(await stillSameDocument(), 'the settings page was loaded as a new document')
			assert.ok(strings.units.includes('settings'))
			assert.deepEqual(await rawKeysSeen(page), [], 'a raw key showed during or after the navigation')
		})
	})
}

/** The address of one unit's file, as the page's own code builds it (its version is the build's). */
async function unitUrl(page: Page, unit: string): Promise<string> {
	const version = await page.evaluate(() =>
		performance
			.getEntriesByType('resource')
			.map((entry) => new URL(entry.name).pathname)
			.find((pathname) => pathname.startsWith('/assets/strings/')),
	)
	assert.ok(version, 'no string file in the page’s resources')
	return version.replace(/[\w.]+\.json$/, `${unit}.json`)
}
