import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { saveCampaign, scheduleCampaign } from '#app/features/newsletter/campaigns.server.tsx'
import { campaignProgress, runCampaignSlice } from '#app/features/newsletter/sender.server.ts'
import { newToken } from '#app/features/newsletter/subscribers.server.tsx'
import { newsletterDelivery, newsletterSubscriber } from '#app/platform/db/schema.ts'
import { closePlatform, getPlatform } from '#app/platform/platform.server.ts'
import { databaseKind } from '../support/database.ts'
import { startTestPlatform, type TestPlatform } from '../support/platform.ts'
import { startTestSmtp, type TestSmtp } from '../support/smtp.ts'

/*
 * Exactly once across a crash: a separate process sends a campaign to 1,200 subscribers and is
 * killed with SIGKILL part-way; this process then opens the same database and resumes the send.
 * The real SMTP server counts what it received: each subscriber exactly once.
 */
const SUBSCRIBERS = 1200
let smtp: TestSmtp
let env: TestPlatform
beforeAll(async () => {
	smtp = await startTestSmtp()
	env = await startTestPlatform({ env: { SMTP_URL: smtp.url, SMTP_RATE_PER_SECOND: '400', NEWSLETTER_CONNECTIONS: '4' } })
})
afterAll(async () => {
	await env?.stop()
	await smtp?.close()
})

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 60_000) {
	const deadline = Date.now() + timeoutMs
	while (!(await check())) {
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
		await new Promise((resolve) => setTimeout(resolve, 20))
	}
}

it(
	`mails every subscriber exactly once when the sender is killed (kill -9) mid-send and resumed (${databaseKind()})`,
	{ timeout: 120_000 },
	async () => {
		const db = env.platform.database.db
		const emails = Array.from({ length: SUBSCRIBERS }, (_, i) => `fan${i}@exemple.fr`)
		await db.insert(newsletterSubscriber).values(
			emails.map((email) => ({
				id: randomUUID(),
				email,
				status: 'active' as const,
				source: 'import' as const,
				unsubscribeToken: newToken(),
				consentAt: new Date(),
			})),
		)
		const campaign = await saveCampaign(db, { subject: 'Exactement une fois', body: 'Bonjour à toutes et à tous.' })
		await scheduleCampaign(db, env.platform.jobs, env.platform.realtime, campaign!.id)
		// A relay slow to confirm each message: when the sender dies, many messages have been handed
		// over whole and await the relay's « 250 ». They count as delivered, so they must not go again.
		smtp.setDelay(150)
		// The embedded database is one process's at a time: this one lets go while the sender runs.
		await closePlatform()

		// Node itself runs the sender (through tsx's loader), so that the signal reaches the very process that sends.
		const child = spawn(process.execPath, ['--import', 'tsx', 'tests/support/newsletter-sender-child.ts', campaign!.id], {
			env: process.env,
			stdio: ['ignore', 'pipe', 'pipe'],
		})
		let output = ''
		child.stdout.on('data', (chunk) => (output += chunk))
		child.stderr.on('data', (chunk) => (output += chunk))
		const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)))
		await until('the sender to be half-way', () => smtp.received.length >= SUBSCRIBERS / 3 || child.exitCode !== null).catch((error) => {
			child.kill('SIGKILL')
			throw new Error(`${(error as Error).message}\n${output}`)
		})
		child.kill('SIGKILL')
		expect(await exited, output).toBe('SIGKILL')
		const atKill = smtp.received.length
		expect(atKill).toBeGreaterThan(0)
		expect(atKill).toBeLessThan(SUBSCRIBERS)

		smtp.setDelay(0)
		// Restart: the dead sender's lease lapses, and the send resumes where the database says it stopped.
		const platform = await getPlatform()
		const ctx = { db: platform.database.db, env: platform.env, logger: platform.logger, realtime: platform.realtime, jobs: platform.jobs }
		let state = 'busy'
		await until('the send to resume', async () => {
			state = (await runCampaignSlice(ctx, campaign!.id)).state
			if (state === 'busy') await new Promise((resolve) => setTimeout(resolve, 500))
			return state !== 'busy'
		})
		expect(state).toBe('done')

		const received = new Map<string, number>()
		for (const mail of smtp.received) for (const to of mail.envelope.to) received.set(to, (received.get(to) ?? 0) + 1)
		const twice = [...received].filter(([, count]) => count > 1)
		const missing = emails.filter((email) => !received.has(email))
		expect({ twice, missing }).toEqual({ twice: [], missing: [] })
		expect(smtp.received).toHaveLength(SUBSCRIBERS)
		const rows = await platform.database.db.select().from(newsletterDelivery).where(eq(newsletterDelivery.campaignId, campaign!.id))
		expect(rows.every((row) => row.status === 'sent')).toBe(true)
		expect(await campaignProgress(platform.database.db, campaign!.id)).toMatchObject({
			status: 'sent',
			recipients: SUBSCRIBERS,
			sent: SUBSCRIBERS,
		})
		console.info(`kill -9 after ${atKill} of ${SUBSCRIBERS} mails; resumed; ${smtp.received.length} received, none twice`)
	},
)
