/*
 * Fans near a show, as its people live it: a fan in Lyon and one in Brest sign up on the landing
 * page with their towns (the suggestions fill as they type; the server resolves the label), and
 * confirm from their mail; the admin writes a concert in Lyon, announces it from the editor to the
 * fans within 150 km (the count says one), and sends it: only the Lyon fan's mailbox receives it.
 * With « Préparer une annonce à chaque nouveau concert publié » on, a publication writes that draft
 * by itself: the stats screen points to it, the campaign list marks it, nothing is sent.
 */
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import type { BrowserContext, Page } from 'playwright-core'
import { signInAdmin } from '../support/accounts.ts'
import { audit } from '../support/axe.ts'
import { closeAll, newVisitor, SEQUENTIAL, visit, waitForPath } from '../support/harness.ts'
import { t } from '../support/i18n.ts'
import { buttonLink, mailsTo, pathAndQuery, waitForMail } from '../support/mail-links.ts'

/** Writes a concert at Lyon's Transbordeur (or a venue in another city) in the admin's editor and publishes it. */
async function publishLyonConcert(page: Page, title: string, startsAt: string, venue = { name: 'Le Transbordeur', city: 'Lyon' }) {
	await visit(page, '/dashboard/admin/events/new')
	await page.getByLabel(t('admin.events.fields.title')).fill(title)
	await page.getByLabel(t('admin.events.fields.startsAt'), { exact: true }).fill(startsAt)
	await page.getByLabel(t('admin.events.fields.venueName')).fill(venue.name)
	await page.getByLabel(t('admin.events.fields.city'), { exact: true }).fill(venue.city)
	await page
		.getByRole('button', { name: /Publier/ })
		.first()
		.click()
}

export function fansNearbySpecs() {
	describe('fans near a show: towns at sign-up, an announcement to the fans within reach', SEQUENTIAL, () => {
		const tag = randomBytes(3).toString('hex')
		const lyon = `lyon-${tag}@example.test`
		const brest = `brest-${tag}@example.test`
		const title = `Concert lyonnais ${tag}`
		let fans: BrowserContext
		let adminContext: BrowserContext
		let page: Page
		before(async () => {
			fans = await newVisitor()
			adminContext = await newVisitor()
		})
		after(() => closeAll(fans, adminContext))

		async function subscribeWithTown(email: string, typed: string, label: string) {
			const fan = await fans.newPage()
			await visit(fan, '/')
			const form = fan.locator('#newsletter')
			await form.getByLabel(t('newsletter.signup.email')).fill(email)
			const town = form.getByLabel(t('towns.field.label'))
			await town.pressSequentially(typed, { delay: 30 })
			// The browser's own list fills from the site's suggestions.
			await form.locator(`datalist option[value="${label}"]`).waitFor({ state: 'attached' })
			await town.fill(label)
			await form.getByRole('checkbox', { name: /J’accepte de recevoir la newsletter/ }).check()
			await form.getByRole('button', { name: t('newsletter.signup.submit') }).click()
			await fan.getByRole('status').getByText(t('newsletter.signup.sentTitle')).waitFor()
			const link = buttonLink(await waitForMail(email, 'Confirmez votre inscription'), 'Confirmer mon inscription')
			await visit(fan, pathAndQuery(link))
			await fan.locator('main form button[type=submit]').first().click()
			await fan.getByText(/vous êtes inscrit·e/).waitFor()
			await fan.close()
		}

		test('a fan in Lyon and one in Brest sign up with their towns', async () => {
			await subscribeWithTown(lyon, 'Lyo', 'Lyon (Rhône)')
			await subscribeWithTown(brest, 'Bres', 'Brest (Finistère)')
		})

		test('the admin announces a Lyon concert to the fans within 150 km: only the Lyon fan receives it', async () => {
			await signInAdmin(adminContext)
			page = await adminContext.newPage()
			await publishLyonConcert(page, title, '2031-05-16T20:30')
			await page.getByText(/Coordonnées de Lyon \(Rhône\)/).waitFor()
			await page.getByRole('link', { name: t('newsletter.announce.button') }).click()
			await waitForPath(page, (url) => url.pathname === '/dashboard/admin/newsletter/campaigns/new')
			const count = page.locator('section[aria-labelledby=audience-titre] p[aria-live]')
			assert.equal(await page.getByRole('slider').inputValue(), '150')
			assert.match(await count.innerText(), /^1 abonné /)
			assert.match(await page.getByLabel('Objet').inputValue(), /Lyon/)
			await audit(page, 'newsletter: announce a concert to the fans near it')
			await page.getByRole('button', { name: t('newsletter.announce.sendNow') }).click()
			await waitForPath(page, (url) => /\/campaigns\/[0-9a-f-]{36}$/.test(url.pathname))
			const mail = await waitForMail(lyon, title)
			assert.ok(mail.html.includes('/newsletter/town?token='))
			// The send is over once the campaign says so; nothing went to Brest.
			await page.getByText(t('newsletter.announce.audience.sentTo_one', { count: 1 })).waitFor({ timeout: 20_000 })
			assert.equal(mailsTo(brest, title).length, 0)
		})

		test('a venue the town list cannot place: the announcement goes to everyone, and the screen says why', async () => {
			await publishLyonConcert(page, `Lieu secret ${tag}`, '2031-05-23T20:30', { name: 'La Cave', city: 'Nulle-Part-sur-Rien' })
			await page.getByRole('link', { name: t('newsletter.announce.button') }).click()
			await waitForPath(page, (url) => url.pathname === '/dashboard/admin/newsletter/campaigns/new')
			const audience = page.locator('section[aria-labelledby=audience-titre]')
			await audience
				.getByRole('note')
				.getByText(t('newsletter.announce.audience.unplaced', { venue: 'La Cave, Nulle-Part-sur-Rien' }))
				.waitFor()
			assert.equal(await audience.getByRole('slider').count(), 0)
			// The button says who it goes to: every subscriber, not the fans near the venue.
			await page.getByRole('button', { name: t('newsletter.admin.compose.sendNow') }).waitFor()
			assert.equal(await page.getByRole('button', { name: t('newsletter.announce.sendNow') }).count(), 0)
		})
	})

	describe('fans near a show: an announcement prepared at a first publication, never sent', SEQUENTIAL, () => {
		const title = `Date préparée ${randomBytes(3).toString('hex')}`
		let admin: BrowserContext
		before(async () => {
			admin = await newVisitor()
		})
		after(() => closeAll(admin))

		test('the admin turns the setting on, publishes a concert, and finds its draft from the stats screen', async () => {
			await signInAdmin(admin)
			const page = await admin.newPage()
			await visit(page, '/dashboard/admin/newsletter')
			const box = page.getByRole('checkbox', { name: t('newsletter.prepared.label') })
			assert.equal(await box.isChecked(), false)
			// By keyboard, as a form: the box, then its button.
			await box.focus()
			await page.keyboard.press('Space')
			await page.getByRole('button', { name: t('newsletter.prepared.save') }).click()
			await page
				.getByRole('region', { name: t('common.notification') })
				.getByText(t('newsletter.admin.flash.prepareOn.title'), { exact: true })
				.waitFor()
			assert.equal(await page.getByRole('checkbox', { name: t('newsletter.prepared.label') }).isChecked(), true)
			await audit(page, 'newsletter: the prepared announcements setting')

			await publishLyonConcert(page, title, '2031-06-20T20:30')
			// Exactly the toast's line (the screen reader's live region repeats it after the title).
			await page.getByText(t('admin.events.flash.publishedPrepared.body'), { exact: true }).waitFor()

			await visit(page, '/dashboard/admin/stats')
			const notice = page.locator('section[aria-labelledby=annonces-preparees]')
			assert.match(await notice.getByRole('heading').innerText(), /annonces? préparées? attend/)
			await audit(page, 'stats: prepared announcements waiting')
			await notice.getByRole('link', { name: new RegExp(title) }).click()
			await waitForPath(page, (url) => /\/campaigns\/[0-9a-f-]{36}$/.test(url.pathname))
			assert.match(await page.getByLabel('Objet').inputValue(), new RegExp(title))
			assert.equal(await page.getByRole('slider').inputValue(), '150')

			// Marked in the campaign list, still a draft; then the setting is turned off again.
			await visit(page, '/dashboard/admin/newsletter')
			const row = page.getByRole('row').filter({ hasText: title })
			await row.getByText(t('newsletter.prepared.badge')).waitFor()
			await row.getByText(t('newsletter.admin.campaignStatus.draft')).waitFor()
			await page.getByRole('checkbox', { name: t('newsletter.prepared.label') }).uncheck()
			await page.getByRole('button', { name: t('newsletter.prepared.save') }).click()
			await page
				.getByRole('region', { name: t('common.notification') })
				.getByText(t('newsletter.admin.flash.prepareOff.title'), { exact: true })
				.waitFor()
		})
	})
}
