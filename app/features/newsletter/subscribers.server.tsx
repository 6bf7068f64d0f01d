import { randomUUID } from 'node:crypto'
import { and, desc, eq, gt, inArray, lt, sql } from 'drizzle-orm'
import { claimUrl, mailIdentity } from '#app/platform/auth-emails.server.tsx'
import type { Db } from '#app/platform/db/client.server.ts'
import {
	newsletterCampaign,
	newsletterDelivery,
	newsletterSubscriber,
	type SubscriberSource,
	type SubscriberStatus,
} from '#app/platform/db/schema.ts'
import type { Env } from '#app/platform/env.server.ts'
import type { Mailer } from '#app/platform/mail/mailer.server.ts'
import { ConfirmSubscriptionMail, unsubscribeUrl, UnsubscribeLinkMail } from './mails.tsx'
import { CONFIRM_TTL_HOURS, PENDING_PURGE_DAYS, POLICY_VERSION } from './rules.ts'
import { hashToken, newSecret } from '#app/platform/random-token.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { townColumns } from './town-columns.ts'
import type { Town } from '#app/features/towns/towns.server.ts'

/*
 * Subscribers: double opt-in, unsubscribe and the member's toggle, all on one row per address.
 * No function here tells its caller whether an address was already known: every public answer is
 * the same, and only the mailbox's owner learns more (from the mail they receive, or not).
 */

export interface NewsletterContext {
	db: Db
	mailer: Mailer
	env: Env
}

export type Subscriber = typeof newsletterSubscriber.$inferSelect

/** The confirmation link's hash, as confirm_token_hash has always kept it: hex. */
const hash = (token: string) => hashToken(token, 'hex')

export function normaliseEmail(email: string) {
	return email.trim().toLowerCase()
}

export async function findSubscriber(db: Db, email: string): Promise<Subscriber | undefined> {
	const [row] = await db
		.select()
		.from(newsletterSubscriber)
		.where(eq(newsletterSubscriber.email, normaliseEmail(email)))
	return row
}

/**
 * Asks for a subscription: the address gets a confirmation mail (or nothing, if it is active already);
 * its status changes only when the link is followed. Returns nothing the caller could show.
 */
export async function requestSubscription(
	ctx: NewsletterContext,
	input: { email: string; source: SubscriberSource; town?: Town | null },
): Promise<void> {
	const email = normaliseEmail(input.email)
	const existing = await findSubscriber(ctx.db, email)
	// An active address's town changes only through its own links (features/newsletter/town.server.ts):
	// anyone may type an address here.
	if (existing?.status === 'active') return
	const token = newSecret()
	const confirm = {
		confirmTokenHash: hash(token),
		confirmExpiresAt: new Date(Date.now() + CONFIRM_TTL_HOURS * 3600_000),
		...(input.town ? townColumns(input.town) : {}),
	}
	if (existing) {
		await ctx.db.update(newsletterSubscriber).set(confirm).where(eq(newsletterSubscriber.id, existing.id))
	} else {
		await ctx.db
			.insert(newsletterSubscriber)
			.values({ id: randomUUID(), email, status: 'pending', source: input.source, unsubscribeToken: newSecret(), ...confirm })
			.onConflictDoUpdate({ target: newsletterSubscriber.email, set: confirm })
	}
	await ctx.mailer.sendMail({
		kind: 'newsletter-confirm',
		origin: 'visitor',
		to: email,
		subject: `${getT()('mail.newsletter.confirm.subject')} – ${ctx.env.BAND_NAME}`,
		body: <ConfirmSubscriptionMail identity={mailIdentity(ctx.env)} href={claimUrl(ctx.env, 'newsletter', token)} />,
	})
}

/** Whether a confirmation link is still waiting to be followed (for the GET of /auth/claim). */
export async function isConfirmTokenLive(db: Db, token: string): Promise<boolean> {
	const [row] = await db
		.select({ id: newsletterSubscriber.id })
		.from(newsletterSubscriber)
		.where(and(eq(newsletterSubscriber.confirmTokenHash, hash(token)), gt(newsletterSubscriber.confirmExpiresAt, new Date())))
	return Boolean(row)
}

/** Follows a confirmation link: the address becomes active, with the consent's date and policy version. Single use. */
export async function confirmSubscription(db: Db, token: string): Promise<{ email: string } | null> {
	const now = new Date()
	const [row] = await db
		.update(newsletterSubscriber)
		.set({
			status: 'active',
			consentAt: now,
			policyVersion: POLICY_VERSION,
			confirmTokenHash: null,
			confirmExpiresAt: null,
			unsubscribedAt: null,
			bouncedAt: null,
		})
		.where(and(eq(newsletterSubscriber.confirmTokenHash, hash(token)), gt(newsletterSubscriber.confirmExpiresAt, now)))
		.returning({ email: newsletterSubscriber.email })
	return row ?? null
}

export async function findByUnsubscribeToken(db: Db, token: string): Promise<Subscriber | undefined> {
	const [row] = await db.select().from(newsletterSubscriber).where(eq(newsletterSubscriber.unsubscribeToken, token))
	return row
}

/** Unsubscribes the holder of the token (idempotent). False for a token that matches nobody. */
export async function unsubscribeByToken(db: Db, token: string): Promise<boolean> {
	const subscriber = await findByUnsubscribeToken(db, token)
	if (!subscriber) return false
	if (subscriber.status === 'active' || subscriber.status === 'pending') {
		await db
			.update(newsletterSubscriber)
			.set({ status: 'unsubscribed', unsubscribedAt: new Date(), confirmTokenHash: null, confirmExpiresAt: null })
			.where(eq(newsletterSubscriber.id, subscriber.id))
	}
	return true
}

/**
 * Subscribes again the holder of an unsubscribe token, right after they left by mistake: the link came
 * to their mailbox, so their address is proven and the click is their consent.
 */
export async function resubscribeByToken(db: Db, token: string): Promise<boolean> {
	const [row] = await db
		.update(newsletterSubscriber)
		.set({ status: 'active', source: 'resubscribe', consentAt: new Date(), policyVersion: POLICY_VERSION, unsubscribedAt: null })
		.where(and(eq(newsletterSubscriber.unsubscribeToken, token), eq(newsletterSubscriber.status, 'unsubscribed')))
		.returning({ id: newsletterSubscriber.id })
	return Boolean(row)
}

/** `/unsubscribe` without a token: mails the address its link, if it is on the list. Same answer either way. */
export async function mailUnsubscribeLink(ctx: NewsletterContext, email: string): Promise<void> {
	const subscriber = await findSubscriber(ctx.db, email)
	if (!subscriber || subscriber.status !== 'active') return
	await ctx.mailer.sendMail({
		kind: 'newsletter-unsubscribe-link',
		origin: 'visitor',
		to: subscriber.email,
		subject: `${getT()('mail.newsletter.unsubscribe.title')} – ${ctx.env.BAND_NAME}`,
		body: <UnsubscribeLinkMail identity={mailIdentity(ctx.env)} href={unsubscribeUrl(ctx.env, subscriber.unsubscribeToken)} />,
	})
}

/**
 * The newsletter's part of a member's data export (RGPD art. 15 and 20): the subscriber record of
 * their address, the very row their settings toggle shows, and the issues sent to it. Its tokens
 * stay out (secrets, even from their owner's copy).
 */
export async function memberNewsletterData(db: Db, email: string) {
	const row = await findSubscriber(db, email)
	const issues = await db
		.select({ subject: newsletterCampaign.subject, status: newsletterDelivery.status, sentAt: newsletterDelivery.sentAt })
		.from(newsletterDelivery)
		.innerJoin(newsletterCampaign, eq(newsletterCampaign.id, newsletterDelivery.campaignId))
		.where(eq(newsletterDelivery.email, normaliseEmail(email)))
		.orderBy(desc(newsletterDelivery.createdAt))
	return {
		subscription: row
			? {
					email: row.email,
					status: row.status,
					source: row.source,
					consentNote: row.consentNote,
					consentAt: row.consentAt?.toISOString() ?? null,
					policyVersion: row.policyVersion,
					createdAt: row.createdAt.toISOString(),
					unsubscribedAt: row.unsubscribedAt?.toISOString() ?? null,
					bouncedAt: row.bouncedAt?.toISOString() ?? null,
					town: row.townLabel,
				}
			: null,
		issues: issues.map((issue) => ({ subject: issue.subject, status: issue.status, sentAt: issue.sentAt?.toISOString() ?? null })),
	}
}

/**
 * The member's toggle. On: a verified address is active at once (the member proved it and clicked),
 * an unverified one gets the confirmation mail. Off: unsubscribed. Returns the new status.
 */
export async function setMemberNewsletter(
	ctx: NewsletterContext,
	member: { email: string; emailVerified: boolean },
	on: boolean,
): Promise<SubscriberStatus | null> {
	const email = normaliseEmail(member.email)
	const existing = await findSubscriber(ctx.db, email)
	if (!on) {
		if (existing && (existing.status === 'active' || existing.status === 'pending')) {
			await ctx.db
				.update(newsletterSubscriber)
				.set({ status: 'unsubscribed', unsubscribedAt: new Date(), confirmTokenHash: null, confirmExpiresAt: null })
				.where(eq(newsletterSubscriber.id, existing.id))
			return 'unsubscribed'
		}
		return existing?.status ?? null
	}
	if (!member.emailVerified) {
		await requestSubscription(ctx, { email, source: 'settings' })
		return (await findSubscriber(ctx.db, email))?.status ?? 'pending'
	}
	const active = {
		status: 'active' as const,
		consentAt: new Date(),
		policyVersion: POLICY_VERSION,
		unsubscribedAt: null,
		bouncedAt: null,
		confirmTokenHash: null,
		confirmExpiresAt: null,
	}
	await ctx.db
		.insert(newsletterSubscriber)
		.values({ id: randomUUID(), email, source: 'settings', unsubscribeToken: newSecret(), ...active })
		.onConflictDoUpdate({ target: newsletterSubscriber.email, set: active })
	return 'active'
}

/**
 * What one subscription becomes of two rows of one person (a member whose new address had a record
 * of its own): the latest act of will wins. A consent (an active row, or a bounced one: the address
 * that bounced is not theirs any more, and the new one has just received the verification mail) more
 * recent than any unsubscription makes it active, with that consent's date, policy version, source
 * and note; an unsubscription more recent than any consent keeps it unsubscribed; without either
 * (addresses never confirmed) it stays pending. So no consent is lost and no unsubscription undone.
 */
function mergeSubscriptions(survivor: Subscriber, other: Subscriber) {
	const rows = [survivor, other]
	const consent = rows
		.filter((row) => (row.status === 'active' || row.status === 'bounced') && row.consentAt)
		.sort((a, b) => b.consentAt!.getTime() - a.consentAt!.getTime())[0]
	const withdrawal = rows
		.filter((row) => row.status === 'unsubscribed')
		.sort((a, b) => (b.unsubscribedAt?.getTime() ?? 0) - (a.unsubscribedAt?.getTime() ?? 0))[0]
	const confirmRequest = [survivor, other].find((row) => row.confirmTokenHash)
	const request = { confirmTokenHash: confirmRequest?.confirmTokenHash ?? null, confirmExpiresAt: confirmRequest?.confirmExpiresAt ?? null }
	const consentOf = (row: Subscriber) => ({
		source: row.source,
		consentAt: row.consentAt,
		policyVersion: row.policyVersion,
		consentNote: row.consentNote,
	})
	if (consent && (!withdrawal || consent.consentAt!.getTime() > (withdrawal.unsubscribedAt?.getTime() ?? 0))) {
		return {
			status: 'active' as const,
			...consentOf(consent),
			unsubscribedAt: null,
			bouncedAt: null,
			confirmTokenHash: null,
			confirmExpiresAt: null,
		}
	}
	if (withdrawal)
		return {
			status: 'unsubscribed' as const,
			...consentOf(withdrawal),
			unsubscribedAt: withdrawal.unsubscribedAt,
			bouncedAt: null,
			...request,
		}
	return { status: 'pending' as const, ...consentOf(survivor), unsubscribedAt: null, bouncedAt: null, ...request }
}

/**
 * A member's address changed (Better Auth wrote it, once the new one was verified): their
 * subscription follows, as the settings toggle shows the record of the account's address. Without a
 * record at the new address, the member's moves there whole (status, consent date, policy version,
 * source, unsubscribe token); a bounced one becomes active again if it had a consent (the bounce was
 * the old mailbox's). With one, the two become one (mergeSubscriptions) on the new address's row,
 * whose unsubscribe links are those of the mails in the mailbox the member now reads. The member's
 * deliveries follow the address too: their data export and their account's erasure find them by it,
 * and the rest of a send under way goes to the new address (once: a campaign's delivery of the row
 * that goes is dropped when the other row has one).
 */
export async function followAddressChange(db: Db, from: string, to: string): Promise<void> {
	const before = normaliseEmail(from)
	const after = normaliseEmail(to)
	if (before === after) return
	await db.transaction(async (tx) => {
		const rows = await tx
			.select()
			.from(newsletterSubscriber)
			.where(inArray(newsletterSubscriber.email, [before, after]))
			.for('update')
		const moving = rows.find((row) => row.email === before)
		const staying = rows.find((row) => row.email === after)
		await tx.update(newsletterDelivery).set({ email: after }).where(eq(newsletterDelivery.email, before))
		if (!moving) return
		if (!staying) {
			const revived = moving.status === 'bounced' && moving.consentAt ? { status: 'active' as const, bouncedAt: null } : {}
			await tx
				.update(newsletterSubscriber)
				.set({ email: after, ...revived })
				.where(eq(newsletterSubscriber.id, moving.id))
			return
		}
		const merged = mergeSubscriptions(staying, moving)
		await tx.execute(sql`
			update ${newsletterDelivery} set subscriber_id = ${staying.id}
			where subscriber_id = ${moving.id} and not exists (
				select 1 from ${newsletterDelivery} other
				where other.campaign_id = ${newsletterDelivery.campaignId} and other.subscriber_id = ${staying.id})`)
		await tx.delete(newsletterSubscriber).where(eq(newsletterSubscriber.id, moving.id))
		await tx.update(newsletterSubscriber).set(merged).where(eq(newsletterSubscriber.id, staying.id))
	})
}

/** Addresses that never confirmed, past PENDING_PURGE_DAYS: deleted (the daily housekeeping). */
export async function purgePendingSubscribers(db: Db, now = new Date()): Promise<number> {
	const rows = await db
		.delete(newsletterSubscriber)
		.where(
			and(
				eq(newsletterSubscriber.status, 'pending'),
				lt(newsletterSubscriber.updatedAt, new Date(now.getTime() - PENDING_PURGE_DAYS * 24 * 3600_000)),
			),
		)
		.returning({ id: newsletterSubscriber.id })
	// Someone who unsubscribed, then asked again without confirming, keeps their row (and their unsubscription).
	await db
		.update(newsletterSubscriber)
		.set({ confirmTokenHash: null, confirmExpiresAt: null })
		.where(lt(newsletterSubscriber.confirmExpiresAt, now))
	return rows.length
}

/** How many subscribers have each status now. */
export async function countByStatus(db: Db): Promise<Record<SubscriberStatus, number>> {
	const rows = await db
		.select({ status: newsletterSubscriber.status, count: sql<number>`count(*)::int` })
		.from(newsletterSubscriber)
		.groupBy(newsletterSubscriber.status)
	const counts = { pending: 0, active: 0, unsubscribed: 0, bounced: 0 }
	for (const row of rows) counts[row.status] = Number(row.count)
	return counts
}
