import { desc, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { purgeNewsletter } from '#app/features/newsletter/jobs.server.ts'
import { POLICY_VERSION } from '#app/features/newsletter/rules.ts'
import { findSubscriber, setMemberNewsletter } from '#app/features/newsletter/subscribers.server.tsx'
import { readMemberSubscription } from '#app/features/newsletter/member-subscription.server.ts'
import { newsletterSubscriber, outboxMail } from '#app/platform/db/schema.ts'
import { getPlatform } from '#app/platform/platform.server.ts'
import { RULES } from '#app/platform/rate-limit.server.ts'
import { readSignedValue, signValue } from '#app/platform/signed-value.server.ts'
import { formGuardMiddleware } from '#app/platform/form-guard.server.ts'
import { isCrossSite } from '#app/platform/origin-check.server.ts'
import * as claim from '#app/routes/auth/claim.tsx'
import * as home from '#app/routes/public/home.tsx'
import * as oneClick from '#app/routes/public/unsubscribe-one-click.ts'
import * as unsubscribe from '#app/routes/public/unsubscribe.tsx'
import { startTestPlatform, type TestPlatform } from '../support/platform.ts'
import { formPost, get, outcome, routeArgs, SITE_URL } from '../support/requests.ts'

/*
 * The newsletter's public side, through its real routes: the landing's sign-up (double opt-in via
 * /auth/claim), /unsubscribe with and without a token, RFC 8058's one-click endpoint, the member's
 * toggle and the purge of addresses that never confirmed.
 */
let env: TestPlatform
beforeAll(async () => {
	env = await startTestPlatform()
})
afterAll(async () => {
	await env?.stop()
})
const db = () => env.platform.database.db

/** The newest mail the site queued for `to` (no SMTP here: the outbox keeps it whole). */
async function lastMailTo(to: string) {
	const [row] = await db().select().from(outboxMail).where(eq(outboxMail.toAddress, to)).orderBy(desc(outboxMail.createdAt)).limit(1)
	return row
}
async function mailsTo(to: string) {
	return db().select().from(outboxMail).where(eq(outboxMail.toAddress, to))
}
function linkIn(text: string | null | undefined, path: string) {
	const match = new RegExp(`${SITE_URL}${path.replace(/[?]/g, '\\?')}[^\\s)\\]"]+`).exec(text ?? '')
	if (!match) throw new Error(`no ${path} link in:\n${text}`)
	return new URL(match[0].replace(/&amp;/g, '&'))
}
const subscribe = (fields: Record<string, string>) => home.action(routeArgs(formPost('/?index', fields), '/') as never)

/** Signs up on the landing and follows the confirmation link, as the address's owner does. */
async function subscribeConfirmed(email: string) {
	await subscribe({ email, consent: 'on' })
	const link = linkIn((await lastMailTo(email))?.text, '/auth/claim?')
	await claim.action(routeArgs(formPost(link.pathname + link.search, {}), '/auth/claim') as never)
	expect(await findSubscriber(db(), email)).toMatchObject({ status: 'active' })
}

describe('signing up on the landing page', () => {
	it('refuses a malformed address or a missing consent, in French, keeping what was typed', async () => {
		const bad = await outcome(await subscribe({ email: 'pas-une-adresse', consent: 'on' }))
		expect(bad.status).toBe(400)
		expect(JSON.stringify(bad.body)).toContain('n’est pas valide')
		expect(JSON.stringify(bad.body)).toContain('pas-une-adresse')
		const noConsent = await outcome(await subscribe({ email: 'fan@exemple.fr' }))
		expect(noConsent.status).toBe(400)
		expect(JSON.stringify(noConsent.body)).toContain('Cochez la case')
		expect(await findSubscriber(db(), 'fan@exemple.fr')).toBeUndefined()
	})

	it('mails a confirmation link; the GET of /auth/claim only shows it, the POST confirms, once', async () => {
		const sent = await outcome(await subscribe({ email: ' Lea@Exemple.fr ', consent: 'on', website: '' }))
		expect(sent).toMatchObject({ status: 200, body: { newsletter: 'sent' } })
		expect(await findSubscriber(db(), 'lea@exemple.fr')).toMatchObject({ status: 'pending', source: 'landing', consentAt: null })

		const link = linkIn((await lastMailTo('lea@exemple.fr'))?.text, '/auth/claim?')
		expect(link.searchParams.get('mode')).toBe('newsletter')
		const path = link.pathname + link.search
		const page = await outcome(await claim.loader(routeArgs(get(path), '/auth/claim') as never))
		expect(page.body).toMatchObject({ mode: 'newsletter', state: 'confirm' })
		expect(await findSubscriber(db(), 'lea@exemple.fr')).toMatchObject({ status: 'pending' })

		const confirmed = await outcome(await claim.action(routeArgs(formPost(path, {}), '/auth/claim') as never))
		expect(confirmed.body).toMatchObject({ state: 'done' })
		const row = await findSubscriber(db(), 'lea@exemple.fr')
		expect(row).toMatchObject({ status: 'active', policyVersion: POLICY_VERSION })
		expect(row!.consentAt).toBeInstanceOf(Date)

		const again = await outcome(await claim.action(routeArgs(formPost(path, {}), '/auth/claim') as never))
		expect(again).toMatchObject({ status: 400, body: { state: 'invalid' } })
	})

	it('answers a known address exactly as an unknown one, and sends it nothing', async () => {
		const before = (await mailsTo('lea@exemple.fr')).length
		const known = await outcome(await subscribe({ email: 'lea@exemple.fr', consent: 'on' }))
		const unknown = await outcome(await subscribe({ email: 'inconnu@exemple.fr', consent: 'on' }))
		expect(known).toEqual(unknown)
		expect(await mailsTo('lea@exemple.fr')).toHaveLength(before)
	})

	it('tells a robot that filled the hidden field what it tells a person, and stores nothing', async () => {
		const bot = await outcome(await subscribe({ email: 'robot@exemple.fr', consent: 'on', website: 'http://spam.example' }))
		expect(bot).toMatchObject({ status: 200, body: { newsletter: 'sent' } })
		expect(await findSubscriber(db(), 'robot@exemple.fr')).toBeUndefined()
	})

	it('limits how many confirmation mails one address can be sent, with the same answer past the cap', async () => {
		const results = []
		for (let i = 0; i < RULES.mailsByRecipient.points + 3; i++)
			results.push((await outcome(await subscribe({ email: 'cible@exemple.fr', consent: 'on' }))).status)
		expect(new Set(results)).toEqual(new Set([200]))
		expect((await mailsTo('cible@exemple.fr')).length).toBeLessThanOrEqual(RULES.mailsByRecipient.points)
	})
})

describe('unsubscribing', () => {
	it('shows a page on GET, unsubscribes on POST, and offers to come back', async () => {
		const { unsubscribeToken: token } = (await findSubscriber(db(), 'lea@exemple.fr'))!
		const path = `/unsubscribe?token=${token}`
		const page = await outcome(await unsubscribe.loader(routeArgs(get(path), '/unsubscribe') as never))
		expect(page.body).toMatchObject({ state: 'confirm', email: 'l•••@exemple.fr' })
		expect(await findSubscriber(db(), 'lea@exemple.fr')).toMatchObject({ status: 'active' })

		const done = await outcome(await unsubscribe.action(routeArgs(formPost(path, { intent: 'unsubscribe' }), '/unsubscribe') as never))
		expect(done.body).toMatchObject({ state: 'done', undo: expect.any(String) })
		expect(await findSubscriber(db(), 'lea@exemple.fr')).toMatchObject({ status: 'unsubscribed' })

		// Right after, on the same page (its answer carries the undo value): back at once, no mail.
		const mailsBefore = (await mailsTo('lea@exemple.fr')).length
		const { undo } = done.body as { undo: string }
		const back = await outcome(
			await unsubscribe.action(routeArgs(formPost(path, { intent: 'resubscribe', undo }), '/unsubscribe') as never),
		)
		expect(back.body).toMatchObject({ state: 'resubscribed' })
		expect(await findSubscriber(db(), 'lea@exemple.fr')).toMatchObject({ status: 'active', source: 'resubscribe' })
		expect(await mailsTo('lea@exemple.fr')).toHaveLength(mailsBefore)
	})

	it('never re-subscribes from an old link alone: « Me réinscrire » then asks the address to confirm by mail', async () => {
		await subscribeConfirmed('ancien@exemple.fr')
		const subscriber = (await findSubscriber(db(), 'ancien@exemple.fr'))!
		const path = `/unsubscribe?token=${subscriber.unsubscribeToken}`
		const post = async (fields: Record<string, string>) =>
			outcome(await unsubscribe.action(routeArgs(formPost(path, fields), '/unsubscribe') as never))
		const done = await post({ intent: 'unsubscribe' })
		const { undo } = done.body as { undo: string }
		// Unsubscribing again (already out) hands out no undo value.
		expect((await post({ intent: 'unsubscribe' })).body).toMatchObject({ state: 'done', undo: null })
		// Later, the page of the link (GET) has no undo value.
		const page = await outcome(await unsubscribe.loader(routeArgs(get(path), '/unsubscribe') as never))
		expect(page.body).toMatchObject({ state: 'done' })

		const secret = (await (await getPlatform()).auth.$context).secret
		const [id, expiresAt] = readSignedValue(secret, 'newsletter-undo-unsubscribe', undo)!.split(':')
		await subscribeConfirmed('autre-abonne@exemple.fr')
		const other = (await findSubscriber(db(), 'autre-abonne@exemple.fr'))!
		const refused: Record<string, string>[] = [
			{ intent: 'resubscribe' },
			{ intent: 'resubscribe', undo: `${undo.slice(0, -2)}xx` },
			// The window is over; another subscriber's value.
			{ intent: 'resubscribe', undo: signValue(secret, 'newsletter-undo-unsubscribe', `${id}:${Date.now() - 1000}`) },
			{ intent: 'resubscribe', undo: signValue(secret, 'newsletter-undo-unsubscribe', `${other.id}:${expiresAt}`) },
		]
		for (const fields of refused) {
			const before = (await mailsTo('ancien@exemple.fr')).length
			const answer = await post(fields)
			expect(answer, JSON.stringify(fields)).toMatchObject({ status: 200, body: { state: 'confirmSent' } })
			expect(await findSubscriber(db(), 'ancien@exemple.fr')).toMatchObject({ status: 'unsubscribed' })
			expect(await mailsTo('ancien@exemple.fr')).toHaveLength(before + 1)
		}
		// The owner follows the link of the mail: back on the list, with this consent's date.
		const link = linkIn((await lastMailTo('ancien@exemple.fr'))?.text, '/auth/claim?')
		expect(link.searchParams.get('mode')).toBe('newsletter')
		const confirmed = await outcome(await claim.action(routeArgs(formPost(`${link.pathname}${link.search}`, {}), '/auth/claim') as never))
		expect(confirmed.body).toMatchObject({ state: 'done' })
		expect(await findSubscriber(db(), 'ancien@exemple.fr')).toMatchObject({ status: 'active' })
	})

	it('without a token, mails the link to a subscribed address, with the same answer for an unknown one', async () => {
		const ask = (email: string) =>
			unsubscribe.action(routeArgs(formPost('/unsubscribe', { intent: 'request', email }), '/unsubscribe') as never)
		const known = await outcome(await ask('lea@exemple.fr'))
		const unknown = await outcome(await ask('personne@exemple.fr'))
		expect(known).toEqual(unknown)
		expect(known.body).toMatchObject({ state: 'linkSent' })
		const { unsubscribeToken } = (await findSubscriber(db(), 'lea@exemple.fr'))!
		expect(linkIn((await lastMailTo('lea@exemple.fr'))?.text, '/unsubscribe?').searchParams.get('token')).toBe(unsubscribeToken)
		expect(await mailsTo('personne@exemple.fr')).toHaveLength(0)
	})

	it('refuses a forged token', async () => {
		const page = await outcome(await unsubscribe.loader(routeArgs(get(`/unsubscribe?token=${'x'.repeat(43)}`), '/unsubscribe') as never))
		expect(page.body).toMatchObject({ state: 'invalid' })
	})

	it('takes a mail client’s one-click POST without cookies or Origin, and answers without redirect', async () => {
		const { unsubscribeToken: token } = (await findSubscriber(db(), 'lea@exemple.fr'))!
		const body = new FormData()
		body.set('List-Unsubscribe', 'One-Click')
		const request = new Request(`${SITE_URL}/unsubscribe/one-click?token=${token}`, { method: 'POST', body })
		// The site's guards let exactly this endpoint through, even from another site's page.
		const crossSite = new Request(request.url, {
			method: 'POST',
			headers: { origin: 'https://mail.example', 'content-type': 'text/plain' },
			body: 'x',
		})
		expect(isCrossSite(crossSite)).toBe(false)
		await expect(formGuardMiddleware({ request: crossSite })).resolves.toBeUndefined()
		expect(isCrossSite(new Request(`${SITE_URL}/unsubscribe`, { method: 'POST', headers: { origin: 'https://mail.example' } }))).toBe(true)

		const response = (await oneClick.action(routeArgs(request, '/unsubscribe/one-click') as never)) as Response
		expect(response.status).toBe(200)
		expect(response.headers.get('location')).toBeNull()
		expect(await findSubscriber(db(), 'lea@exemple.fr')).toMatchObject({ status: 'unsubscribed' })
		const forged = (await oneClick.action(
			routeArgs(new Request(`${SITE_URL}/unsubscribe/one-click?token=${'y'.repeat(43)}`, { method: 'POST' }), '/') as never,
		)) as Response
		expect(forged.status).toBe(404)
	})
})

describe('a member’s toggle and the subscriber record', () => {
	it('are one truth: on, off, and a pending one for an unverified address', async () => {
		const ctx = { db: db(), mailer: env.platform.mailer, env: env.platform.env }
		expect(await setMemberNewsletter(ctx, { email: 'membre@exemple.fr', emailVerified: true }, true)).toBe('active')
		expect((await readMemberSubscription(db(), 'membre@exemple.fr')).status).toBe('active')
		expect(await setMemberNewsletter(ctx, { email: 'membre@exemple.fr', emailVerified: true }, false)).toBe('unsubscribed')
		expect(await findSubscriber(db(), 'membre@exemple.fr')).toMatchObject({ status: 'unsubscribed' })
		expect(await setMemberNewsletter(ctx, { email: 'nouveau@exemple.fr', emailVerified: false }, true)).toBe('pending')
		expect((await lastMailTo('nouveau@exemple.fr'))?.kind).toBe('newsletter-confirm')
	})
})

describe('the purge', () => {
	it('deletes addresses that never confirmed after a few days, and nothing else', async () => {
		const now = new Date(Date.now() + 8 * 24 * 3600_000)
		const report = await purgeNewsletter(db(), now)
		expect(report.pending).toBeGreaterThan(0)
		const left = await db().select({ status: newsletterSubscriber.status }).from(newsletterSubscriber)
		expect(left.some((row) => row.status === 'pending')).toBe(false)
		expect(await findSubscriber(db(), 'lea@exemple.fr')).toBeDefined()
	})
})

describe('the privacy policy', () => {
	it('states what the newsletter keeps and for how long, from the constants the purge uses', async () => {
		const { readPolicy } = await import('#app/features/site/policies.server.ts')
		const { PENDING_PURGE_DAYS, CONFIRM_TTL_HOURS } = await import('#app/features/newsletter/rules.ts')
		const { html } = readPolicy('privacy', SITE_URL)
		expect(html).toContain('consentement')
		expect(html).toContain(`${PENDING_PURGE_DAYS} jours`)
		expect(html).toContain(`${CONFIRM_TTL_HOURS} heures`)
		expect(html).not.toContain('{{')
	})
})
