/*
 * The stage view without a network, in Chromium (docs/decisions/0021-stage-view-offline.md): opened
 * once online, a setlist's stage view opens again with the network off, with when that version was
 * saved; a setlist never opened shows a French page instead of the browser's error; a session gone
 * without a sign-out drops every copy at the next online visit; a sign-out clears them, so that the
 * stage address shows nothing offline. Screenshots at 375 and 1280 px go to E2E_SHOTS_DIR when set.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import type { BrowserContext, Page } from 'playwright-core'
import { anonymousFetch, signInAdmin } from '../support/accounts.ts'
import { closeAll, hydrated, newVisitor, SEQUENTIAL, visit, waitForPath } from '../support/harness.ts'
import { t } from '../support/i18n.ts'

const SHOTS = process.env.E2E_SHOTS_DIR
const WORKER = '/dashboard/admin/setlist/stage-worker.js'
const KEPT_SONGS = ['Nuit blanche', 'Dernier métro']
const OTHER_SONG = 'Jamais jouée'

async function shoot(page: Page, name: string): Promise<void> {
	if (!SHOTS) return
	fs.mkdirSync(SHOTS, { recursive: true })
	for (const width of [375, 1280]) {
		await page.setViewportSize({ width, height: width === 375 ? 812 : 900 })
		await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true, animations: 'disabled' })
	}
	await page.setViewportSize({ width: 1280, height: 900 })
}

async function addSong(page: Page, title: string): Promise<void> {
	await visit(page, '/dashboard/admin/setlist/songs/new')
	await page.getByLabel(t('setlist.song.fields.title')).fill(title)
	await page.getByLabel(t('setlist.song.fields.duration')).fill('3:15')
	await page.getByRole('button', { name: t('setlist.song.create') }).click()
	await waitForPath(page, (url) => url.pathname === '/dashboard/admin/setlist/songs')
}

/** Makes a setlist of these songs, saved; returns its stage view's path. */
async function addSetlist(page: Page, name: string, songs: string[]): Promise<string> {
	await visit(page, '/dashboard/admin/setlist')
	await page.getByLabel(t('setlist.list.newName')).fill(name)
	await page.getByRole('button', { name: t('setlist.list.create') }).click()
	await waitForPath(page, (url) => /^\/dashboard\/admin\/setlist\/[\w-]{12}$/.test(url.pathname))
	await hydrated(page)
	for (const title of songs) await page.getByRole('button', { name: t('setlist.builder.addSong', { title }) }).click()
	await page.getByRole('button', { name: t('setlist.builder.save') }).click()
	await page.getByText(t('setlist.builder.allSaved')).waitFor()
	return `${new URL(page.url()).pathname}/stage`
}

/** Asks the page until `check` (awaited there) is true; waitForFunction would not await a promise. */
async function until(page: Page, what: string, check: (arg: string) => Promise<boolean>, arg = ''): Promise<void> {
	const deadline = Date.now() + 15_000
	while (!(await page.evaluate(check, arg))) {
		if (Date.now() > deadline) throw new Error(`still not so after 15 s: ${what}`)
		await new Promise((resolve) => setTimeout(resolve, 200))
	}
}

/** Waits until the worker has kept this stage view and the files it named (its « keep » is done). */
async function keptOnThisDevice(page: Page, stagePath: string): Promise<void> {
	await until(
		page,
		`the worker kept ${stagePath}`,
		async (stagePath) => {
			const kept = await (await caches.open('stage-pages-v1')).match(stagePath)
			const files = await (await caches.open('stage-assets-v1')).keys()
			return Boolean(kept?.headers.get('x-stage-assets')) && files.some((file) => file.url.endsWith('.css'))
		},
		stagePath,
	)
}

/** What a page shows, or '' when the browser could not open it at all. */
async function shownText(page: Page, address: string): Promise<string> {
	try {
		await page.goto(address)
	} catch {
		// Offline without a worker: Chromium's own error page (net::ERR_INTERNET_DISCONNECTED).
	}
	return page
		.locator('body')
		.innerText()
		.catch(() => '')
}

/** « Version enregistrée le … à … » for an instant, written as the site writes dates in Paris time. */
function savedAtLine(instant: Date): string {
	const date = new Intl.DateTimeFormat('fr-FR', {
		weekday: 'long',
		day: 'numeric',
		month: 'long',
		year: 'numeric',
		timeZone: 'Europe/Paris',
	}).format(instant)
	const parts = new Intl.DateTimeFormat('fr-FR', { hour: 'numeric', minute: '2-digit', timeZone: 'Europe/Paris' }).formatToParts(instant)
	const hour = Number(parts.find((p) => p.type === 'hour')?.value)
	const minute = parts.find((p) => p.type === 'minute')?.value ?? '00'
	return t('setlist.stage.savedAt', { date, time: minute === '00' ? `${hour} h` : `${hour} h ${minute}` })
}

export function stageOfflineSpecs() {
	describe('the stage view without a network', SEQUENTIAL, () => {
		let context: BrowserContext
		let page: Page
		let keptPath = ''
		let otherPath = ''
		let savedLine = ''

		before(async () => {
			context = await newVisitor()
			await signInAdmin(context)
			page = await context.newPage()
			for (const title of [...KEPT_SONGS, OTHER_SONG]) await addSong(page, title)
			const before = new Date()
			keptPath = await addSetlist(page, 'Concert à Lyon', KEPT_SONGS)
			const after = new Date()
			// The save took less than a minute: its line reads as one of these two minutes.
			savedLine = [savedAtLine(before), savedAtLine(after)].join(' | ')
			otherPath = await addSetlist(page, 'Jamais ouverte', [OTHER_SONG])
		})
		after(() => closeAll(context))

		test('the worker script: a script for admins only, never kept by a cache', async () => {
			for (let i = 0; i < 2; i++) {
				const anonymous = await anonymousFetch(WORKER)
				assert.equal(anonymous.status, 302, 'a visitor signed out is sent to sign in')
				assert.match(anonymous.headers.get('location') ?? '', /^\/auth\/signin\?/)
				assert.equal(anonymous.headers.get('x-page-cache'), null)
			}
			const response = await context.request.get(WORKER)
			assert.equal(response.status(), 200)
			const headers = response.headers()
			assert.match(headers['content-type'] ?? '', /^text\/javascript/)
			assert.match(headers['cache-control'] ?? '', /\bno-(?:cache|store)\b/)
			assert.equal(headers['x-page-cache'], undefined)
			assert.equal(headers['service-worker-allowed'], undefined, 'the scope stays the setlists folder at most')
			assert.match(await response.text(), /^const STAGE = \{/)
		})

		test('opened once, a stage view opens again offline, with when that version was saved', async () => {
			const online = await visit(page, keptPath)
			assert.equal(online.status(), 200)
			const saved = page.getByText(/^Version enregistrée le /)
			const savedText = await saved.innerText()
			assert.ok(savedLine.split(' | ').includes(savedText), `« ${savedText} » is one of « ${savedLine} »`)
			await keptOnThisDevice(page, keptPath)
			await shoot(page, 'stage-online')

			await context.setOffline(true)
			try {
				const offline = await page.reload()
				assert.ok(offline, 'no response offline')
				assert.equal(offline.status(), 200)
				assert.ok(offline.fromServiceWorker(), 'the page came from the stage worker')
				await page.getByRole('heading', { level: 1, name: 'Concert à Lyon' }).waitFor()
				for (const title of KEPT_SONGS) await page.getByText(title, { exact: true }).waitFor()
				assert.equal(await page.getByText(/^Version enregistrée le /).innerText(), savedText)
				// Its stylesheet came from the copy too: large type on black.
				const background = await page.locator('main').evaluate((main) => getComputedStyle(main).backgroundColor)
				assert.equal(background, 'rgb(0, 0, 0)')
				// It even hydrates from the copy, and says it is offline.
				await hydrated(page)
				await page
					.getByRole('status')
					.filter({ hasText: t('setlist.stage.offlineCopy') })
					.waitFor()
				await shoot(page, 'stage-offline')
			} finally {
				await context.setOffline(false)
			}
		})

		test('offline, a setlist never opened on this device shows a French page that says so', async () => {
			await context.setOffline(true)
			try {
				const response = await page.goto(otherPath)
				assert.ok(response)
				assert.equal(response.status(), 503)
				await page.getByRole('heading', { level: 1, name: t('setlist.stage.offline.title') }).waitFor()
				await page.getByText(t('setlist.stage.offline.body')).waitFor()
				assert.equal(await page.locator('html').getAttribute('lang'), 'fr')
				assert.equal(await page.getByText(OTHER_SONG).count(), 0)
				// What this device kept is one tap away.
				await page.getByRole('link', { name: 'Concert à Lyon' }).click()
				await page.getByRole('heading', { level: 1, name: 'Concert à Lyon' }).waitFor()
				assert.equal(new URL(page.url()).pathname, keptPath)
				await page.goto(otherPath)
				await shoot(page, 'stage-offline-never-opened')
			} finally {
				await context.setOffline(false)
			}
		})

		test('a session gone without a sign-out: the next visit online drops every copy', async () => {
			await context.clearCookies()
			const response = await page.goto(keptPath)
			assert.ok(response)
			assert.equal(new URL(page.url()).pathname, '/auth/signin')
			await context.setOffline(true)
			try {
				const text = await shownText(page, keptPath)
				for (const title of KEPT_SONGS) assert.ok(!text.includes(title), `« ${title} » shown offline after the session ended`)
				assert.ok(text.includes(t('setlist.stage.offline.noneKept')), `the offline page says nothing is kept (got: ${text})`)
			} finally {
				await context.setOffline(false)
			}
		})

		test('after a sign-out, the stage address shows no setlist offline', async () => {
			await signInAdmin(context)
			await visit(page, keptPath)
			await keptOnThisDevice(page, keptPath)
			await visit(page, '/dashboard')
			await page.getByRole('button', { name: t('dashboard.signOut') }).click()
			await waitForPath(page, (url) => url.pathname === '/')
			await until(page, 'no service worker left', async () => (await navigator.serviceWorker.getRegistrations()).length === 0)
			assert.deepEqual(await page.evaluate(() => caches.keys()), [])
			await context.setOffline(true)
			try {
				const text = await shownText(page, keptPath)
				assert.ok(!text.includes('Concert à Lyon'), 'the setlist’s name shown offline after signing out')
				for (const title of KEPT_SONGS) assert.ok(!text.includes(title), `« ${title} » shown offline after signing out`)
			} finally {
				await context.setOffline(false)
			}
		})
	})
}
