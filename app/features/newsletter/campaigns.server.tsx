import { randomUUID } from 'node:crypto'
import { and, desc, eq, gt, inArray, sql } from 'drizzle-orm'
import { mailIdentity } from '#app/platform/auth-emails.server.tsx'
import type { Db } from '#app/platform/db/client.server.ts'
import {
	newsletterCampaign,
	newsletterDelivery,
	newsletterSubscriber,
	type CampaignAudience,
	type CampaignStatus,
} from '#app/platform/db/schema.ts'
import type { Jobs } from '#app/platform/jobs.server.ts'
import type { Realtime } from '#app/platform/realtime.server.ts'
import { campaignBodyHtml, NewsletterMail, renderCampaign } from './mails.tsx'
import { CAMPAIGN_TOPIC, campaignProgress, queueCampaignSend } from './sender.server.ts'
import type { NewsletterContext } from './subscribers.server.tsx'
import { getT } from '#app/platform/i18n.server.ts'

/*
 * Campaigns: drafts, the test send, sending now or at a set time, cancelling, and the history with
 * its counts. Every change of state is one conditional UPDATE, so a double-clicked « Envoyer » or a
 * cancel racing the sender settles on one outcome.
 */

export type Campaign = typeof newsletterCampaign.$inferSelect
export interface CampaignInput {
	subject: string
	preheader?: string
	body: string
	/** A concert's announcement: the fans near it; absent or null, every subscriber. */
	audience?: CampaignAudience | null
}

const EDITABLE: CampaignStatus[] = ['draft', 'scheduled']

export async function getCampaign(db: Db, id: string): Promise<Campaign | undefined> {
	const [row] = await db.select().from(newsletterCampaign).where(eq(newsletterCampaign.id, id))
	return row
}

/** Creates a draft, or saves one (a campaign already sending or sent is never changed). */
export async function saveCampaign(db: Db, input: CampaignInput & { id?: string; createdBy?: string }): Promise<Campaign | null> {
	const values = { subject: input.subject, preheader: input.preheader ?? '', body: input.body, audience: input.audience ?? null }
	if (!input.id) {
		const [row] = await db
			.insert(newsletterCampaign)
			.values({ id: randomUUID(), ...values, createdBy: input.createdBy ?? null })
			.returning()
		return row ?? null
	}
	const [row] = await db
		.update(newsletterCampaign)
		.set(values)
		.where(and(eq(newsletterCampaign.id, input.id), inArray(newsletterCampaign.status, EDITABLE)))
		.returning()
	return row ?? null
}

/** Sends a campaign now (`at` omitted) or at `at`. False if it is no longer a draft or scheduled. */
export async function scheduleCampaign(db: Db, jobs: Jobs, realtime: Realtime, id: string, at?: Date): Promise<boolean> {
	const when = at && at.getTime() > Date.now() ? at : new Date()
	const [row] = await db
		.update(newsletterCampaign)
		.set({ status: 'scheduled', scheduledAt: when })
		.where(and(eq(newsletterCampaign.id, id), inArray(newsletterCampaign.status, EDITABLE)))
		.returning({ id: newsletterCampaign.id })
	if (!row) return false
	await queueCampaignSend(jobs, id, { startAfter: when })
	await realtime.publish(CAMPAIGN_TOPIC, await campaignProgress(db, id)).catch(() => {})
	return true
}

/** Back to draft: a scheduled campaign that has not started. */
export async function unscheduleCampaign(db: Db, id: string): Promise<boolean> {
	const rows = await db
		.update(newsletterCampaign)
		.set({ status: 'draft', scheduledAt: null })
		.where(and(eq(newsletterCampaign.id, id), eq(newsletterCampaign.status, 'scheduled')))
		.returning({ id: newsletterCampaign.id })
	return rows.length > 0
}

/** Stops a scheduled or sending campaign; what was not sent yet stays unsent. */
export async function cancelCampaign(db: Db, realtime: Realtime, id: string): Promise<boolean> {
	const rows = await db
		.update(newsletterCampaign)
		.set({ status: 'cancelled', finishedAt: new Date(), runnerId: null })
		.where(and(eq(newsletterCampaign.id, id), inArray(newsletterCampaign.status, ['scheduled', 'sending'])))
		.returning({ id: newsletterCampaign.id })
	if (rows.length > 0) await realtime.publish(CAMPAIGN_TOPIC, await campaignProgress(db, id)).catch(() => {})
	return rows.length > 0
}

/** Deletes a draft (never a campaign that went out: its history stays). */
export async function deleteDraft(db: Db, id: string): Promise<boolean> {
	const rows = await db
		.delete(newsletterCampaign)
		.where(and(eq(newsletterCampaign.id, id), eq(newsletterCampaign.status, 'draft')))
		.returning({ id: newsletterCampaign.id })
	return rows.length > 0
}

/** The campaign as the admin's preview frame shows it: the very template every recipient gets. */
export async function previewCampaign(ctx: Pick<NewsletterContext, 'env'>, input: CampaignInput): Promise<string> {
	const { html } = await renderCampaign(
		ctx.env,
		{ subject: input.subject || getT()('newsletter.admin.compose.noSubject'), preheader: input.preheader ?? '', body: input.body },
		`${ctx.env.SITE_URL}/unsubscribe`,
	)
	return html
}

/** Sends the campaign to the admin alone, through the outbox, marked as a test. */
export async function sendTestCampaign(ctx: NewsletterContext, input: CampaignInput, to: string) {
	return ctx.mailer.sendMail({
		kind: 'newsletter-test',
		origin: 'site',
		to,
		subject: `[Test] ${input.subject}`,
		body: (
			<NewsletterMail
				identity={mailIdentity(ctx.env)}
				subject={input.subject}
				preheader={input.preheader ?? ''}
				bodyHtml={campaignBodyHtml(input.body)}
				unsubscribeUrl={`${ctx.env.SITE_URL}/unsubscribe`}
			/>
		),
	})
}

export interface CampaignSummary {
	id: string
	subject: string
	status: CampaignStatus
	scheduledAt: Date | null
	startedAt: Date | null
	finishedAt: Date | null
	updatedAt: Date
	recipients: number
	queued: number
	sent: number
	failed: number
	bounced: number
	/** Recipients who unsubscribed after it was sent. */
	unsubscribedSince: number
	/** Written by the site when an event was first published (features/newsletter/prepared.server.ts). */
	prepared: boolean
}

/** Every campaign, newest first, with its counts. */
export async function listCampaigns(db: Db, limit = 50): Promise<CampaignSummary[]> {
	const campaigns = await db.select().from(newsletterCampaign).orderBy(desc(newsletterCampaign.createdAt)).limit(limit)
	if (campaigns.length === 0) return []
	const ids = campaigns.map((c) => c.id)
	const counts = await db
		.select({ id: newsletterDelivery.campaignId, status: newsletterDelivery.status, count: sql<number>`count(*)::int` })
		.from(newsletterDelivery)
		.where(inArray(newsletterDelivery.campaignId, ids))
		.groupBy(newsletterDelivery.campaignId, newsletterDelivery.status)
	const left = await db
		.select({ id: newsletterDelivery.campaignId, count: sql<number>`count(*)::int` })
		.from(newsletterDelivery)
		.innerJoin(newsletterSubscriber, eq(newsletterSubscriber.id, newsletterDelivery.subscriberId))
		.innerJoin(newsletterCampaign, eq(newsletterCampaign.id, newsletterDelivery.campaignId))
		.where(
			and(
				inArray(newsletterDelivery.campaignId, ids),
				eq(newsletterDelivery.status, 'sent'),
				eq(newsletterSubscriber.status, 'unsubscribed'),
				gt(newsletterSubscriber.unsubscribedAt, newsletterCampaign.startedAt),
			),
		)
		.groupBy(newsletterDelivery.campaignId)
	return campaigns.map((c) => {
		const of = (status: string) => Number(counts.find((row) => row.id === c.id && row.status === status)?.count ?? 0)
		return {
			id: c.id,
			subject: c.subject,
			status: c.status,
			scheduledAt: c.scheduledAt,
			startedAt: c.startedAt,
			finishedAt: c.finishedAt,
			updatedAt: c.updatedAt,
			recipients: c.recipients ?? 0,
			queued: of('queued'),
			sent: of('sent'),
			failed: of('failed'),
			bounced: of('bounced'),
			unsubscribedSince: Number(left.find((row) => row.id === c.id)?.count ?? 0),
			prepared: c.preparedAt !== null,
		}
	})
}
