import { randomUUID } from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { cancelCampaign, saveCampaign, scheduleCampaign } from '#app/features/newsletter/campaigns.server.tsx'
import { campaignProgress, runCampaignSlice, type SenderContext } from '#app/features/newsletter/sender.server.ts'
import { newSecret } from '#app/platform/random-token.server.ts'
import { newsletterCampaign, newsletterDelivery, newsletterSubscriber } from '#app/platform/db/schema.ts'
import { startTestPlatform, type TestPlatform } from '../support/platform.ts'
import { startTestSmtp, type TestSmtp } from '../support/smtp.ts'

/*
 * Sending a campaign through a real SMTP server: one mail per active subscriber with the one-click
 * unsubscribe headers, temporary refusals retried, permanent ones bouncing the address, cancel.
 * (The exactly-once test across `kill -9` is newsletter-crash.test.ts.)
 */
let smtp: TestSmtp
let env: TestPlatform
beforeAll(async () => {
	smtp = await startTestSmtp()
	env = await startTestPlatform({ env: { SMTP_URL: smtp.url, SMTP_RATE_PER_SECOND: '2000' } })
})
afterAll(async () => {
	await env?.stop()
	await smtp?.close()
})

const db = () => env.platform.database.db
const ctx = (): SenderContext => {
	const { database, env: e, logger, realtime, jobs } = env.platform
	return { db: database.db, env: e, logger, realtime, jobs }
}

let run = 0
async function addSubscribers(count: number, status: 'active' | 'pending' | 'unsubscribed' = 'active') {
	run++
	const rows = Array.from({ length: count }, (_, i) => ({
		id: randomUUID(),
		email: `fan${i}.r${run}.${status}@exemple.fr`,
		status,
		source: 'import' as const,
		unsubscribeToken: newSecret(),
		consentAt: new Date(),
	}))
	await db().insert(newsletterSubscriber).values(rows)
	return rows
}

async function newCampaign(subject: string) {
	const campaign = await saveCampaign(db(), {
		subject,
		preheader: 'Aperçu',
		body: '## Bonjour\n\nDes **nouvelles** <script>alert(1)</script>',
	})
	await scheduleCampaign(db(), env.platform.jobs, env.platform.realtime, campaign!.id)
	return campaign!.id
}

beforeEach(async () => {
	// Each test counts its own subscribers: the earlier ones leave the list.
	await db().update(newsletterSubscriber).set({ status: 'unsubscribed' }).where(eq(newsletterSubscriber.status, 'active'))
	smtp.setMode('accept')
})

describe('sending a campaign', () => {
	it('mails every active subscriber once, with the one-click unsubscribe headers, and nobody else', async () => {
		const fans = await addSubscribers(40)
		const others = [...(await addSubscribers(3, 'pending')), ...(await addSubscribers(3, 'unsubscribed'))]
		const id = await newCampaign('Nouvelle tournée')
		const before = smtp.received.length

		expect(await runCampaignSlice(ctx(), id)).toEqual({ state: 'done' })

		const mails = smtp.received.slice(before)
		expect(mails).toHaveLength(40)
		for (const fan of fans) expect(smtp.to(fan.email)).toHaveLength(1)
		for (const other of others) expect(smtp.to(other.email)).toHaveLength(0)

		const mail = smtp.to(fans[0]!.email)[0]!
		const token = fans[0]!.unsubscribeToken
		expect(mail.parsed.subject).toBe('Nouvelle tournée')
		const head = mail.raw.slice(0, mail.raw.indexOf('\r\n\r\n')).replace(/\r\n\s+/g, ' ')
		expect(head).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m)
		expect(head.match(/^List-Unsubscribe: (.+)$/m)?.[1]).toContain(`<http://localhost:3000/unsubscribe/one-click?token=${token}>`)
		// The body: the subscriber's own link, the Markdown rendered, the script escaped and never run.
		expect(mail.parsed.html).toContain(`/unsubscribe?token=${token}`)
		expect(mail.parsed.html).toContain('<strong>nouvelles</strong>')
		expect(mail.parsed.html).not.toContain('<script>')
		expect(mail.parsed.text).toContain('nouvelles')
		// The MIME as the relay stored it: an encoded accented subject, both parts in quoted-printable,
		// accents decoded back, CRLF lines a relay accepts, the list headers and the recipient's own ids.
		expect(head).toMatch(/^Subject: =\?UTF-8\?Q\?Nouvelle_tourn=C3=A9e\?=$/m)
		expect(head).toMatch(/^MIME-Version: 1\.0$/m)
		expect(head).toMatch(/^Content-Type: multipart\/alternative; boundary=/m)
		expect(head).toMatch(/^List-Id: <newsletter\.localhost>$/im)
		expect(head).toMatch(/^Precedence: bulk$/m)
		expect(mail.parsed.to).toMatchObject({ value: [{ address: fans[0]!.email }] })
		expect(mail.parsed.messageId).toMatch(new RegExp(`^<${id}\\.\\d+@localhost>$`))
		expect(mail.raw.match(/^Content-Transfer-Encoding: quoted-printable$/gm)).toHaveLength(2)
		expect(mail.raw).not.toMatch(/[^\r]\n/)
		for (const line of mail.raw.split('\r\n')) expect(line.length).toBeLessThanOrEqual(998)
		expect(mail.parsed.html).toContain('Aperçu')
		expect(mail.parsed.text).toContain('NOUVELLE TOURNÉE')

		const progress = await campaignProgress(db(), id)
		expect(progress).toMatchObject({ status: 'sent', recipients: 40, sent: 40, queued: 0 })
		// A second run (a double-clicked « Envoyer », a duplicate job) sends nothing more.
		expect((await runCampaignSlice(ctx(), id)).state).toBe('busy')
		expect(smtp.received.length - before).toBe(40)
	})

	it('retries temporary refusals later, and bounces addresses the relay refuses for good', async () => {
		const fans = await addSubscribers(6)
		smtp.refuse(fans[0]!.email, 550)
		smtp.refuse(fans[1]!.email, 451)
		const id = await newCampaign('Refus')

		const first = await runCampaignSlice(ctx(), id)
		expect(first.state).toBe('waiting')
		expect(smtp.to(fans[2]!.email)).toHaveLength(1)

		const [bounced] = await db().select().from(newsletterSubscriber).where(eq(newsletterSubscriber.email, fans[0]!.email))
		expect(bounced!.status).toBe('bounced')
		const rows = await db().select().from(newsletterDelivery).where(eq(newsletterDelivery.campaignId, id))
		expect(rows.find((r) => r.email === fans[0]!.email)).toMatchObject({ status: 'bounced' })
		expect(rows.find((r) => r.email === fans[1]!.email)).toMatchObject({ status: 'queued', attempts: 1 })

		// The relay takes it now; its retry time comes.
		smtp.refuse(fans[1]!.email, null)
		await db()
			.update(newsletterDelivery)
			.set({ retryAt: new Date(Date.now() - 1000) })
			.where(and(eq(newsletterDelivery.campaignId, id), eq(newsletterDelivery.status, 'queued')))
		expect(await runCampaignSlice(ctx(), id)).toEqual({ state: 'done' })
		expect(smtp.to(fans[1]!.email)).toHaveLength(1)
		for (const fan of fans.slice(2)) expect(smtp.to(fan.email)).toHaveLength(1)
		expect(await campaignProgress(db(), id)).toMatchObject({ status: 'sent', sent: 5, bounced: 1 })
	})

	it('survives a relay that refuses everything for a while: nothing lost, nothing sent twice', async () => {
		const fans = await addSubscribers(10)
		const id = await newCampaign('Panne')
		smtp.setMode('reject')
		expect((await runCampaignSlice(ctx(), id)).state).toBe('waiting')
		// The campaign screen says the relay takes nothing (and since when), and lets the campaign go.
		const [stalled] = await db().select().from(newsletterCampaign).where(eq(newsletterCampaign.id, id))
		expect(stalled).toMatchObject({ status: 'sending', runnerId: null })
		expect(stalled!.relayError).toContain('maintenance')
		expect((await campaignProgress(db(), id))!.relayErrorSince).not.toBeNull()
		smtp.setMode('accept')
		await db()
			.update(newsletterDelivery)
			.set({ retryAt: new Date(Date.now() - 1000) })
			.where(eq(newsletterDelivery.campaignId, id))
		expect(await runCampaignSlice(ctx(), id)).toEqual({ state: 'done' })
		for (const fan of fans) expect(smtp.to(fan.email)).toHaveLength(1)
		expect((await campaignProgress(db(), id))!.relayErrorSince).toBeNull()
	})

	it('stops a cancelled campaign', async () => {
		await addSubscribers(5)
		const id = await newCampaign('Annulée')
		expect(await cancelCampaign(db(), env.platform.realtime, id)).toBe(true)
		expect((await runCampaignSlice(ctx(), id)).state).toBe('busy')
		expect(await campaignProgress(db(), id)).toMatchObject({ status: 'cancelled', sent: 0 })
	})
})

describe('figures for the stats screen', () => {
	it('count sends and failures per day, and subscribers by status per day', async () => {
		const { sendsPerDay, subscribersByStatusOverTime } = await import('#app/features/newsletter/stats.server.ts')
		const from = new Date(Date.now() - 2 * 24 * 3600_000)
		const to = new Date(Date.now() + 24 * 3600_000)
		const sends = await sendsPerDay(db(), from, to)
		const sent = sends.reduce((sum, day) => sum + day.sent, 0)
		const failed = sends.reduce((sum, day) => sum + day.failed, 0)
		const [delivered] = await db()
			.select({ n: sql<number>`count(*)::int` })
			.from(newsletterDelivery)
			.where(eq(newsletterDelivery.status, 'sent'))
		expect(sent).toBe(Number(delivered!.n))
		expect(failed).toBeGreaterThanOrEqual(1) // the bounced address above
		const days = await subscribersByStatusOverTime(db(), from, to)
		// Every Paris day the range touches, the first one before anyone subscribed.
		expect(days).toHaveLength(4)
		const todayInParis = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date())
		const today = days.find((day) => day.day === todayInParis)!
		const [counts] = await db()
			.select({
				active: sql<number>`count(*) filter (where status = 'active')::int`,
				bounced: sql<number>`count(*) filter (where status = 'bounced')::int`,
			})
			.from(newsletterSubscriber)
		expect(today.bounced).toBe(Number(counts!.bounced))
		expect(days[0]!.active).toBe(0)
	})
})
