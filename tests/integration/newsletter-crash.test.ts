import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { saveCampaign, scheduleCampaign } from '#app/features/newsletter/campaigns.server.tsx'
import { campaignProgress, runCampaignSlice } from '#app/features/newsletter/sender.server.ts'
import { newSecret } from '#app/platform/random-token.server.ts'
import { newsletterCampaign, newsletterDelivery, newsletterSubscriber } from '#app/platform/db/schema.ts'
import { closePlatform, getPlatform } from '#app/platform/platform.server.ts'
import { databaseKind } from '../support/database.ts'
import { startTestPlatform, type TestPlatform } from '../support/platform.ts'
import { ensureBuild, startSiteServer, TEST_BUILD_DIR, type SiteServer } from '../support/site-server.ts'
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
				unsubscribeToken: newSecret(),
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

/*
 * The same across two instances, as behind a load balancer on PostgreSQL: two production servers
 * (server/main.ts on a build) send through the real SMTP server; the one sending is killed with
 * SIGKILL part-way, and the other takes the campaign over within seconds of its lease lapsing (not
 * at the next minute's tick), says so in its log and metrics, and finishes it: each subscriber once.
 */
// Enough for the kill to fall mid-send at the relay's 40 mails a second (a third is 300 mails, ~8 s in).
const DUO_SUBSCRIBERS = 900
const METRICS_TOKEN = 'jeton-de-metriques-assez-long-0123456789'

it.runIf(databaseKind() === 'postgres')(
	`takes a killed sender's campaign over on the other instance within 15 s, and mails everyone exactly once (2 instances, ${databaseKind()})`,
	{ timeout: 400_000 },
	async () => {
		await ensureBuild()
		const platform = await getPlatform()
		const db = platform.database.db
		// This test's campaign and subscribers alone (a campaign the test above left unfinished would keep a sender busy).
		await db
			.update(newsletterCampaign)
			.set({ status: 'cancelled' })
			.where(inArray(newsletterCampaign.status, ['sending', 'scheduled']))
		await db.update(newsletterSubscriber).set({ status: 'unsubscribed' }).where(eq(newsletterSubscriber.status, 'active'))
		const emails = Array.from({ length: DUO_SUBSCRIBERS }, (_, i) => `duo${i}@exemple.fr`)
		const ours = new Set(emails)
		await db.insert(newsletterSubscriber).values(
			emails.map((email) => ({
				id: randomUUID(),
				email,
				status: 'active' as const,
				source: 'import' as const,
				unsubscribeToken: newSecret(),
				consentAt: new Date(),
			})),
		)
		const receivedOurs = () => smtp.received.filter((mail) => mail.envelope.to.some((to) => ours.has(to)))

		const servers: SiteServer[] = []
		try {
			const start = () =>
				startSiteServer({
					buildDir: TEST_BUILD_DIR,
					dataDir: env.database.dataDir,
					startTimeoutMs: 180_000,
					env: {
						DATABASE_URL: env.database.databaseUrl,
						SMTP_URL: smtp.url,
						SMTP_RATE_PER_SECOND: '40',
						NEWSLETTER_CONNECTIONS: '2',
						METRICS_TOKEN,
						LOG_LEVEL: 'info',
					},
				})
			servers.push(...(await Promise.all([start(), start()])))
			smtp.setDelay(100)
			const campaign = await saveCampaign(db, { subject: 'Deux instances', body: 'Bonjour à toutes et à tous.' })
			await scheduleCampaign(db, platform.jobs, platform.realtime, campaign!.id)
			const runnerOf = async () =>
				(
					await db.select({ runnerId: newsletterCampaign.runnerId }).from(newsletterCampaign).where(eq(newsletterCampaign.id, campaign!.id))
				)[0]?.runnerId ?? null

			await until('a third of the mails', () => receivedOurs().length >= DUO_SUBSCRIBERS / 3, 180_000)
			const runner = await runnerOf()
			expect(runner).not.toBeNull()
			const sender = servers.find((server) => server.output().includes(`"runner":"${runner}"`))
			const survivor = servers.find((server) => server !== sender)!
			expect(sender, 'the instance that logged the running slice').toBeDefined()

			process.kill(sender!.pid, 'SIGKILL')
			const killedAt = performance.now()
			expect((await sender!.exited).signal).toBe('SIGKILL')
			const atKill = receivedOurs().length
			let takenOver = 0
			await until(
				'another sender to take the campaign',
				async () => {
					const now = await runnerOf()
					if (now !== null && now !== runner) takenOver = performance.now() - killedAt
					return takenOver > 0
				},
				60_000,
			).catch(async (error: unknown) => {
				const [row] = await db.select().from(newsletterCampaign).where(eq(newsletterCampaign.id, campaign!.id))
				throw new Error(`${(error as Error).message}\n${JSON.stringify(row)}\n${survivor.output().slice(-6000)}`)
			})
			await until('a mail from the new sender', () => receivedOurs().length > atKill, 60_000)
			const firstMailMs = performance.now() - killedAt
			smtp.setDelay(0)
			await until('the campaign to be sent', async () => (await campaignProgress(db, campaign!.id))?.status === 'sent', 180_000)

			const received = new Map<string, number>()
			for (const mail of receivedOurs()) for (const to of mail.envelope.to) received.set(to, (received.get(to) ?? 0) + 1)
			const twice = [...received].filter(([, count]) => count > 1)
			const missing = emails.filter((email) => !received.has(email))
			expect({ twice, missing }).toEqual({ twice: [], missing: [] })
			expect(await campaignProgress(db, campaign!.id)).toMatchObject({ status: 'sent', recipients: DUO_SUBSCRIBERS, sent: DUO_SUBSCRIBERS })

			// Said once, in the survivor's log and its metrics.
			const said = survivor
				.output()
				.split('\n')
				.filter((line) => line.includes('newsletter send taken over'))
			expect(said).toHaveLength(1)
			expect(said[0]).toContain(`"from":"${runner}"`)
			const metrics = await (await fetch(`${survivor.origin}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text()
			expect(metrics).toMatch(/^band_newsletter_takeovers_total 1$/m)

			console.info(
				`2 instances: kill -9 after ${atKill} of ${DUO_SUBSCRIBERS} mails; taken over ${(takenOver / 1000).toFixed(1)} s after the kill, ` +
					`next mail after ${(firstMailMs / 1000).toFixed(1)} s; ${receivedOurs().length} received, none twice`,
			)
			expect(takenOver).toBeLessThan(15_000)
		} finally {
			smtp.setDelay(0)
			for (const server of servers) await server.stop(30_000)
		}
	},
)
