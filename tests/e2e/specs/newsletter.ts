/*
 * The newsletter as its people live it: a visitor signs up on the landing page (refused without the
 * consent box, in French, the address kept), confirms from the real mail on /auth/claim (the GET
 * shows, only the POST confirms); the admin writes a campaign, watches its preview, sends a test to
 * themselves, then sends it; the visitor gets it with RFC 8058's headers, and one click (a mail
 * client's POST, without cookies) unsubscribes them, which /unsubscribe then shows.
 */
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import type { BrowserContext, Page } from 'playwright-core'
import { admin, anonymousFetch, signInAdmin } from '../support/accounts.ts'
import { audit } from '../support/axe.ts'
import { closeAll, h, newVisitor, SEQUENTIAL, visit, waitForPath } from '../support/harness.ts'
import { t } from '../support/i18n.ts'
import { buttonLink, htmlLinks, pathAndQuery, waitForMail } from '../support/mail-links.ts'
import type { ReceivedMail } from '../support/mailbox.ts'

const CONFIRM_SUBJECT = 'Confirmez votre inscription à la newsletter'
const CONFIRM_BUTTON = 'Confirmer mon inscription'
const NO_CONSENT = 'Cochez la case pour accepter de recevoir la newsletter.'

/** A header of a received mail as one string (mailparser keeps the List-* headers structured). */
function header(mail: ReceivedMail, name: string): string {
	const value = mail.headers.get(name)
	return typeof value === 'string' ? value : JSON.stringify(value ?? '')
}

export function newsletterSpecs() {
	describe('the newsletter, from the landing page to one-click unsubscribe', SEQUENTIAL, () => {
		const fan = `fan-${randomBytes(4).toString('hex')}@example.test`
		const subject = `Tournée d’automne ${randomBytes(3).toString('hex')}`
		let visitor: BrowserContext
		let page: Page
		let adminContext: BrowserContext
		let adminPage: Page
		let claimLink: URL
		let campaign: ReceivedMail

		before(async () => {
			visitor = await newVisitor()
			page = await visitor.newPage()
			adminContext = await newVisitor()
			adminPage = await adminContext.newPage()
		})
		after(() => closeAll(visitor, adminContext))

		const form = () => page.locator('#newsletter')

		test('the landing form refuses an address without the consent box, in French, and keeps what was typed', async () => {
			await visit(page, '/')
			await form().getByLabel(t('newsletter.signup.email')).fill(fan)
			await form()
				.getByRole('button', { name: t('newsletter.signup.submit') })
				.click()
			await form().getByText(NO_CONSENT).waitFor()
			assert.equal(await form().getByLabel(t('newsletter.signup.email')).inputValue(), fan)
			await audit(page, 'newsletter sign-up with errors')
		})

		test('with the consent, it says « check your inbox », and the confirmation mail leads to /auth/claim', async () => {
			await form()
				.getByRole('checkbox', { name: /J’accepte de recevoir la newsletter/ })
				.check()
			await form()
				.getByRole('button', { name: t('newsletter.signup.submit') })
				.click()
			await page.getByRole('status').getByText(t('newsletter.signup.sentTitle')).waitFor()
			const mail = await waitForMail(fan, CONFIRM_SUBJECT)
			claimLink = buttonLink(mail, CONFIRM_BUTTON)
			assert.equal(claimLink.pathname, '/auth/claim')
			assert.equal(claimLink.searchParams.get('mode'), 'newsletter')
		})

		test('the link’s page asks for a click (its GET confirms nothing), and the POST confirms', async () => {
			// A mail scanner following the link twice subscribes nobody, and spends nothing.
			for (let i = 0; i < 2; i++) assert.equal((await anonymousFetch(pathAndQuery(claimLink))).status, 200)
			await visit(page, pathAndQuery(claimLink))
			await page.getByText(t('newsletter.claim.intro')).waitFor()
			await audit(page, 'claim: confirm a newsletter subscription')
			await page.getByRole('button', { name: t('newsletter.claim.submit') }).click()
			await page.getByText(t('newsletter.claim.done')).waitFor()
			await audit(page, 'claim: newsletter subscription confirmed')
			// The admin's list shows the address active.
			await signInAdmin(adminContext)
			await visit(adminPage, `/dashboard/admin/newsletter/subscribers?q=${encodeURIComponent(fan)}`)
			const row = adminPage.getByRole('row').filter({ hasText: fan })
			await row.getByText(t('newsletter.status.active'), { exact: true }).waitFor()
			await audit(adminPage, 'admin newsletter subscribers')
		})

		test('the admin writes a campaign, sees it in the preview, sends a test to themselves, then sends it', async () => {
			await visit(adminPage, '/dashboard/admin/newsletter/campaigns/new')
			await adminPage.getByLabel(t('newsletter.admin.compose.subject')).fill(subject)
			await adminPage.getByLabel(t('newsletter.admin.compose.body'), { exact: false }).fill('## Trois dates\n\nLyon, **Nantes** et Lille.')
			const preview = adminPage.frameLocator(`iframe[title="${t('newsletter.admin.compose.previewFrame')}"]`)
			await preview.getByRole('heading', { name: 'Trois dates' }).waitFor()
			await preview.locator('strong', { hasText: 'Nantes' }).waitFor()
			await audit(adminPage, 'admin newsletter compose')

			await adminPage.getByRole('button', { name: t('newsletter.admin.compose.test', { email: admin.email }) }).click()
			const tested = await waitForMail(admin.email, `[Test] ${subject}`)
			assert.match(tested.html, /Nantes/)
			await adminPage.getByText(t('newsletter.admin.compose.tested', { email: admin.email })).waitFor()

			await adminPage.getByRole('button', { name: t('newsletter.admin.compose.sendNow') }).click()
			await waitForPath(adminPage, (url) => /^\/dashboard\/admin\/newsletter\/campaigns\/(?!new$)/.test(url.pathname))
			await adminPage.getByText(t('newsletter.admin.flash.sending.title'), { exact: true }).waitFor()
			await adminPage.getByRole('progressbar').waitFor()
			await audit(adminPage, 'admin newsletter sending')
		})

		test('the subscriber receives it with List-Unsubscribe and List-Unsubscribe-Post (RFC 8058)', async () => {
			campaign = await waitForMail(fan, subject, [], 30_000)
			assert.match(campaign.html, /<strong[^>]*>Nantes<\/strong>/)
			const list = header(campaign, 'list')
			// mailparser files the List-* headers under « list »; the mailto alternative is unit-tested (message.server.test.ts).
			assert.ok(list.includes(`"${h.origin}/unsubscribe/one-click?token=`), `List-Unsubscribe: ${list}`)
			assert.match(list, /"unsubscribe-post":\{"name":"List-Unsubscribe=One-Click"\}/, `List-Unsubscribe-Post: ${list}`)
		})

		test('one click from the mail client (a POST without cookies) unsubscribes, and /unsubscribe says so', async () => {
			const oneClick = new URL(/https?:\/\/[^"\s<>]+\/unsubscribe\/one-click\?token=[\w-]+/.exec(header(campaign, 'list'))![0])
			const response = await anonymousFetch(pathAndQuery(oneClick), {
				method: 'POST',
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
				body: 'List-Unsubscribe=One-Click',
			})
			assert.equal(response.status, 200)
			assert.equal(response.headers.get('location'), null)

			// The footer's link opens the page, which knows it is done and offers to come back.
			const footer = htmlLinks(campaign).find((link) => link.label === 'Se désinscrire')
			assert.ok(footer, 'a « Se désinscrire » link in the footer')
			await visit(page, pathAndQuery(new URL(footer.href)))
			await page.getByRole('heading', { name: t('newsletter.unsubscribe.done.title') }).waitFor()
			await audit(page, 'unsubscribe')
			// The link alone proves nothing now (it sits in every past newsletter): coming back asks the
			// address to confirm by mail.
			await page.getByRole('button', { name: t('newsletter.unsubscribe.done.resubscribe') }).click()
			await page.getByRole('heading', { name: t('newsletter.unsubscribe.confirmSent.title') }).waitFor()
			await page.getByText(t('newsletter.unsubscribe.confirmSent.body')).waitFor()
		})
	})
}
