import { randomUUID } from 'node:crypto'
import { PGlite } from '@electric-sql/pglite'
import { and, asc, eq, gt, inArray, isNull, lte, or, sql } from 'drizzle-orm'
import type { Logger } from 'pino'
import type { Db } from '#app/platform/db/client.server.ts'
import { nextSlice } from '#app/platform/work-slices.server.ts'
import { newsletterCampaign, newsletterDelivery, newsletterSubscriber, type DeliveryStatus } from '#app/platform/db/schema.ts'
import type { Env } from '#app/platform/env.server.ts'
import type { Jobs } from '#app/platform/jobs.server.ts'
import { ABANDONED, createBulkSmtp, type BulkSmtp } from '#app/platform/mail/bulk-smtp.server.ts'
import { defaultFrom } from '#app/platform/mail/mailer.server.ts'
import { recordNewsletterTakeover } from '#app/platform/metrics.server.ts'
import type { Realtime } from '#app/platform/realtime.server.ts'
import { renderCampaign } from './mails.tsx'
import { prepareCampaignMessage } from './message.server.ts'
import { STATS_TOPIC } from '#app/features/stats/topics.ts'
import { audienceCondition } from './audience.server.ts'

/*
 * Sending a campaign, in the background. A pg-boss job runs a slice of the send: it takes the
 * campaign's lease, writes one delivery row per active subscriber (once, unique per pair), then sends
 * the queued rows in batches through pooled SMTP connections at the configured pace. Each delivery is
 * recorded as sent just before the relay commits it (platform/mail/bulk-smtp.server.ts), those
 * waiting together in one statement, so a send killed at any moment and resumed mails nobody twice
 * (docs/decisions/0011-newsletter-sent-records.md says what a crash can still do).
 */

export const NEWSLETTER_SEND_QUEUE = 'newsletter.send'
export const NEWSLETTER_TICK_QUEUE = 'newsletter.tick'
export const SEND_QUEUE_OPTIONS = { retryLimit: 10, retryDelay: 10, retryBackoff: true, expireInSeconds: 15 * 60 }
export const CAMPAIGN_TOPIC = 'newsletter.campaign'

/** A sender that has not said it is alive for this long has died: another may take the campaign. */
export const LEASE_SECONDS = 10
/**
 * A send job says it is alive to the queue this often (pg-boss heartbeats): the job of a process that
 * died goes back to the queue (failed, retried) within this and the queue's supervision pass, rather
 * than staying « active » until it expires.
 */
const JOB_HEARTBEAT_SECONDS = 20
/** The relay has taken nothing for this long, and refused or failed what it was given: the sender says so and lets go. */
const RELAY_STALL_MS = 30_000
/** After letting go for that reason, the send is tried again (by whichever instance takes the job) this much later. */
const RELAY_RETRY_MS = 60_000
/** A job sends for at most this long, then hands over to a fresh job (jobs stay short). */
const SLICE_MS = 5 * 60_000
const BATCH = 500
const PUBLISH_EVERY_MS = 1000
/** Attempts before a delivery is given up as failed; waits between them grow. */
export const MAX_ATTEMPTS = 5
const RETRY_MINUTES = [1, 5, 15, 60]

export interface SenderContext {
	db: Db
	env: Env
	logger: Logger
	realtime: Realtime
	jobs: Jobs
	/** Defaults to one built from SMTP_URL for this run. */
	smtp?: BulkSmtp
}

export type SliceOutcome =
	| { state: 'done' }
	| { state: 'busy' }
	| { state: 'stopped' }
	| { state: 'continue' }
	| { state: 'waiting'; until: Date }
	| { state: 'no-smtp' }

export interface CampaignProgress {
	id: string
	status: string
	recipients: number
	queued: number
	sent: number
	failed: number
	bounced: number
	skipped: number
	startedAt: string | null
	finishedAt: string | null
	/** Since when the relay has taken nothing of this send (it is tried again meanwhile); null while it takes mails. */
	relayErrorSince: string | null
}

export async function campaignProgress(db: Db, id: string): Promise<CampaignProgress | null> {
	const [campaign] = await db.select().from(newsletterCampaign).where(eq(newsletterCampaign.id, id))
	if (!campaign) return null
	const rows = await db
		.select({ status: newsletterDelivery.status, count: sql<number>`count(*)::int` })
		.from(newsletterDelivery)
		.where(eq(newsletterDelivery.campaignId, id))
		.groupBy(newsletterDelivery.status)
	const counts = { queued: 0, sent: 0, failed: 0, bounced: 0, skipped: 0 }
	for (const row of rows) counts[row.status] = Number(row.count)
	return {
		id,
		status: campaign.status,
		recipients: campaign.recipients ?? 0,
		...counts,
		startedAt: campaign.startedAt?.toISOString() ?? null,
		finishedAt: campaign.finishedAt?.toISOString() ?? null,
		relayErrorSince: campaign.relayErrorSince?.toISOString() ?? null,
	}
}

/**
 * Takes the campaign for this runner, if it is due and nobody alive holds it. Taking it from a
 * sender whose lease lapsed (it died, or froze) is a takeover: logged, and counted in the metrics.
 */
async function takeLease(ctx: SenderContext, id: string, runnerId: string) {
	const { campaign, before } = await ctx.db.transaction(async (tx) => {
		const [before] = await tx
			.select({
				runnerId: newsletterCampaign.runnerId,
				silentSeconds: sql<number>`extract(epoch from now() - ${newsletterCampaign.heartbeatAt})`,
			})
			.from(newsletterCampaign)
			.where(eq(newsletterCampaign.id, id))
			.for('update')
		return { before, campaign: await claimLease(tx as unknown as Db, id, runnerId) }
	})
	if (campaign && before?.runnerId) {
		recordNewsletterTakeover()
		ctx.logger.warn(
			{ campaign: id, from: before.runnerId, runner: runnerId, silentSeconds: Math.round(Number(before.silentSeconds)) },
			'newsletter send taken over from a sender that stopped answering',
		)
	}
	return campaign
}

async function claimLease(db: Db, id: string, runnerId: string) {
	const [campaign] = await db
		.update(newsletterCampaign)
		.set({
			status: 'sending',
			startedAt: sql`coalesce(${newsletterCampaign.startedAt}, now())`,
			runnerId,
			heartbeatAt: sql`now()`,
		})
		.where(
			and(
				eq(newsletterCampaign.id, id),
				or(
					eq(newsletterCampaign.status, 'sending'),
					and(eq(newsletterCampaign.status, 'scheduled'), lte(newsletterCampaign.scheduledAt, sql`now()`)),
				),
				or(
					isNull(newsletterCampaign.runnerId),
					eq(newsletterCampaign.runnerId, runnerId),
					sql`${newsletterCampaign.heartbeatAt} < now() - make_interval(secs => ${LEASE_SECONDS})`,
				),
			),
		)
		.returning()
	return campaign
}

/** Renews the lease; false once the campaign was cancelled or taken over. */
async function heartbeat(db: Db, id: string, runnerId: string): Promise<boolean> {
	const rows = await db
		.update(newsletterCampaign)
		.set({ heartbeatAt: sql`now()` })
		.where(and(eq(newsletterCampaign.id, id), eq(newsletterCampaign.runnerId, runnerId), eq(newsletterCampaign.status, 'sending')))
		.returning({ id: newsletterCampaign.id })
	return rows.length > 0
}

/** Subscribers fanned out per statement: a short one each, the event loop getting a turn between them. */
const FANOUT_SLICE = 2_000

/**
 * One delivery row per active subscriber, written once per campaign (the first slice), in slices of
 * the list by address (keyset) so that no statement holds the database for long
 * (app/platform/work-slices.server.ts). Only the lease holder writes them; a fan-out cut short by a
 * crash is simply run again by the next holder (a row already there is kept), and `recipients` is
 * set once the whole list is written.
 */
async function writeDeliveries(db: Db, id: string): Promise<number> {
	const [campaign] = await db
		.select({ recipients: newsletterCampaign.recipients, audience: newsletterCampaign.audience })
		.from(newsletterCampaign)
		.where(eq(newsletterCampaign.id, id))
	if (campaign?.recipients != null) return campaign.recipients
	// A concert's announcement: only the fans near it (features/newsletter/audience.server.ts).
	const near = audienceCondition(campaign?.audience ?? null)
	const inAudience = near ? sql` and ${near}` : sql``
	let after = ''
	while (true) {
		const result = await db.execute(sql`
			with slice as (
				select ${newsletterSubscriber.id} as id, ${newsletterSubscriber.email} as email from ${newsletterSubscriber}
				where ${newsletterSubscriber.status} = 'active' and ${newsletterSubscriber.email} > ${after}${inAudience}
				order by ${newsletterSubscriber.email}
				limit ${FANOUT_SLICE}
			), written as (
				insert into ${newsletterDelivery} (campaign_id, subscriber_id, email)
				select ${id}, slice.id, slice.email from slice
				on conflict (campaign_id, subscriber_id) do nothing
			)
			select count(*)::int as n, max(slice.email) as last from slice`)
		const [row] = (result as unknown as { rows: { n: number; last: string | null }[] }).rows
		if (!row || Number(row.n) < FANOUT_SLICE || !row.last) break
		after = row.last
		await nextSlice()
	}
	const [{ count } = { count: 0 }] = await db
		.select({ count: sql<number>`count(*)::int` })
		.from(newsletterDelivery)
		.where(eq(newsletterDelivery.campaignId, id))
	await db
		.update(newsletterCampaign)
		.set({ recipients: Number(count) })
		.where(and(eq(newsletterCampaign.id, id), isNull(newsletterCampaign.recipients)))
	return Number(count)
}

/** Runs one slice of a campaign's send. */
export async function runCampaignSlice(ctx: SenderContext, id: string): Promise<SliceOutcome> {
	const { db, env, logger } = ctx
	if (!ctx.smtp && !env.SMTP_URL) return { state: 'no-smtp' }
	if (ctx.jobs.stopping.aborted) return { state: 'continue' }
	const runnerId = randomUUID()
	const campaign = await takeLease(ctx, id, runnerId)
	if (!campaign) return { state: 'busy' }
	logger.info({ campaign: id, runner: runnerId, pid: process.pid }, 'newsletter send slice started')
	await writeDeliveries(db, id)
	const rendered = await renderCampaign(env, campaign)
	const message = await prepareCampaignMessage(env, { from: env.MAIL_FROM ?? defaultFrom(env), subject: campaign.subject, rendered })
	const smtp =
		ctx.smtp ?? createBulkSmtp({ url: env.SMTP_URL!, connections: env.NEWSLETTER_CONNECTIONS, ratePerSecond: env.SMTP_RATE_PER_SECOND })
	const deadline = Date.now() + SLICE_MS
	// The counts the admin's screen shows: read from the database when the slice starts and ends (or
	// stops), kept up to date in between by what this sender itself changes (it alone holds the lease).
	// Counting every delivery of a campaign of 100,000 each second cost the embedded database a tenth
	// of its time.
	let progress = await campaignProgress(db, id)
	const moved = (from: DeliveryStatus, to: DeliveryStatus, n: number) => {
		if (!progress || n === 0 || from === to) return
		progress = { ...progress, [from]: progress[from] - n, [to]: progress[to] + n }
	}
	const publish = async (recount = false) => {
		if (recount) progress = await campaignProgress(db, id)
		if (progress) await ctx.realtime.publish(CAMPAIGN_TOPIC, progress).catch(() => {})
		// An open stats screen follows the send too (it reloads at most every 2 s).
		await ctx.realtime.publish(STATS_TOPIC, { source: 'newsletter' }).catch(() => {})
	}
	// Once the campaign is cancelled or taken over, messages not yet committed are abandoned.
	let stopped = false
	// The same once this process stops (its job workers are released) or the relay stalls: then the
	// campaign is handed back, for another instance or a later try.
	let handBack: 'stopping' | 'relay' | null = null
	const onStopping = () => {
		handBack ??= 'stopping'
		stopped = true
	}
	ctx.jobs.stopping.addEventListener('abort', onStopping, { once: true })
	// What the relay did with this slice's messages: when it last took one (or the slice began), and
	// its failures since. The campaign row says so once it has taken nothing for RELAY_STALL_MS.
	let lastTaken = Date.now()
	let relayFailures = 0
	let lastRelayError = ''
	// Messages handed to the relay and not yet settled: a relay that never answers fails none of them.
	let handedOver = 0
	let relayReported = campaign.relayErrorSince !== null
	const relayCheck = async () => {
		if (relayReported && relayFailures === 0 && lastTaken > sliceStart) {
			relayReported = false
			await db.update(newsletterCampaign).set({ relayErrorSince: null, relayError: null }).where(eq(newsletterCampaign.id, id))
			logger.info({ campaign: id }, 'newsletter relay takes mails again')
			return true
		}
		if (handBack || (relayFailures === 0 && handedOver === 0) || Date.now() - lastTaken < RELAY_STALL_MS) return false
		handBack = 'relay'
		stopped = true
		await reportRelay(new Date(lastTaken))
		return true
	}
	const reportRelay = async (since: Date) => {
		relayReported = true
		await db
			.update(newsletterCampaign)
			.set({
				relayErrorSince: sql`coalesce(${newsletterCampaign.relayErrorSince}, ${since.toISOString()}::timestamptz)`,
				relayError: (lastRelayError || 'no answer from the relay').slice(0, 300),
			})
			.where(eq(newsletterCampaign.id, id))
		logger.warn(
			{ campaign: id, since: since.toISOString(), failures: relayFailures, error: lastRelayError },
			'newsletter relay takes nothing: the send is handed back and tried again later',
		)
	}
	const sliceStart = lastTaken
	// Once a second, whatever the pace (a batch lasts 50 s at 10 messages a second): the lease is
	// renewed, a cancellation is noticed, and the admin's screen gets the progress.
	let tick: Promise<void> | null = null
	const ticker = setInterval(() => {
		tick ??= heartbeat(db, id, runnerId)
			.then(async (alive) => {
				if (!alive) stopped = true
				const relayChanged = alive && (await relayCheck())
				// Stopped (cancelled, or taken over): the database says what the campaign is now.
				return publish(!alive || relayChanged)
			})
			.catch(() => {})
			.finally(() => (tick = null))
	}, PUBLISH_EVERY_MS)
	/** No tick may land after the last word (it could say « sending » after « sent »). */
	const stopTicker = async () => {
		clearInterval(ticker)
		await tick
	}

	// Deliveries waiting at their gate for their « sent » to be recorded: one statement records all
	// those waiting, and while it runs the next ones gather for the one after it (a group commit).
	// None of them is committed at the relay before its row says sent; see markSent.
	let pending: { id: number; resolve: (ok: boolean) => void; reject: (error: Error) => void }[] = []
	let flushing = false
	const flush = async () => {
		const batch = pending
		pending = []
		try {
			const done = await markSent(
				db,
				batch.map((item) => item.id),
			)
			moved('queued', 'sent', done.size)
			for (const item of batch) item.resolve(done.has(item.id))
		} catch (error) {
			for (const item of batch) item.reject(error as Error)
		}
		// The next statement waits for the next turn of the event loop: the « . » of those just
		// recorded go out first, and more gather meanwhile.
		if (pending.length > 0) setImmediate(() => void flush())
		else flushing = false
	}
	const recordSent = (deliveryId: number) =>
		new Promise<boolean>((resolve, reject) => {
			if (stopped) return resolve(false)
			pending.push({ id: deliveryId, resolve, reject })
			if (flushing) return
			// The first to wait lets the others of this turn of the event loop join it.
			flushing = true
			setImmediate(() => void flush())
		})

	/** The next deliveries due, after `cursor` (each one is read once per pass). */
	const dueAfter = (cursor: number) =>
		db
			.select({
				id: newsletterDelivery.id,
				email: newsletterDelivery.email,
				attempts: newsletterDelivery.attempts,
				token: newsletterSubscriber.unsubscribeToken,
				subscriberStatus: newsletterSubscriber.status,
			})
			.from(newsletterDelivery)
			.leftJoin(newsletterSubscriber, eq(newsletterSubscriber.id, newsletterDelivery.subscriberId))
			.where(
				and(
					eq(newsletterDelivery.campaignId, id),
					eq(newsletterDelivery.status, 'queued'),
					gt(newsletterDelivery.id, cursor),
					or(isNull(newsletterDelivery.retryAt), lte(newsletterDelivery.retryAt, sql`now()`)),
				),
			)
			.orderBy(asc(newsletterDelivery.id))
			.limit(BATCH)

	// One batch is sending while the next waits its turn for a connection: the connections never
	// idle between batches. Two batches at most are in memory (rows only: each message is built
	// when a connection takes it).
	let inFlight: Promise<unknown> = Promise.resolve()
	try {
		await publish()
		let cursor = 0
		let sentThisPass = false
		while (true) {
			if (handBack) {
				// What is in flight is abandoned (or fails) first; the lease goes last.
				await inFlight
				await stopTicker()
				await db
					.update(newsletterCampaign)
					.set({ runnerId: null })
					.where(and(eq(newsletterCampaign.id, id), eq(newsletterCampaign.runnerId, runnerId)))
				await publish(true)
				return handBack === 'relay' ? { state: 'waiting', until: new Date(Date.now() + RELAY_RETRY_MS) } : { state: 'continue' }
			}
			if (stopped || !(await heartbeat(db, id, runnerId))) {
				stopped = true
				return { state: 'stopped' }
			}
			const batch = await dueAfter(cursor)
			if (batch.length === 0) {
				// Anything left behind (due again in the meantime) gets one more pass.
				await inFlight
				if (!sentThisPass) break
				cursor = 0
				sentThisPass = false
				continue
			}
			cursor = batch.at(-1)!.id
			sentThisPass = true

			// Who left (or was deleted) since the send started gets nothing.
			const gone = batch.filter((row) => row.subscriberStatus !== 'active' || !row.token)
			if (gone.length > 0) {
				const skipped = await db
					.update(newsletterDelivery)
					.set({ status: 'skipped' })
					.where(
						and(
							inArray(
								newsletterDelivery.id,
								gone.map((row) => row.id),
							),
							eq(newsletterDelivery.status, 'queued'),
						),
					)
					.returning({ id: newsletterDelivery.id })
				moved('queued', 'skipped', skipped.length)
			}
			const live = batch.filter((row) => row.subscriberStatus === 'active' && row.token)
			const sending = Promise.all(
				live.map(async (row) => {
					// Built when its turn comes, so that a batch is never all in memory at once.
					handedOver += 1
					const messageKey = `${id}.${row.id}`
					const outcome = await smtp
						.send({
							from: message.envelopeFrom,
							to: row.email,
							raw: () => message.build({ to: row.email, token: row.token!, messageKey }),
							messageId: message.messageId(messageKey),
							gate: () => recordSent(row.id),
							cancelled: () => stopped,
						})
						.finally(() => (handedOver -= 1))
					if (outcome.ok || outcome.permanent) {
						// Taken, or refused for good: either way the relay answers.
						lastTaken = Date.now()
						relayFailures = 0
					}
					if (outcome.ok) return
					if (outcome.error === ABANDONED) return
					if (!outcome.permanent) {
						relayFailures += 1
						lastRelayError = outcome.error
					}
					const now = await recordFailure(db, row, outcome)
					moved(outcome.committed ? 'sent' : 'queued', now, 1)
				}),
			)
			// Its failure surfaces when it is awaited, below or in the next turn; not as unhandled meanwhile.
			sending.catch(() => {})
			await inFlight
			inFlight = sending
			if (Date.now() > deadline) {
				await inFlight
				await db.update(newsletterCampaign).set({ runnerId: null }).where(eq(newsletterCampaign.id, id))
				return { state: 'continue' }
			}
		}

		const [later] = await db
			.select({ at: sql<Date>`min(${newsletterDelivery.retryAt})` })
			.from(newsletterDelivery)
			.where(and(eq(newsletterDelivery.campaignId, id), eq(newsletterDelivery.status, 'queued')))
		await stopTicker()
		// Everything this slice gave the relay came back failed: say so now, not a stall later.
		if (relayFailures > 0 && lastTaken === sliceStart && !relayReported) await reportRelay(new Date(sliceStart))
		if (later?.at) {
			await db.update(newsletterCampaign).set({ runnerId: null }).where(eq(newsletterCampaign.id, id))
			await publish(true)
			return { state: 'waiting', until: new Date(later.at) }
		}
		const finished = await db
			.update(newsletterCampaign)
			.set({ status: 'sent', finishedAt: sql`now()`, runnerId: null, relayErrorSince: null, relayError: null })
			.where(and(eq(newsletterCampaign.id, id), eq(newsletterCampaign.runnerId, runnerId), eq(newsletterCampaign.status, 'sending')))
			.returning({ id: newsletterCampaign.id })
		await publish(true)
		if (finished.length > 0) logger.info({ campaign: id }, 'newsletter sent')
		return { state: finished.length > 0 ? 'done' : 'stopped' }
	} finally {
		ctx.jobs.stopping.removeEventListener('abort', onStopping)
		await stopTicker()
		// Nothing is left half-sent: what started finishes (or is abandoned, once stopped) first.
		await inFlight.catch(() => {})
		if (!ctx.smtp) smtp.close()
	}
}

/**
 * Records deliveries as sent, those still queued among `ids`, in one statement; returns the ids it
 * changed. Each waits at the relay for its final « . » until this commits: a crash before the commit
 * leaves them all unsent at the relay (their connections die mid-DATA) and queued here, to be sent
 * on resumption; a crash after it finds them sent, and their « . » follows at once (written before
 * the next turn of the event loop, see the flush in runCampaignSlice), so only a crash in that
 * instant loses their mail; never is one mailed twice. One statement for many changes how many wait
 * together, not what a crash can do to each of them.
 *
 * The statement has no parameters (the ids are whole numbers read from the database), so that both
 * engines run it in one exchange (the simple query protocol); the embedded one takes five calls for a
 * statement with parameters, which cost it more than the update itself of a few rows.
 */
async function markSent(db: Db, ids: number[]): Promise<Set<number>> {
	const list = ids.map((id) => String(Math.trunc(id))).join(',')
	const text = `update newsletter_delivery set status = 'sent', sent_at = now(), attempts = attempts + 1, last_error = null, retry_at = null
		where id = any('{${list}}'::int[]) and status = 'queued' returning id`
	const client = (db as { $client?: unknown }).$client
	const rows =
		client instanceof PGlite
			? ((await client.exec(text))[0]?.rows ?? [])
			: ((await db.execute(sql.raw(text))) as unknown as { rows: Record<string, unknown>[] }).rows
	return new Set(rows.map((row) => Number(row.id)))
}

/**
 * A refused or interrupted delivery: a permanent refusal (5xx) marks it and its address bounced;
 * anything else (4xx, a dropped connection) is tried again later, up to MAX_ATTEMPTS.
 */
async function recordFailure(
	db: Db,
	row: { id: number; attempts: number; email: string },
	outcome: { permanent: boolean; committed: boolean; error: string },
): Promise<DeliveryStatus> {
	const attempts = row.attempts + 1
	if (outcome.permanent) {
		await db.transaction(async (tx) => {
			await tx
				.update(newsletterDelivery)
				.set({ status: 'bounced', attempts, lastError: outcome.error, sentAt: null })
				.where(eq(newsletterDelivery.id, row.id))
			await tx
				.update(newsletterSubscriber)
				.set({ status: 'bounced', bouncedAt: new Date() })
				.where(and(eq(newsletterSubscriber.email, row.email), eq(newsletterSubscriber.status, 'active')))
		})
		return 'bounced'
	}
	// Recorded as sent but not confirmed by the relay: SMTP says it was not delivered, so it is tried again.
	const giveUp = attempts >= MAX_ATTEMPTS
	await db
		.update(newsletterDelivery)
		.set({
			status: giveUp ? 'failed' : 'queued',
			attempts,
			lastError: outcome.error,
			sentAt: null,
			retryAt: giveUp ? null : new Date(Date.now() + RETRY_MINUTES[Math.min(attempts - 1, RETRY_MINUTES.length - 1)]! * 60_000),
		})
		.where(eq(newsletterDelivery.id, row.id))
	return giveUp ? 'failed' : 'queued'
}

/** Queues the next slice of a campaign's send (deduplicated while one waits). */
export async function queueCampaignSend(jobs: Jobs, id: string, options: { startAfter?: Date | number } = {}) {
	await jobs.queue(NEWSLETTER_SEND_QUEUE, SEND_QUEUE_OPTIONS)
	await jobs.send(
		NEWSLETTER_SEND_QUEUE,
		{ campaignId: id },
		{ startAfter: options.startAfter as never, heartbeatSeconds: JOB_HEARTBEAT_SECONDS },
	)
}

/**
 * How often the lease watch looks while nothing is being sent (a send wakes it, see watchLeases), on
 * PostgreSQL. On the embedded database it does not look while nothing is sent: no other instance
 * can start a send behind this process's back, and a send started here is heard.
 */
const IDLE_LEASE_CHECK_MS = 60_000

/**
 * Hands the campaign of a sender that died to a live one within a second or so of its lease
 * lapsing, on every instance, rather than at the next minute's tick: it looks when the lease of each
 * campaign being sent would lapse, and comes back then. While nothing is being sent it looks once a
 * minute only (not at all on the embedded database), and at once when a campaign's progress is heard
 * (a running sender says it every second, from any instance): a database at rest is not read every
 * few seconds for nothing.
 * A lapsed lease gets a send job, which takes it over (runCampaignSlice, takeLease). Stops with the job workers.
 */
export function watchLeases(db: Db, jobs: Jobs, logger: Logger, realtime: Realtime): void {
	let timer: NodeJS.Timeout | undefined
	let resting = false
	const check = async () => {
		resting = false
		let next = IDLE_LEASE_CHECK_MS
		try {
			const held = await db
				.select({
					id: newsletterCampaign.id,
					msLeft: sql<number>`extract(epoch from ${newsletterCampaign.heartbeatAt} + make_interval(secs => ${LEASE_SECONDS}) - now()) * 1000`,
				})
				.from(newsletterCampaign)
				.where(and(eq(newsletterCampaign.status, 'sending'), sql`${newsletterCampaign.runnerId} is not null`))
			for (const row of held) {
				const left = Number(row.msLeft)
				if (left < 0) await queueCampaignSend(jobs, row.id)
				else next = Math.min(next, left + 100)
			}
		} catch (error) {
			logger.warn({ err: error }, 'newsletter lease watch failed; trying again')
		}
		if (jobs.stopping.aborted) return
		resting = next === IDLE_LEASE_CHECK_MS
		if (resting && jobs.soleWriter) return
		timer = setTimeout(() => void check(), next).unref()
	}
	const stopHearing = realtime.subscribe(CAMPAIGN_TOPIC, () => {
		if (!resting || jobs.stopping.aborted) return
		clearTimeout(timer)
		void check()
	})
	jobs.stopping.addEventListener(
		'abort',
		() => {
			clearTimeout(timer)
			stopHearing()
		},
		{ once: true },
	)
	void check()
}

/** Due scheduled campaigns, and sends whose sender died: queued again (at start; every minute on PostgreSQL). */
export async function kickCampaigns(db: Db, jobs: Jobs): Promise<number> {
	const due = await db
		.select({ id: newsletterCampaign.id })
		.from(newsletterCampaign)
		.where(
			or(
				and(eq(newsletterCampaign.status, 'scheduled'), lte(newsletterCampaign.scheduledAt, sql`now()`)),
				and(
					eq(newsletterCampaign.status, 'sending'),
					or(isNull(newsletterCampaign.runnerId), sql`${newsletterCampaign.heartbeatAt} < now() - make_interval(secs => ${LEASE_SECONDS})`),
				),
			),
		)
	for (const { id } of due) await queueCampaignSend(jobs, id)
	return due.length
}
