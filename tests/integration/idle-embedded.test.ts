import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startBackground } from '#app/background.server.ts'
import { saveCampaign, scheduleCampaign } from '#app/features/newsletter/campaigns.server.tsx'
import { newsletterCampaign, newsletterSubscriber } from '#app/platform/db/schema.ts'
import { closePlatform, getPlatform } from '#app/platform/platform.server.ts'
import { newSecret } from '#app/platform/random-token.server.ts'
import { databaseKind } from '../support/database.ts'
import { startTestPlatform, type TestPlatform } from '../support/platform.ts'
import { startTestSmtp, type TestSmtp } from '../support/smtp.ts'
import { watchStatements } from '../support/pglite-statements.ts'

/*
 * On the embedded database, a server at rest sends it no statement at all: no job queue poll, no
 * supervision or cron pass, no newsletter tick, mail sweep or lease watch on a clock
 * (docs/decisions/0036-no-polling-on-the-embedded-database.md). The background workers start as the
 * server starts them (app/background.server.ts); every statement that reaches the PGlite instance is
 * counted (its query, exec and transaction methods, wrapped in this test only). Once the start's own
 * work has settled, a window longer than every old poll (30 s worker polls and cron passes) sees none.
 * Then what the polls used to catch still happens on time, driven by the events that make it due: a
 * failed job's retry, a schedule's occurrences, a newsletter scheduled for a moment later, and a
 * retry that a previous run of the server left waiting.
 */
const SETTLE_QUIET_MS = 20_000
const SETTLE_LIMIT_MS = 150_000
const WINDOW_MS = 40_000

describe.runIf(databaseKind() === 'pglite')('an embedded site at rest', () => {
	let smtp: TestSmtp
	let env: TestPlatform
	let statements = 0
	const recent: string[] = []
	beforeAll(async () => {
		smtp = await startTestSmtp()
		env = await startTestPlatform({ env: { SMTP_URL: smtp.url } })
		// Counted from here: every statement the site sends the engine.
		watchStatements(env.platform.database.pglite!, (statement) => {
			statements++
			recent.push(`${new Date().toISOString()} ${statement.slice(0, 170)}`)
			if (recent.length > 20) recent.shift()
		})
		const { workers } = await startBackground()
		await workers
	}, 120_000)
	afterAll(async () => {
		await env?.stop()
		await smtp?.close()
	})

	it('sends no statement to the database once it has settled', { timeout: SETTLE_LIMIT_MS + WINDOW_MS + 10_000 }, async () => {
		// Settled: the start's jobs (housekeeping, the start's backup, the newsletter's look at
		// interrupted sends) and the supervision after them are done when nothing was sent for a while.
		const started = Date.now()
		let last = statements
		let quietSince = Date.now()
		while (Date.now() - quietSince < SETTLE_QUIET_MS) {
			if (Date.now() - started > SETTLE_LIMIT_MS) throw new Error(`never settled; last statements:\n${recent.join('\n')}`)
			await new Promise((resolve) => setTimeout(resolve, 500))
			if (statements !== last) {
				last = statements
				quietSince = Date.now()
			}
		}
		const before = statements
		await new Promise((resolve) => setTimeout(resolve, WINDOW_MS))
		expect(statements - before, `statements at rest:\n${recent.join('\n')}`).toBe(0)
	})

	it('retries a failed job when its retry falls due, without a poll', { timeout: 30_000 }, async () => {
		const { jobs } = env.platform
		const name = 'test.retry'
		await jobs.queue(name, { retryLimit: 1, retryDelay: 2 })
		const runs: number[] = []
		await jobs.work(name, async () => {
			runs.push(Date.now())
			if (runs.length === 1) throw new Error('first attempt fails')
		})
		await jobs.send(name, {})
		const deadline = Date.now() + 20_000
		while (runs.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100))
		expect(runs).toHaveLength(2)
		// Two seconds of retry delay, then the wake (the old safety poll came every 30 s).
		const gap = runs[1]! - runs[0]!
		expect(gap).toBeGreaterThanOrEqual(1_900)
		expect(gap).toBeLessThan(6_000)
	})

	it('runs a schedule at each occurrence, from a timer set to it', { timeout: 30_000 }, async () => {
		const { jobs } = env.platform
		const name = 'test.schedule'
		await jobs.queue(name)
		const runs: number[] = []
		await jobs.work(name, async () => {
			runs.push(Date.now())
		})
		// Every 2 s (a cron expression with seconds), in the site's time zone like the daily ones.
		await jobs.schedule(name, '*/2 * * * * *')
		const deadline = Date.now() + 15_000
		while (runs.length < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100))
		expect(runs.length).toBeGreaterThanOrEqual(3)
		// Each within a second of its occurrence (an even second), not at a 30 s cron pass.
		for (const at of runs) expect(at % 2_000).toBeLessThan(1_000)
	})

	it('sends a newsletter scheduled for later at its time, without the minute tick', { timeout: 60_000 }, async () => {
		const { database, jobs, realtime } = env.platform
		const db = database.db
		const email = `idle-${randomUUID()}@example.test`
		await db.insert(newsletterSubscriber).values({
			id: randomUUID(),
			email,
			status: 'active',
			source: 'import',
			unsubscribeToken: newSecret(),
			consentAt: new Date(),
		})
		const campaign = await saveCampaign(db, { subject: 'Au repos', body: 'Une lettre programmée.' })
		const at = new Date(Date.now() + 4_000)
		expect(await scheduleCampaign(db, jobs, realtime, campaign!.id, at)).toBe(true)
		const mail = await smtp.waitFor(email, undefined, 30_000)
		const received = Date.now()
		expect(mail.parsed.subject).toBe('Au repos')
		expect(received).toBeGreaterThanOrEqual(at.getTime())
		// At its time (plus the send itself), not at the next minute's tick.
		expect(received - at.getTime()).toBeLessThan(10_000)
		// The campaign is recorded as sent once its last mail is taken.
		const status = async () =>
			(await db.select({ status: newsletterCampaign.status }).from(newsletterCampaign).where(eq(newsletterCampaign.id, campaign!.id)))[0]
				?.status
		const deadline = Date.now() + 10_000
		while ((await status()) !== 'sent' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100))
		expect(await status()).toBe('sent')
	})

	it('runs a retry the previous run left waiting when it falls due, after a restart', { timeout: 60_000 }, async () => {
		const name = 'test.restart'
		const options = { retryLimit: 1, retryDelay: 6 }
		const before = env.platform.jobs
		await before.queue(name, options)
		let failedAt = 0
		await before.work(name, async () => {
			failedAt = Date.now()
			throw new Error('fails before the restart')
		})
		await before.send(name, {})
		while (!failedAt) await new Promise((resolve) => setTimeout(resolve, 50))
		// pg-boss records the failure (its retry in 6 s), then the server stops and starts again.
		await new Promise((resolve) => setTimeout(resolve, 1_000))
		await closePlatform()
		const platform = await getPlatform()
		await (
			await startBackground()
		).workers
		const runs: number[] = []
		await platform.jobs.queue(name, options)
		await platform.jobs.work(name, async () => {
			runs.push(Date.now())
		})
		const deadline = Date.now() + 20_000
		while (runs.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100))
		expect(runs).toHaveLength(1)
		// Woken at its time by the look at start, not by a daily poll.
		expect(runs[0]! - failedAt).toBeGreaterThanOrEqual(5_900)
		expect(runs[0]! - failedAt).toBeLessThan(12_000)
	})
})
