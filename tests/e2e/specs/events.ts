/*
 * The public side of events in Chromium: the landing's next shows, /events, an event page (share
 * tags, JSON-LD, calendar file, share link, with and without JavaScript), statuses, 404s and an
 * admin's draft preview; axe-core on each page, at 1280 and 375 px. Against a server of their own
 * on a seeded data folder (tests/e2e/support/events-site.ts); its visitors are recorded here, and
 * this spec checks what the run checks for the main server: no request to a third party, no script
 * error or CSP violation, no 5xx, nothing logged as an error, a clean stop.
 */
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import { after, before, describe, test } from 'node:test'
import ical, { type VEvent } from 'node-ical'
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core'
import { audit } from '../support/axe.ts'
import { disposeEventsSite, eventsSite, type EventsSite } from '../support/events-site.ts'
import { h, hydrated, SEQUENTIAL } from '../support/harness.ts'
import { t } from '../support/i18n.ts'

const PHONE = { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 }

export function eventSpecs() {
	describe('events, public pages', SEQUENTIAL, () => {
		let site: EventsSite
		let browser: Browser
		const contexts: BrowserContext[] = []
		const problems: string[] = []
		const foreign: string[] = []
		const serverErrors: string[] = []

		/** A visitor of the events server, watched like the harness watches the main one's. */
		async function visitor(options: BrowserContextOptions = {}): Promise<BrowserContext> {
			const context = await browser.newContext({
				baseURL: site.origin,
				locale: 'fr-FR',
				timezoneId: 'Europe/Paris',
				reducedMotion: 'reduce',
				viewport: { width: 1280, height: 900 },
				...options,
			})
			context.setDefaultTimeout(15_000)
			context.on('request', (request) => {
				const url = request.url()
				if (!url.startsWith(site.origin + '/') && !url.startsWith('data:') && !url.startsWith('blob:')) foreign.push(url)
			})
			context.on('response', (response) => {
				if (response.status() >= 500) serverErrors.push(`${response.status()} ${response.url()}`)
			})
			context.on('weberror', (error) => problems.push(`page error: ${error.page()?.url()} ${error.error().message}`))
			context.on('console', (message) => {
				// The 404s this spec asks for are logged by the browser as failed loads: expected; so are the
				// 400s of the forms it has the server refuse without JavaScript (a refused form's page is a 400).
				const expected404 = /Failed to load resource: the server responded with a status of 404/.test(message.text())
				const refusedForm =
					/Failed to load resource: the server responded with a status of 400/.test(message.text()) &&
					['/contact', '/?index#newsletter'].includes(message.location().url.replace(site.origin, ''))
				if ((message.type() === 'error' && !expected404 && !refusedForm) || /Content[- ]Security[- ]Policy/i.test(message.text())) {
					problems.push(`console ${message.type()} (${message.location().url}): ${message.text()}`)
				}
			})
			contexts.push(context)
			return context
		}

		async function open(page: Page, path: string) {
			const response = await page.goto(path)
			assert.ok(response, `no response for ${path}`)
			if (response.status() < 400) await hydrated(page)
			return response
		}

		before(async () => {
			// Started early in the run (suite.e2e.ts): usually ready by now.
			site = await eventsSite(process.env.BUILD_DIR ?? 'build')
			browser = h.browser
		})
		after(async () => {
			await Promise.all(contexts.map((c) => c.close().catch(() => {})))
			await disposeEventsSite()
		})

		test('the landing lists the next shows with their status and ticket buttons', async () => {
			const page = await (await visitor()).newPage()
			await open(page, '/')
			const section = page.getByRole('region', { name: t('events.home.title') })
			await section.waitFor()
			const items = section.getByRole('listitem')
			assert.equal(await items.count(), 5)
			// Soonest first; the draft and the past show are not there.
			const titles = await section.getByRole('heading', { level: 3 }).allInnerTexts()
			assert.deepEqual(titles, [
				'Nuits fauves — la release party',
				'Lyon, deuxième soir',
				'Festival des Terrasses',
				'Bruxelles',
				'Nantes (nouvelle date)',
			])
			const cancelled = items.filter({ hasText: 'Festival des Terrasses' })
			await cancelled.getByText(t('events.status.cancelled'), { exact: true }).waitFor()
			assert.equal(await cancelled.getByRole('link', { name: new RegExp(t('events.card.tickets')) }).count(), 0)
			await items.filter({ hasText: 'Lyon' }).getByText(t('events.status.soldOut'), { exact: true }).waitFor()
			const ticket = items.filter({ hasText: 'Nuits fauves' }).getByRole('link', { name: new RegExp(`^${t('events.card.tickets')}`) })
			assert.equal(await ticket.getAttribute('href'), 'https://billetterie.exemple.fr/nuits-fauves-paris')
			await audit(page, 'landing with events')
		})

		test('/events lists upcoming shows, then past ones, and offers the calendar', async () => {
			for (const [options, label] of [
				[{}, 'events list'],
				[PHONE, 'events list (375 px)'],
			] as const) {
				const page = await (await visitor(options)).newPage()
				const response = await open(page, '/events')
				assert.equal(response.status(), 200)
				await page.getByRole('heading', { level: 1, name: t('events.list.title') }).waitFor()
				const upcoming = page.getByRole('region', { name: t('events.list.upcoming') })
				const past = page.getByRole('region', { name: t('events.list.past') })
				assert.equal(await upcoming.getByRole('listitem').count(), 5)
				assert.deepEqual(await past.getByRole('heading', { level: 3 }).allInnerTexts(), ['Rennes, Antipode'])
				assert.equal(await past.getByRole('link', { name: new RegExp(t('events.card.tickets')) }).count(), 0)
				assert.match(
					(await page.getByRole('link', { name: t('events.list.subscribe') }).getAttribute('href'))!,
					/^webcal:\/\/localhost:\d+\/events\.ics$/,
				)
				const width = await page.evaluate(() => document.documentElement.scrollWidth)
				assert.ok(width <= (options.viewport?.width ?? 1280), `the list is ${width} px wide`)
				await audit(page, label)
			}
			const calendar = await fetch(`${site.origin}/events.ics`)
			assert.equal(calendar.headers.get('content-type'), 'text/calendar; charset=utf-8')
			const events = Object.values(ical.sync.parseICS(await calendar.text())).filter((c): c is VEvent => c?.type === 'VEVENT')
			assert.equal(events.length, 5)
		})

		test('an event page is a poster with everything a fan needs', async () => {
			const context = await visitor({ acceptDownloads: true })
			await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.origin })
			const page = await context.newPage()
			const path = `/events/${site.ids.scheduled}`
			const response = await open(page, path)
			assert.equal(response.status(), 200)
			await page.getByRole('heading', { level: 1, name: 'Nuits fauves — la release party' }).waitFor()
			const text = await page.locator('main').innerText()
			assert.match(text, new RegExp(`${t('events.page.startsAt', { time: '20 h 30' })}`))
			assert.ok(text.includes(t('events.page.doors', { time: '19 h 30' })), 'doors time')
			assert.ok(text.includes('24,50 € / 19 € (réduit)'), 'price as entered')
			assert.ok(text.includes('120 boulevard de Rochechouart'), 'address')
			assert.match(
				(await page.getByRole('link', { name: t('events.page.map') }).getAttribute('href'))!,
				/^https:\/\/www\.openstreetmap\.org\/\?mlat=48\.88231&mlon=2\.34037/,
			)
			assert.equal(
				await page.getByRole('link', { name: t('events.page.tickets') }).getAttribute('href'),
				'https://billetterie.exemple.fr/nuits-fauves-paris',
			)
			// The cover: responsive, modern formats, loaded first.
			const cover = page.locator('main picture img')
			assert.equal(await cover.getAttribute('fetchpriority'), 'high')
			assert.equal(await page.locator('main picture source[type="image/avif"]').count(), 1)
			assert.ok(await cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), 'the cover is shown')
			// The poster whole, in its own proportions (the demo's are 16:10), and below the header's link.
			const coverBox = (await cover.boundingBox())!
			assert.ok(Math.abs(coverBox.width / coverBox.height - 1.6) < 0.02, `cover box ${JSON.stringify(coverBox)}`)
			const headerLink = (await page.locator('header nav a').boundingBox())!
			assert.ok(headerLink.y + headerLink.height <= coverBox.y, `header link ${JSON.stringify(headerLink)} over the cover`)
			// The description, as Markdown.
			await page.locator('.prose-site strong', { hasText: 'en entier' }).waitFor()

			// « Ajouter à mon agenda »: a calendar file for this show.
			const [download] = await Promise.all([
				page.waitForEvent('download'),
				page.getByRole('link', { name: t('events.page.addToCalendar') }).click(),
			])
			assert.match(download.suggestedFilename(), /^\d{4}-\d{2}-\d{2}-nuits-fauves-la-release-party\.ics$/)
			const ics = fs.readFileSync((await download.path())!, 'utf8')
			const vevent = Object.values(ical.sync.parseICS(ics)).find((c) => c?.type === 'VEVENT') as VEvent
			assert.equal(vevent.summary, 'Nuits fauves — la release party')
			assert.equal(vevent.url, `${site.origin}${path}`)

			// « Partager »: no share sheet in a desktop browser, so the address is copied, and said so.
			await page.getByRole('link', { name: t('events.share.label') }).click()
			await page
				.getByRole('status')
				.filter({ hasText: t('events.share.copied') })
				.waitFor()
			assert.equal(await page.evaluate(() => navigator.clipboard.readText()), `${site.origin}${path}`)
			assert.equal(new URL(page.url()).pathname, path)
			await audit(page, 'event page')

			const phone = await (await visitor(PHONE)).newPage()
			await open(phone, path)
			const width = await phone.evaluate(() => document.documentElement.scrollWidth)
			assert.ok(width <= 375, `the event page is ${width} px wide on a 375 px screen`)
			// Full-bleed: the cover spans the screen's width.
			const box = await phone.locator('main picture img').boundingBox()
			assert.ok(box && box.x === 0 && Math.round(box.width) === 375, `cover box ${JSON.stringify(box)}`)
			const phoneHeaderLink = (await phone.locator('header nav a').boundingBox())!
			assert.ok(phoneHeaderLink.y + phoneHeaderLink.height <= box!.y, `header link ${JSON.stringify(phoneHeaderLink)} over the cover`)
			await audit(phone, 'event page (375 px)')
		})

		test('a shared link shows a preview: server-rendered share tags and JSON-LD', async () => {
			const response = await fetch(`${site.origin}/events/${site.ids.postponed}`, { headers: { 'user-agent': 'facebookexternalhit/1.1' } })
			assert.equal(response.status, 200)
			const html = await response.text()
			const meta = (attribute: string, name: string) => new RegExp(`<meta ${attribute}="${name}" content="([^"]*)"`).exec(html)?.[1]
			assert.match(meta('property', 'og:title') ?? '', /^Nantes \(nouvelle date\) — Nantes, \d{1,2}(er)? [a-zéû]+ \d{4}$/)
			assert.ok(meta('property', 'og:description')?.startsWith('Les billets achetés pour la première date restent valables.'))
			assert.equal(meta('property', 'og:url'), `${site.origin}/events/${site.ids.postponed}`)
			assert.equal(meta('name', 'twitter:card'), 'summary')
			assert.match(html, new RegExp(`<link rel="canonical" href="${site.origin}/events/${site.ids.postponed}"/>`))
			const jsonLd = JSON.parse(/<script type="application\/ld\+json">(.+?)<\/script>/.exec(html)![1]!) as {
				'@type': string
				eventStatus: string
				startDate: string
				previousStartDate: string
				location: { address: Record<string, string> }
			}
			assert.equal(jsonLd['@type'], 'MusicEvent')
			assert.equal(jsonLd.eventStatus, 'https://schema.org/EventRescheduled')
			assert.ok(jsonLd.previousStartDate < jsonLd.startDate)
			assert.equal(jsonLd.location.address['@type'], 'PostalAddress')

			const withCover = await (await fetch(`${site.origin}/events/${site.ids.scheduled}`)).text()
			const image = /<meta property="og:image" content="([^"]+)"/.exec(withCover)?.[1]
			assert.match(image!, /\/media\/img\/[0-9a-f-]+\/1200\.jpg$/)
			const picture = await fetch(image!)
			assert.equal(picture.status, 200)
			assert.equal(picture.headers.get('content-type'), 'image/jpeg')
		})

		test('statuses: cancelled has no ticket button, postponed says when it was planned, past has no ticket button', async () => {
			const page = await (await visitor()).newPage()
			await open(page, `/events/${site.ids.cancelled}`)
			await page.getByText(t('events.page.cancelledTitle')).waitFor()
			assert.equal(await page.getByRole('link', { name: t('events.page.tickets') }).count(), 0)
			assert.equal(await page.locator('a[href^="https://billetterie"]').count(), 0)
			await audit(page, 'event page (cancelled)')

			await open(page, `/events/${site.ids.postponed}`)
			await page.getByText(new RegExp(`^${t('events.page.previously', { date: '' }).trim()}`)).waitFor()
			await page.getByText(t('events.status.postponed'), { exact: true }).waitFor()

			await open(page, `/events/${site.ids.soldOut}`)
			await page.getByText(t('events.status.soldOut'), { exact: true }).first().waitFor()

			await open(page, `/events/${site.ids.past}`)
			assert.equal(await page.locator('a[href^="https://billetterie"]').count(), 0)
			assert.equal(await page.getByRole('link', { name: t('events.page.addToCalendar') }).count(), 0)
		})

		test('an unknown id and a draft are French 404 pages; an admin previews the draft', async () => {
			const page = await (await visitor()).newPage()
			for (const id of ['nexiste-pas', site.ids.draft]) {
				const response = await page.goto(`/events/${id}`)
				assert.equal(response?.status(), 404, id)
				await page.getByRole('heading', { level: 1, name: t('errors.notFound.title') }).waitFor()
			}
			assert.equal((await fetch(`${site.origin}/events/${site.ids.draft}/agenda.ics`)).status, 404)

			const admin = await (await visitor()).newPage()
			await open(admin, '/auth/signin')
			await admin.getByLabel(t('auth.fields.email')).fill(site.admin.email)
			await admin.getByLabel(t('auth.fields.password'), { exact: true }).fill(site.admin.password)
			await admin.getByRole('button', { name: t('auth.signin.submit') }).click()
			await admin.waitForURL((url) => url.pathname.startsWith('/dashboard'))
			const response = await open(admin, `/events/${site.ids.draft}`)
			assert.equal(response.status(), 200)
			assert.equal(response.headers()['cache-control'], 'private, no-store')
			await admin
				.getByRole('note')
				.filter({ hasText: t('events.page.draftBanner') })
				.waitFor()
			assert.equal(await admin.locator('meta[name="robots"]').getAttribute('content'), 'noindex, nofollow')
			await audit(admin, 'event page (draft preview)')

			// The admin's list: each row written once, a table from md up and cards on a phone
			// (styles/dashboard.css); a table of rows and cells to assistive technology at both widths.
			for (const width of [1280, 375]) {
				await admin.setViewportSize({ width, height: 900 })
				await open(admin, '/dashboard/admin/events')
				const table = admin.getByRole('table')
				await table.waitFor()
				const rows = await table.getByRole('row').count()
				assert.ok(rows >= 3, `the list shows its rows as table rows at ${width} px (${rows})`)
				assert.equal(await table.getByRole('cell').count(), (rows - 1) * 5, `five cells a row at ${width} px`)
				assert.equal(await table.getByRole('columnheader').count(), 5, `five column headers at ${width} px`)
				await audit(admin, `admin events (${width} px)`)
			}
		})

		test('without JavaScript the page is whole and « Partager » is a plain link to it', async () => {
			const page = await (await visitor({ javaScriptEnabled: false })).newPage()
			const path = `/events/${site.ids.abroad}`
			await page.goto(path)
			await page.getByRole('heading', { level: 1, name: 'Bruxelles' }).waitFor()
			assert.ok((await page.locator('main').innerText()).includes(`Bruxelles, Belgique`))
			assert.equal(await page.getByRole('link', { name: t('events.share.label') }).getAttribute('href'), `${site.origin}${path}`)
		})

		test('the public pages without JavaScript: whole, linked by full navigations, forms answered by the server (screenshots at 375 and 1280 px)', async () => {
			const shots = process.env.E2E_SHOTS_DIR
			const pages: [string, string][] = [
				['/', 'landing'],
				['/events', 'events'],
				[`/events/${site.ids.scheduled}`, 'event'],
				['/redeem', 'redeem'],
				['/redeem?code=ABCD-EFGH-JKLM', 'redeem-qr'],
				['/contact', 'contact'],
				['/auth/signin', 'signin'],
				['/auth/signup', 'signup'],
				['/policies/privacy', 'privacy'],
			]
			for (const [options, size] of [
				[{ javaScriptEnabled: false }, '1280'],
				[{ javaScriptEnabled: false, ...PHONE }, '375'],
			] as const) {
				const page = await (await visitor(options)).newPage()
				for (const [path, name] of pages) {
					const response = await page.goto(path)
					assert.equal(response?.status(), 200, path)
					await page.getByRole('heading', { level: 1 }).first().waitFor()
					if (shots) await page.screenshot({ path: `${shots}/no-js-${name}-${size}.png`, fullPage: true })
				}
				// The code of a QR code's link is in the field, filled in by the server.
				await page.goto('/redeem?code=ABCD-EFGH-JKLM')
				assert.equal(await page.getByRole('textbox').first().inputValue(), 'ABCD-EFGH-JKLM')
			}

			const page = await (await visitor({ javaScriptEnabled: false })).newPage()
			// A link is a full navigation to the next page.
			await page.goto('/')
			await page.getByRole('link', { name: t('events.home.all') }).click()
			await page.waitForURL((url) => url.pathname === '/events')
			await page.getByRole('heading', { level: 1 }).waitFor()
			// The landing's newsletter form, refused by the server: back at the form, with the messages by the fields.
			await page.goto('/')
			const signup = page.getByRole('region', { name: t('newsletter.signup.title') })
			await signup.getByLabel(t('newsletter.signup.email'), { exact: true }).fill('pas-une-adresse')
			await signup.getByRole('button', { name: t('newsletter.signup.submit') }).click()
			await page.waitForURL((url) => url.hash === '#newsletter')
			const email = page
				.getByRole('region', { name: t('newsletter.signup.title') })
				.getByLabel(t('newsletter.signup.email'), { exact: true })
			assert.equal(await email.getAttribute('aria-invalid'), 'true')
			assert.equal(await email.inputValue(), 'pas-une-adresse')
			if (process.env.E2E_SHOTS_DIR) await page.screenshot({ path: `${process.env.E2E_SHOTS_DIR}/no-js-newsletter-refused-1280.png` })
			// The contact form, refused and answered in French next to the field, what was typed kept.
			await page.goto('/contact')
			await page.getByLabel(t('contact.fields.message'), { exact: true }).fill('Salut sans JavaScript')
			await page.getByRole('button', { name: t('contact.submit') }).click()
			const name = page.getByLabel(t('contact.fields.name'), { exact: true })
			await name.and(page.locator('[aria-invalid="true"]')).waitFor()
			assert.equal(await page.getByLabel(t('contact.fields.message'), { exact: true }).inputValue(), 'Salut sans JavaScript')
			if (process.env.E2E_SHOTS_DIR)
				await page.screenshot({ path: `${process.env.E2E_SHOTS_DIR}/no-js-contact-refused-1280.png`, fullPage: true })
		})

		test('anonymous visitors get validators and a 304 for a copy that is still current', async () => {
			const url = `${site.origin}/events/${site.ids.scheduled}`
			const first = await fetch(url)
			await first.arrayBuffer()
			const etag = first.headers.get('etag')
			// From the anonymous page cache: a strong validator per encoding (fetch asks for br).
			assert.match(etag ?? '', /^"[\w-]+"$/)
			assert.equal(first.headers.get('cache-control'), 'public, max-age=60, stale-while-revalidate=300')
			assert.ok(first.headers.get('last-modified'))
			const again = await fetch(url, { headers: { 'if-none-match': etag! } })
			assert.equal(again.status, 304)
			// Every copy is the same bytes, without a nonce; its inline scripts are allowed by hash.
			const bodies = new Set<string>()
			for (let i = 0; i < 3; i++) {
				const copy = await fetch(url)
				const html = await copy.text()
				assert.equal(copy.headers.get('x-page-cache'), 'hit')
				assert.doesNotMatch(html, /\snonce=/)
				const policy = copy.headers.get('content-security-policy') ?? ''
				const scriptSrc = policy.split(';').find((d) => d.trim().startsWith('script-src')) ?? ''
				assert.doesNotMatch(scriptSrc, /nonce-|unsafe-inline/)
				for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
					if (/\ssrc=/.test(match[1] ?? '')) continue
					assert.ok(
						policy.includes(
							`'sha256-${createHash('sha256')
								.update(match[2] ?? '')
								.digest('base64')}'`,
						),
					)
				}
				bodies.add(html)
			}
			assert.equal(bodies.size, 1)
			const sitemap = await (await fetch(`${site.origin}/sitemap.xml`)).text()
			assert.ok(sitemap.includes(`<loc>${url}</loc>`))
			assert.ok(!sitemap.includes(site.ids.draft))
			assert.match(await (await fetch(`${site.origin}/robots.txt`)).text(), new RegExp(`Sitemap: ${site.origin}/sitemap.xml`))
		})

		test('nothing went to a third party, no script error or CSP violation, no 5xx, a clean stop', async () => {
			assert.deepEqual(foreign, [])
			assert.deepEqual(problems, [])
			assert.deepEqual(serverErrors, [])
			await Promise.all(contexts.map((c) => c.close().catch(() => {})))
			const exit = await site.server.stop(5_000)
			assert.equal(exit.killed, false)
			assert.equal(exit.code, 0)
			const errors = site.server
				.output()
				.split('\n')
				.filter((line) => {
					try {
						return (JSON.parse(line) as { level?: number }).level! >= 50
					} catch {
						return false
					}
				})
			assert.deepEqual(errors, [])
		})
	})
}
