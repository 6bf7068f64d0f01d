import { randomUUID } from 'node:crypto'
import { and, desc, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { saveCampaign } from '#app/features/newsletter/campaigns.server.tsx'
import { findSubscriber, followAddressChange, type Subscriber } from '#app/features/newsletter/subscribers.server.tsx'
import { newSecret } from '#app/platform/random-token.server.ts'
import { newsletterDelivery, newsletterSubscriber, outboxMail } from '#app/platform/db/schema.ts'
import * as settings from '#app/routes/dashboard/settings.tsx'
import * as settingsExport from '#app/routes/dashboard/settings-export.ts'
import * as settingsNewsletter from '#app/routes/dashboard/settings-newsletter.ts'
import { databaseKind } from '../support/database.ts'
import { confirmByLink, signUpConfirmed } from '../support/members.ts'
import { startTestPlatform, type TestPlatform } from '../support/platform.ts'
import { cookieFrom, formPost, get, outcome, routeArgs } from '../support/requests.ts'

/*
 * A member's newsletter subscription follows a change of their address: the settings toggle shows
 * the record of the account's address, so that record moves with it, or, when the new address had
 * one of its own, the two become one without losing a consent or undoing an unsubscription. The
 * delivery records follow too, found by address through their index.
 */
const PASSWORD = 'cheval agrafe pile correcte'
let env: TestPlatform
beforeAll(async () => {
	env = await startTestPlatform()
})
afterAll(async () => {
	await env?.stop()
})
const db = () => env.platform.database.db
const unique = () => randomUUID().slice(0, 8)

async function settingsShow(cookie: string) {
	return (await settings.loader(routeArgs(get('/dashboard/settings', { cookie }), '/dashboard/settings'))).newsletter
}

async function exported(cookie: string) {
	const response = await settingsExport.loader(routeArgs(get('/dashboard/settings/export', { cookie }), '/dashboard/settings/export'))
	return (await response.json()).newsletter as { subscription: Record<string, unknown> | null; issues: { subject: string }[] }
}

async function delivery(campaignId: string, subscriber: Subscriber, status: 'sent' | 'queued' = 'sent') {
	const [row] = await db()
		.insert(newsletterDelivery)
		.values({ campaignId, subscriberId: subscriber.id, email: subscriber.email, status })
		.returning()
	return row!
}

async function campaign(subject: string) {
	return (await saveCampaign(db(), { subject, body: 'Bonjour.' }))!
}

it(`moves the member's subscription and deliveries to their new address once it is verified (${databaseKind()})`, async () => {
	const before = `avant-${unique()}@exemple.fr`
	const after = `apres-${unique()}@exemple.fr`
	const cookie = await signUpConfirmed({ name: 'Léa', email: before, password: PASSWORD })
	const toggled = await outcome(
		await settingsNewsletter.action(
			routeArgs(formPost('/dashboard/settings/newsletter', { subscribe: 'on' }, { cookie }), '/dashboard/settings/newsletter'),
		),
	)
	expect(toggled.status).toBe(302)
	const subscribed = (await findSubscriber(db(), before))!
	expect(subscribed).toMatchObject({ status: 'active', source: 'settings' })
	const issue = await campaign('Tournée d’automne')
	await delivery(issue.id, subscribed)

	// The change, as the member makes it: the settings form, then the link mailed to the new address.
	const asked = await outcome(
		await settings.action(
			routeArgs(
				formPost('/dashboard/settings', { intent: 'email', newEmail: after, currentPassword: PASSWORD }, { cookie }),
				'/dashboard/settings',
			),
		),
	)
	expect(asked.status).toBe(302)
	// Not before the new address is proven.
	expect(await findSubscriber(db(), before)).toMatchObject({ id: subscribed.id })
	const [mail] = await db()
		.select()
		.from(outboxMail)
		.where(and(eq(outboxMail.toAddress, after), eq(outboxMail.kind, 'change-email')))
		.orderBy(desc(outboxMail.createdAt))
	const token = /token=([A-Za-z0-9._-]+)/.exec(mail?.text ?? '')?.[1]
	expect(token, 'a link in the mail to the new address').toBeTruthy()
	const confirmed = await confirmByLink(token!, { password: PASSWORD }, cookie)
	expect(confirmed.status).toBe(200)
	const newCookie = cookieFrom(confirmed.headers)

	expect(await findSubscriber(db(), before)).toBeUndefined()
	expect(await findSubscriber(db(), after)).toEqual({ ...subscribed, email: after, updatedAt: expect.any(Date) })
	expect(await settingsShow(newCookie)).toBe('active')
	const data = await exported(newCookie)
	expect(data.subscription).toMatchObject({ email: after, status: 'active', source: 'settings' })
	expect(data.issues.map((i) => i.subject)).toEqual(['Tournée d’automne'])
})

describe('when the new address has a record of its own', () => {
	const day = (n: number) => new Date(Date.UTC(2026, 9, n))
	async function subscriber(email: string, fields: Partial<Subscriber>) {
		const [row] = await db()
			.insert(newsletterSubscriber)
			.values({ id: randomUUID(), email, status: 'pending', source: 'landing', unsubscribeToken: newSecret(), ...fields })
			.returning()
		return row!
	}
	async function pair(old: Partial<Subscriber>, current: Partial<Subscriber>) {
		const from = `ancienne-${unique()}@exemple.fr`
		const to = `nouvelle-${unique()}@exemple.fr`
		return { from, to, moving: await subscriber(from, old), staying: await subscriber(to, current) }
	}
	const active = (n: number, source: Subscriber['source'] = 'settings') => ({
		status: 'active' as const,
		source,
		consentAt: day(n),
		policyVersion: `v${n}`,
	})

	it('keeps the consent of the member’s record over an unconfirmed request, on the new address’s row', async () => {
		const { from, to, moving, staying } = await pair(active(1), { confirmTokenHash: `h-${unique()}`, confirmExpiresAt: day(30) })
		await followAddressChange(db(), from, to)
		expect(await findSubscriber(db(), from)).toBeUndefined()
		expect(await findSubscriber(db(), to)).toMatchObject({
			id: staying.id,
			unsubscribeToken: staying.unsubscribeToken,
			status: 'active',
			source: 'settings',
			consentAt: moving.consentAt,
			policyVersion: 'v1',
			confirmTokenHash: null,
		})
	})

	it('never undoes an unsubscription made after the consent, on either address', async () => {
		const later = await pair(active(1), { ...active(0, 'landing'), status: 'unsubscribed', unsubscribedAt: day(2) })
		await followAddressChange(db(), later.from, later.to)
		expect(await findSubscriber(db(), later.to)).toMatchObject({ status: 'unsubscribed', unsubscribedAt: day(2) })

		const onTheOld = await pair({ ...active(1), status: 'unsubscribed', unsubscribedAt: day(3) }, active(2, 'landing'))
		await followAddressChange(db(), onTheOld.from, onTheOld.to)
		expect(await findSubscriber(db(), onTheOld.to)).toMatchObject({ status: 'unsubscribed', unsubscribedAt: day(3) })
	})

	it('takes a consent given after an unsubscription, and the one-time bounce of the old mailbox does not stick', async () => {
		const again = await pair({ ...active(1), status: 'unsubscribed', unsubscribedAt: day(2) }, active(3, 'landing'))
		await followAddressChange(db(), again.from, again.to)
		expect(await findSubscriber(db(), again.to)).toMatchObject({
			status: 'active',
			source: 'landing',
			consentAt: day(3),
			unsubscribedAt: null,
		})

		const bounced = await pair({ ...active(4), status: 'bounced', bouncedAt: day(5) }, {})
		await followAddressChange(db(), bounced.from, bounced.to)
		expect(await findSubscriber(db(), bounced.to)).toMatchObject({ status: 'active', consentAt: day(4), bouncedAt: null })
	})

	it('leaves one delivery per campaign: the rest of a send under way goes once, to the new address', async () => {
		const { from, to, moving, staying } = await pair(active(1), active(2, 'landing'))
		const both = await campaign('Les deux adresses')
		const onlyOld = await campaign('L’ancienne seulement')
		const mine = await delivery(both.id, moving, 'queued')
		const theirs = await delivery(both.id, staying, 'queued')
		const past = await delivery(onlyOld.id, moving)
		await followAddressChange(db(), from, to)

		const rows = await db()
			.select()
			.from(newsletterDelivery)
			.where(sql`${newsletterDelivery.id} in (${mine.id}, ${theirs.id}, ${past.id})`)
		const byId = new Map(rows.map((row) => [row.id, row]))
		// The member's own copy has nobody behind it any more: the sender skips it.
		expect(byId.get(mine.id)).toMatchObject({ subscriberId: null, email: to })
		expect(byId.get(theirs.id)).toMatchObject({ subscriberId: staying.id, email: to })
		expect(byId.get(past.id)).toMatchObject({ subscriberId: staying.id, email: to })
	})
})

it('finds a member’s deliveries by address through an index, not by reading them all', async () => {
	// The planner's choice on a small table is to read it whole; without that option, an index must exist.
	const plan = await db().transaction(async (tx) => {
		await tx.execute(sql`set local enable_seqscan = off`)
		const result = await tx.execute(sql`explain select * from newsletter_delivery where email = 'lea@exemple.fr'`)
		return (result as unknown as { rows: Record<string, string>[] }).rows.map((row) => Object.values(row)[0]).join('\n')
	})
	expect(plan).toContain('newsletter_delivery_email_idx')
})
