import { lt } from 'drizzle-orm'
import type { Db } from '#app/platform/db/client.server.ts'
import { newsletterDelivery } from '#app/platform/db/schema.ts'
import type { Platform } from '#app/platform/platform.server.ts'
import { DELIVERY_RECORD_DAYS } from './rules.ts'
import {
	kickCampaigns,
	LEASE_SECONDS,
	NEWSLETTER_SEND_QUEUE,
	NEWSLETTER_TICK_QUEUE,
	queueCampaignSend,
	runCampaignSlice,
	SEND_QUEUE_OPTIONS,
	type SenderContext,
	watchLeases,
} from './sender.server.ts'
import { purgePendingSubscribers } from './subscribers.server.tsx'

export const NEWSLETTER_PURGE_QUEUE = 'newsletter.purge'

/** Pending addresses past their time, and delivery records past their retention. */
export async function purgeNewsletter(db: Db, now = new Date()) {
	const pending = await purgePendingSubscribers(db, now)
	const deliveries = await db
		.delete(newsletterDelivery)
		.where(lt(newsletterDelivery.createdAt, new Date(now.getTime() - DELIVERY_RECORD_DAYS * 24 * 3600_000)))
		.returning({ id: newsletterDelivery.id })
	return { pending, deliveries: deliveries.length }
}

/** The newsletter's workers: campaign sends, the tick (dead senders; each minute on PostgreSQL), the daily purge. */
export async function startNewsletterWorkers(platform: Platform): Promise<void> {
	const { jobs, database, env, logger, realtime } = platform
	const db = database.db
	const ctx: SenderContext = { db, env, logger, realtime, jobs }
	await jobs.queue(NEWSLETTER_SEND_QUEUE, SEND_QUEUE_OPTIONS)
	await jobs.queue(NEWSLETTER_TICK_QUEUE, { retryLimit: 0 })
	await jobs.queue(NEWSLETTER_PURGE_QUEUE, { retryLimit: 2, retryDelay: 300 })

	await jobs.work<{ campaignId: string }>(
		NEWSLETTER_SEND_QUEUE,
		async ([job]) => {
			if (!job) return
			const outcome = await runCampaignSlice(ctx, job.data.campaignId)
			if (outcome.state === 'continue') await queueCampaignSend(jobs, job.data.campaignId)
			else if (outcome.state === 'waiting') await queueCampaignSend(jobs, job.data.campaignId, { startAfter: outcome.until })
			else if (outcome.state === 'no-smtp') logger.warn({ campaign: job.data.campaignId }, 'newsletter not sent: SMTP_URL is not set')
		},
		{ pollingIntervalSeconds: 1 },
	)
	await jobs.work(NEWSLETTER_TICK_QUEUE, async () => {
		await kickCampaigns(db, jobs)
	})
	await jobs.work(NEWSLETTER_PURGE_QUEUE, async () => {
		logger.info({ newsletter: await purgeNewsletter(db) }, 'newsletter housekeeping done')
	})
	// On PostgreSQL, a look every minute: the safety net across instances. On the embedded database
	// nothing needs it (docs/decisions/0036-no-polling-on-the-embedded-database.md): a scheduled
	// campaign's send job wakes at its time (scheduleCampaign), and a send interrupted by a crash is
	// found by the look at start below; its sender, if any, was this process.
	if (!jobs.soleWriter) await jobs.schedule(NEWSLETTER_TICK_QUEUE, '* * * * *')
	await jobs.schedule(NEWSLETTER_PURGE_QUEUE, '29 4 * * *')
	// A send interrupted by a crash or a restart resumes once its sender's lease has lapsed.
	await jobs.send(NEWSLETTER_TICK_QUEUE, {}, { startAfter: LEASE_SECONDS + 1 })
	// …and one whose sender died on another instance, within seconds, not at the next minute's tick.
	watchLeases(db, jobs, logger, realtime)
}
