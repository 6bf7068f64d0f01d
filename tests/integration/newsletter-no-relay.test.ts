import { randomUUID } from 'node:crypto'
import { eq, like, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getCampaign, saveCampaign } from '#app/features/newsletter/campaigns.server.tsx'
import { newSecret } from '#app/platform/random-token.server.ts'
import { newsletterCampaign, newsletterDelivery, newsletterSubscriber, outboxMail, user } from '#app/platform/db/schema.ts'
import * as campaignRoute from '#app/routes/admin/newsletter-campaign.tsx'
import { signUpConfirmed } from '../support/members.ts'
import { startTestPlatform, type TestPlatform } from '../support/platform.ts'
import { formPost, get, outcome, routeArgs } from '../support/requests.ts'

/*
 * A newsletter with no SMTP relay configured (no SMTP_URL): « Envoyer maintenant », « Programmer »
 * and the test to oneself are refused next to their button with the reason and what to set, and
 * nothing moves: the campaign stays a draft as it was saved, no delivery and no mail is queued, and
 * what was typed comes back in the form.
 */
let env: TestPlatform
const db = () => env.platform.database.db
const PATTERN = '/dashboard/admin/newsletter/campaigns/:campaignId'
let adminCookie = ''

beforeAll(async () => {
	env = await startTestPlatform({ adminEmails: ['admin-relais@exemple.fr'] })
	adminCookie = await signUpConfirmed({ name: 'Admin', email: 'admin-relais@exemple.fr', password: 'cheval agrafe pile correcte' })
	await db().update(user).set({ role: 'admin' }).where(eq(user.email, 'admin-relais@exemple.fr'))
	await db().insert(newsletterSubscriber).values({
		id: randomUUID(),
		email: 'fan-relais@exemple.fr',
		status: 'active',
		source: 'import',
		unsubscribeToken: newSecret(),
		consentAt: new Date(),
	})
}, 300_000)
afterAll(async () => {
	await env?.stop()
})

function post(campaignId: string, fields: Record<string, string>) {
	return campaignRoute.action(
		routeArgs(formPost(`/dashboard/admin/newsletter/campaigns/${campaignId}`, fields, { cookie: adminCookie }), PATTERN, { campaignId }),
	)
}

const typed = { subject: 'Nouvel album : la date', preheader: 'Enfin', body: '## Bonjour\n\nLe disque sort **le 3 mars**.' }

async function mailsAbout(subject: string) {
	const [row] = await db()
		.select({ n: sql<number>`count(*)::int` })
		.from(outboxMail)
		.where(like(outboxMail.subject, `%${subject}%`))
	return row!.n
}

describe('a newsletter without an SMTP relay', () => {
	it('says so on the compose screen', async () => {
		const saved = await saveCampaign(db(), { subject: 'Brouillon', preheader: '', body: 'Texte' })
		const page = await outcome(
			await campaignRoute.loader(
				routeArgs(get(`/dashboard/admin/newsletter/campaigns/${saved!.id}`, { cookie: adminCookie }), PATTERN, { campaignId: saved!.id }),
			),
		)
		expect((page.body as { smtpConfigured: boolean }).smtpConfigured).toBe(false)
	})

	it.each(['send', 'schedule', 'test'] as const)(
		'refuses « %s » with the reason, keeps the draft and the text, queues nothing',
		async (intent) => {
			const saved = await saveCampaign(db(), { subject: `Version enregistrée ${intent}`, preheader: '', body: 'Ancien texte' })
			const id = saved!.id
			const fields = { intent, ...typed, subject: `${typed.subject} (${intent})`, scheduledAt: '2099-03-01T20:00' }
			const refused = await outcome(await post(id, fields))
			expect(refused.status).toBe(400)
			const body = refused.body as { noRelay: string; result: { initialValue: Record<string, string> } }
			expect(body.noRelay).toBe(intent)
			// What was typed comes back into the form.
			expect(body.result.initialValue).toMatchObject({ subject: fields.subject, body: typed.body })
			// The campaign is still the draft that was saved, never scheduled nor sending.
			const campaign = await getCampaign(db(), id)
			expect(campaign).toMatchObject({ status: 'draft', subject: `Version enregistrée ${intent}`, scheduledAt: null })
			const [deliveries] = await db()
				.select({ n: sql<number>`count(*)::int` })
				.from(newsletterDelivery)
				.where(eq(newsletterDelivery.campaignId, id))
			expect(deliveries!.n).toBe(0)
			expect(await mailsAbout(fields.subject)).toBe(0)
		},
	)

	it('refuses to send a campaign not saved yet, and creates none', async () => {
		const [before] = await db()
			.select({ n: sql<number>`count(*)::int` })
			.from(newsletterCampaign)
		const refused = await outcome(await post('new', { intent: 'send', ...typed }))
		expect(refused.status).toBe(400)
		expect((refused.body as { noRelay: string }).noRelay).toBe('send')
		const [after] = await db()
			.select({ n: sql<number>`count(*)::int` })
			.from(newsletterCampaign)
		expect(after!.n).toBe(before!.n)
	})

	it('still saves a draft', async () => {
		const saved = await outcome(await post('new', { intent: 'save', ...typed, subject: 'Enregistré sans relais' }))
		expect(saved.status).toBe(302)
		const [row] = await db().select().from(newsletterCampaign).where(eq(newsletterCampaign.subject, 'Enregistré sans relais'))
		expect(row).toMatchObject({ status: 'draft', body: typed.body })
	})
})
