/*
 * Issue 29's walk, in Chromium, at 375 px (a phone) and at 1280 px, with screenshots to look at:
 *
 *   npm run build && node_modules/.bin/node scripts/walks/fans-near-a-show.ts <screenshots folder>
 *   E2E_START_TIMEOUT_MS=240000 …        (a busy machine: more time for the server's first start)
 *
 * The production build (BUILD_DIR, default build/) served by server/index.ts on a free port with a
 * fresh data folder, an SMTP server in this process as the site's only relay, Debian's Chromium
 * (the end-to-end suite's own harness: tests/e2e/support), started afresh for each width:
 * a fan in Lyon and a fan in Brest subscribe on the landing page with their towns and confirm from
 * the mail; a third visitor types « Saint-Denis » and is asked which; the admin writes a concert at
 * Lyon's Transbordeur, announces it to the fans within 150 km and sends it; the script prints who
 * the SMTP server received it for (only the Lyon fan); the Lyon fan opens an account with the same
 * address and finds the concert under « Près de chez vous » on the dashboard; a visitor sorts
 * /events by distance from Brest. Every screen is saved as <width>-<step>.png. Exits 1 when a step
 * fails (what was saved so far stays), 0 otherwise.
 */
import '../check-node.mjs'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { BrowserContextOptions, Page } from 'playwright-core'
import { admin as adminMember, confirmAddress, signUpByForm, type Member } from '../../tests/e2e/support/accounts.ts'
import { closeAll, h, newVisitor, setUp, tearDown, visit, waitForPath } from '../../tests/e2e/support/harness.ts'
import { t } from '../../tests/e2e/support/i18n.ts'
import { buttonLink, pathAndQuery, waitForMail } from '../../tests/e2e/support/mail-links.ts'

const SHOTS = process.argv[2]
if (!SHOTS) {
	console.error('Usage: node scripts/walks/fans-near-a-show.ts <screenshots folder>')
	process.exit(2)
}
fs.mkdirSync(SHOTS, { recursive: true })

const PHONE: BrowserContextOptions = { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true }
const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 900 } }
const started = performance.now()
const say = (message: string) => console.log(`[walk ${((performance.now() - started) / 1000).toFixed(0).padStart(3)} s] ${message}`)

async function shot(page: Page, width: number, name: string) {
	const file = path.join(SHOTS!, `${width}-${name}.png`)
	await page.screenshot({ path: file, fullPage: true, animations: 'disabled' })
	say(`saved ${path.basename(file)}`)
}

/** The compose screen's preview frame, scrolled into view and painted; saved on its own when named. */
async function previewShot(page: Page, width: number, name: string | null) {
	const frame = page.locator('iframe')
	await frame.scrollIntoViewIfNeeded()
	const png = await frame.screenshot({ animations: 'disabled' })
	// Time for the page to paint the frame where a full-page capture will look for it.
	await page.waitForTimeout(2_000)
	if (!name) return
	fs.writeFileSync(path.join(SHOTS!, `${width}-${name}.png`), png)
	say(`saved ${width}-${name}.png`)
}

/** The landing's newsletter form with an address and a town picked from the suggestions; not sent yet. */
async function fillLanding(page: Page, email: string, typed: string, label: string | null) {
	await visit(page, '/')
	const form = page.locator('#newsletter')
	await form.getByLabel(t('newsletter.signup.email')).fill(email)
	const town = form.getByLabel(t('towns.field.label'))
	await town.pressSequentially(typed, { delay: 40 })
	if (label) {
		// The browser's own list fills from the site's suggestions; the fan picks one.
		await form.locator(`datalist option[value="${label}"]`).waitFor({ state: 'attached' })
		await town.fill(label)
	}
	await form.getByRole('checkbox', { name: /J’accepte de recevoir la newsletter/ }).check()
	return form
}

async function subscribe(
	options: BrowserContextOptions,
	width: number,
	who: string,
	email: string,
	typed: string,
	label: string,
	shots: boolean,
) {
	const context = await newVisitor(options)
	try {
		const page = await context.newPage()
		const form = await fillLanding(page, email, typed, label)
		if (shots) {
			await form.scrollIntoViewIfNeeded()
			await shot(page, width, `01-${who}-landing-town`)
		}
		await form.getByRole('button', { name: t('newsletter.signup.submit') }).click()
		await page.getByRole('status').getByText(t('newsletter.signup.sentTitle')).waitFor()
		if (shots) await shot(page, width, `02-${who}-landing-sent`)
		const link = buttonLink(await waitForMail(email, 'Confirmez votre inscription'), 'Confirmer mon inscription')
		await visit(page, pathAndQuery(link))
		if (shots) await shot(page, width, `03-${who}-confirm`)
		await page.locator('main form button[type=submit]').first().click()
		await page.getByText(/vous êtes inscrit·e/).waitFor()
		await shot(page, width, `04-${who}-confirmed`)
	} finally {
		await closeAll(context)
	}
}

async function walk(width: number, options: BrowserContextOptions) {
	const tag = randomBytes(3).toString('hex')
	const lyonFan: Member = {
		firstName: 'Lou',
		name: 'Lou Lyonnaise',
		email: `lyon-${tag}@example.test`,
		password: `tilleul orage velours ${tag}`,
	}
	const brestFan = `brest-${tag}@example.test`
	const title = `Concert lyonnais ${tag}`
	say(`— ${width} px: Lyon fan ${lyonFan.email}, Brest fan ${brestFan}, « ${title} »`)

	await subscribe(options, width, 'lyon', lyonFan.email, 'Lyo', 'Lyon (Rhône)', true)
	await subscribe(options, width, 'brest', brestFan, 'Bres', 'Brest (Finistère)', false)

	// Two towns of that name: the form asks which, and keeps what was typed.
	const stranger = await newVisitor(options)
	try {
		const page = await stranger.newPage()
		const form = await fillLanding(page, `saint-denis-${tag}@example.test`, 'Saint-Denis', null)
		await form.getByRole('button', { name: t('newsletter.signup.submit') }).click()
		await page.getByText(t('towns.field.ambiguous', { town: 'Saint-Denis' })).waitFor()
		await page.locator('#newsletter').scrollIntoViewIfNeeded()
		await shot(page, width, '05-landing-saint-denis-asks-which')
	} finally {
		await closeAll(stranger)
	}

	const admin = await newVisitor(options)
	try {
		// ADMIN_EMAILS names the address: the account it opens is the admin's.
		await signUpByForm(admin, adminMember)
		const page = await admin.newPage()
		await visit(page, '/dashboard/admin/events/new')
		await page.getByLabel(t('admin.events.fields.title')).fill(title)
		await page.getByLabel(t('admin.events.fields.startsAt'), { exact: true }).fill('2031-05-16T20:30')
		await page.getByLabel(t('admin.events.fields.venueName')).fill('Le Transbordeur')
		await page.getByLabel(t('admin.events.fields.city'), { exact: true }).fill('Lyon')
		await page
			.getByRole('button', { name: /Publier/ })
			.first()
			.click()
		await page.getByText(/Coordonnées de Lyon \(Rhône\)/).waitFor()
		await shot(page, width, '06-admin-editor-venue-placed')
		await page.getByRole('link', { name: t('newsletter.announce.button') }).click()
		await waitForPath(page, (url) => url.pathname === '/dashboard/admin/newsletter/campaigns/new')
		assert.equal(await page.getByRole('slider').inputValue(), '150')
		const count = page.locator('section[aria-labelledby=audience-titre] p[aria-live]')
		assert.match(await count.innerText(), /^1 abonné /, 'one fan within 150 km of Lyon')
		// The mail as the fans will get it, in its frame (shot on its own first: a full-page capture
		// taken at once shows a frame that has not been painted yet as white).
		await page.frameLocator('iframe').getByText(title).first().waitFor()
		await previewShot(page, width, '07-admin-announce-preview')
		await shot(page, width, '07-admin-announce-150-km')
		await page.getByRole('button', { name: t('newsletter.announce.sendNow') }).click()
		await waitForPath(page, (url) => /\/campaigns\/[0-9a-f-]{36}$/.test(url.pathname))
		await page.getByText(t('newsletter.announce.audience.sentTo_one', { count: 1 })).waitFor({ timeout: 30_000 })
		await page.getByText(t('newsletter.admin.campaignStatus.sent'), { exact: true }).first().waitFor({ timeout: 30_000 })
		await previewShot(page, width, null)
		await shot(page, width, '08-admin-announcement-sent')
	} finally {
		await closeAll(admin)
	}

	const mail = await waitForMail(lyonFan.email, title)
	const received = h.mailbox.mails.filter((m) => m.subject.startsWith(title)).flatMap((m) => m.to)
	say(`the SMTP server received « ${mail.subject} » for: ${received.join(', ')}`)
	assert.deepEqual(received, [lyonFan.email.toLowerCase()], 'only the Lyon fan receives the announcement')

	// The Lyon fan opens an account with the same address: their town is the one they gave.
	const fan = await newVisitor(options)
	try {
		const page = await fan.newPage()
		await visit(page, '/auth/signup')
		await page.getByLabel(t('auth.fields.name')).fill(lyonFan.name)
		await page.getByLabel(t('auth.fields.email')).fill(lyonFan.email)
		await page.getByLabel(t('auth.fields.password')).fill(lyonFan.password)
		await page.getByRole('checkbox', { name: /politique de confidentialité/ }).check()
		await shot(page, width, '09-lyon-fan-signup')
		await page.getByRole('button', { name: t('auth.signup.submit') }).click()
		await waitForPath(page, (url) => url.pathname !== '/auth/signup')
		await confirmAddress(fan, lyonFan)
		await visit(page, '/dashboard')
		const near = page.locator('section[aria-labelledby=pres-de-chez-vous]')
		await near.getByRole('link', { name: title }).waitFor()
		await near.scrollIntoViewIfNeeded()
		await shot(page, width, '10-lyon-fan-dashboard-near-you')
		say(`« ${t('dashboard.home.nearTitle')} » on the Lyon fan’s dashboard: ${(await near.innerText()).replace(/\s+/g, ' ')}`)
	} finally {
		await closeAll(fan)
	}

	const visitor = await newVisitor(options)
	try {
		const page = await visitor.newPage()
		await visit(page, '/events?ville=Brest')
		await page.getByText(t('events.near.title', { town: 'Brest (Finistère)' })).waitFor()
		await shot(page, width, '11-events-nearest-brest')
	} finally {
		await closeAll(visitor)
	}
}

let failed = false
for (const [width, options] of [
	[375, PHONE],
	[1280, DESKTOP],
] as const) {
	// A fresh site (data folder, mailbox, browser) per width: each walk has its two fans only.
	try {
		await setUp()
		await walk(width, options)
		if (h.problems.length || h.serverErrors.length) throw new Error(`seen in the browser: ${[...h.problems, ...h.serverErrors].join('\n')}`)
	} catch (error) {
		failed = true
		console.error(error)
	} finally {
		await tearDown()
	}
	if (failed) break
}
say(failed ? 'stopped' : 'done')
process.exit(failed ? 1 : 0)
