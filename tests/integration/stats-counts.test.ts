import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { revokeBatch, revokeCode } from '#app/features/codes/batches.server.ts'
import { listCampaigns } from '#app/features/codes/campaigns.server.ts'
import { redeemForMember } from '#app/features/codes/redeem.server.ts'
import { listMessages, messageCounts, openMessage, setHandled, submitContact } from '#app/features/contact/contact.server.ts'
import { listEvents } from '#app/features/events/admin.server.ts'
import { countEvents } from '#app/features/events/events.server.ts'
import { listSubscribers } from '#app/features/newsletter/admin.server.ts'
import { countByStatus } from '#app/features/newsletter/subscribers.server.tsx'
import { newSecret } from '#app/platform/random-token.server.ts'
import { readRange } from '#app/features/stats/range.ts'
import { loadStats } from '#app/features/stats/sources/index.server.ts'
import { newsletterSubscriber } from '#app/platform/db/schema.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { campaignWithCodes, members } from '../support/codes.ts'
import { daysFrom, insertEvent } from '../support/events.ts'
import { startTestPlatform, type TestPlatform } from '../support/platform.ts'

/*
 * Every « now » figure of the stats screen against the same data as its own screen counts it: the
 * codes (campaigns screen), the shows to come (events screen and public list), the messages
 * (inbox tabs) and the newsletter's subscribers by status (newsletter screen and its filtered
 * list). The data is made through the features' own functions: a batch and a single code revoked,
 * a code redeemed, a show playing right now, messages read and handled, subscribers in each state.
 */
let env: TestPlatform
const db = () => env.platform.database.db

// Opening a fresh database and migrating it takes long on a busy machine.
beforeAll(async () => {
	env = await startTestPlatform()
}, 300_000)
afterAll(async () => {
	await env?.stop()
})

async function figures() {
	const { range } = readRange(new URLSearchParams(), getT())
	const results = await loadStats(db(), range)
	return new Map(results.flatMap((result) => result.figures.map((figure) => [figure.key, figure.value])))
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0)

describe('the stats screen counts as each screen does', () => {
	it('codes: generated and revoked, as on the campaigns screen (a revoked batch’s codes are revoked)', async () => {
		const revokedBatch = await campaignWithCodes(db(), 5)
		const other = await campaignWithCodes(db(), 3)
		await revokeBatch(db(), revokedBatch.batchId)
		await revokeCode(db(), other.codes[0]!)
		const [fan] = await members(db(), 1)
		expect((await redeemForMember(db(), other.codes[1]!, fan!)).outcome).toBe('granted')

		const campaigns = await listCampaigns(db())
		const shown = await figures()
		expect(shown.get('codes.generated')).toBe(sum(campaigns.map((c) => c.generated)))
		expect(shown.get('codes.revoked')).toBe(sum(campaigns.map((c) => c.revoked)))
		expect(shown.get('codes.revoked')).toBe(6)
	})

	it('events: the shows to come, as the events screen and the public list count them (one is playing now)', async () => {
		await insertEvent(db(), { title: 'Bientôt', startsAt: daysFrom(3), published: true })
		await insertEvent(db(), { title: 'En ce moment', startsAt: new Date(Date.now() - 30 * 60_000), published: true })
		await insertEvent(db(), { title: 'Passé', startsAt: daysFrom(-3), published: true })
		await insertEvent(db(), { title: 'Brouillon', startsAt: daysFrom(5), published: false })

		const shown = await figures()
		const screen = await listEvents(db(), { tab: 'upcoming' })
		expect(shown.get('events.upcoming')).toBe(screen.counts.upcoming)
		expect(shown.get('events.upcoming')).toBe((await countEvents(db())).upcoming)
		expect(shown.get('events.upcoming')).toBe(2)
	})

	it('messages: unread and to handle, as the inbox’s tabs count them', async () => {
		const ids: string[] = []
		for (const name of ['Ana', 'Bo', 'Cy']) {
			const sent = await submitContact(env.platform, `198.18.200.${ids.length + 1}`, {
				name,
				email: `${name.toLowerCase()}@exemple.fr`,
				subject: 'booking',
				message: 'Bonjour, une date à Lyon en mars ?',
			})
			expect(sent.ok).toBe(true)
			ids.push((sent as { id: string }).id)
		}
		await openMessage(env.platform, ids[0]!)
		await setHandled(env.platform, ids[1]!, true)

		const shown = await figures()
		const counts = await messageCounts(env.platform)
		expect(shown.get('contact.unread')).toBe(counts.unread)
		expect(shown.get('contact.open')).toBe(counts.open)
		expect(shown.get('contact.unread')).toBe((await listMessages(env.platform, 'unread')).total)
		expect(shown.get('contact.open')).toBe((await listMessages(env.platform, 'open')).total)
		expect([shown.get('contact.unread'), shown.get('contact.open')]).toEqual([1, 2])
	})

	it('newsletter: subscribers by status, as the newsletter screen and its filtered list count them', async () => {
		const hourAgo = new Date(Date.now() - 3_600_000)
		const seed = { pending: 2, active: 3, unsubscribed: 1, bounced: 1 } as const
		for (const [status, n] of Object.entries(seed)) {
			for (let i = 0; i < n; i++) {
				await db()
					.insert(newsletterSubscriber)
					.values({
						id: randomUUID(),
						email: `${status}-${i}-${randomUUID().slice(0, 6)}@exemple.fr`,
						status: status as keyof typeof seed,
						source: 'import',
						unsubscribeToken: newSecret(),
						consentAt: status === 'pending' ? null : hourAgo,
						unsubscribedAt: status === 'unsubscribed' ? hourAgo : null,
						bouncedAt: status === 'bounced' ? hourAgo : null,
						createdAt: hourAgo,
					})
			}
		}
		const shown = await figures()
		const counts = await countByStatus(db())
		for (const status of ['active', 'pending', 'unsubscribed', 'bounced'] as const) {
			expect(shown.get(`newsletter.${status}`), status).toBe(counts[status])
			expect(shown.get(`newsletter.${status}`), status).toBe((await listSubscribers(db(), { status })).total)
			expect(shown.get(`newsletter.${status}`), status).toBe(seed[status])
		}
		// The period ends today: its last day's active subscribers are today's.
		expect(shown.get('newsletter.activeAtEnd')).toBe(counts.active)
	})
})
