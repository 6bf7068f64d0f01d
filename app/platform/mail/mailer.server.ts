import { randomUUID } from 'node:crypto'
import { and, eq, gte, inArray } from 'drizzle-orm'
import nodemailer, { type Transporter } from 'nodemailer'
import type { Logger } from 'pino'
import type { ReactElement } from 'react'
import type { Db } from '../db/client.server.ts'
import { outboxMail } from '../db/schema.ts'
import { recordMail } from '../metrics.server.ts'
import type { Env } from '../env.server.ts'
import type { Jobs } from '../jobs.server.ts'
import type { RateLimits } from '../rate-limit.server.ts'

export const MAIL_QUEUE = 'mail.send'
export const MAIL_SWEEP_QUEUE = 'mail.sweep'
/** Attempts before a mail is marked failed: with backoff from 30 s, about a day of retries. */
export const MAIL_RETRY_LIMIT = 12
/** How the mail queue retries a mail the relay did not take. */
const MAIL_QUEUE_OPTIONS = { retryLimit: MAIL_RETRY_LIMIT, retryDelay: 30, retryBackoff: true, expireInSeconds: 120 }
/** Queued mails older than this are not picked up again by the sweep. */
const SWEEP_WINDOW_MS = 7 * 24 * 3600 * 1000
/** On the embedded database, a mail whose job could not be sent is swept again this much later. */
const SWEEP_AFTER_FAILURE_MS = 10 * 60_000

export interface OutgoingMail {
	/** What the mail is (verify-email, reset-password, newsletter…), for the outbox and the stats. */
	kind: string
	/**
	 * Who makes the site send it. `visitor`: anybody can ask for it by typing an address (sign-up,
	 * password reset, newsletter confirmation, unsubscribe link…), so it counts against that
	 * recipient's cap (RULES.mailsByRecipient) and past the cap it is not sent. `site`: the band's own
	 * mail (a reply, a test issue, a message to the band's address) or a notice about an account to
	 * its proven owner, never capped.
	 */
	origin: 'visitor' | 'site'
	to: string
	subject: string
	/** A React Email component; rendered to HTML and to plain text. */
	body: ReactElement
	headers?: Record<string, string>
}

export type SendResult = { ok: true; id: string } | { ok: false; error: string }

/**
 * The key a recipient's cap counts under: the address in lower case, without a « +tag » (most
 * providers deliver « nom+1@… » and « nom+2@… » to the same inbox).
 */
export function recipientKey(address: string): string {
	const trimmed = address.trim().toLowerCase()
	const at = trimmed.lastIndexOf('@')
	if (at <= 0) return trimmed
	const local = trimmed.slice(0, at).split('+')[0] || trimmed.slice(0, at)
	return `${local}${trimmed.slice(at)}`
}

export interface Mailer {
	/**
	 * Writes the mail to the outbox and queues its sending. Never throws. A visitor's mail to an
	 * address over its cap is dropped (`{ ok: false, error: 'recipient-capped' }`), and the caller
	 * answers the visitor as it would have anyway.
	 */
	sendMail(mail: OutgoingMail): Promise<SendResult>
	/** The worker's step: sends one outbox mail through SMTP. Throws to be retried. */
	deliver(id: string, attempt: { isLast: boolean }): Promise<void>
	/** Queues again whatever is still waiting without a job (after a crash, or once SMTP is configured); returns how many. */
	sweep(): Promise<number>
	transport: Transporter | null
	close(): void
}

export function defaultFrom(env: Env): string {
	const host = new URL(env.SITE_URL).hostname
	const domain = host === 'localhost' || /^[\d.]+$/.test(host) ? 'localhost.localdomain' : host
	return `"${env.BAND_NAME.replace(/["\\]/g, '')}" <ne-pas-repondre@${domain}>`
}

export function createMailer(options: { db: Db; jobs: Jobs; env: Env; logger: Logger; limits: RateLimits }): Mailer {
	const { db, jobs, env, logger, limits } = options
	const from = env.MAIL_FROM ?? defaultFrom(env)
	const transport = env.SMTP_URL
		? nodemailer.createTransport({
				url: env.SMTP_URL,
				pool: true,
				maxConnections: 3,
				rateDelta: 1000,
				rateLimit: env.SMTP_RATE_PER_SECOND,
			} as Parameters<typeof nodemailer.createTransport>[0])
		: null

	async function enqueue(id: string) {
		// A mail may be sent before the workers start (and declare the queue): pg-boss refuses to
		// send to a queue that does not exist yet.
		await jobs.queue(MAIL_QUEUE, MAIL_QUEUE_OPTIONS)
		await jobs.send(MAIL_QUEUE, { id }, { singletonKey: id })
	}

	/** Counts a visitor's mail against its recipient's caps (the hour's, then the day's); false past either. */
	async function withinCap(mail: OutgoingMail): Promise<boolean> {
		if (mail.origin !== 'visitor') return true
		const key = recipientKey(mail.to)
		for (const rule of ['mailsByRecipient', 'mailsByRecipientDaily'] as const) {
			if (!(await limits.consume(rule, key)).ok) {
				logger.warn({ mail: { kind: mail.kind }, rule }, 'mail not sent: its recipient already got as many as the cap allows')
				return false
			}
		}
		return true
	}

	// Where no ten-minute sweep runs (the embedded database): one, once, after a mail failed to queue.
	let sweepTimer: NodeJS.Timeout | undefined
	const sweepLater = () => {
		if (!jobs.soleWriter || !transport || sweepTimer || jobs.stopping.aborted) return
		sweepTimer = setTimeout(() => {
			sweepTimer = undefined
			if (jobs.stopping.aborted) return
			mailer.sweep().catch((error: unknown) => logger.warn({ err: error }, 'mail sweep failed'))
		}, SWEEP_AFTER_FAILURE_MS).unref()
	}

	const mailer: Mailer = {
		transport,
		async sendMail(mail) {
			const id = randomUUID()
			try {
				if (!(await withinCap(mail))) return { ok: false, error: 'recipient-capped' }
				// Loaded on the first mail, not at start.
				const { render, toPlainText } = await import('@react-email/render')
				const html = await render(mail.body)
				const text = toPlainText(html)
				await db.insert(outboxMail).values({
					id,
					kind: mail.kind,
					toAddress: mail.to,
					subject: mail.subject,
					html,
					text,
					headers: mail.headers ?? null,
				})
				if (!transport) {
					// No relay configured: the whole mail goes to the log, and stays queued in the outbox.
					logger.info({ mail: { id, kind: mail.kind, to: mail.to, subject: mail.subject, text } }, `mail (no SMTP_URL): ${mail.subject}`)
					return { ok: true, id }
				}
				await enqueue(id)
				return { ok: true, id }
			} catch (error) {
				logger.error({ err: error, kind: mail.kind }, 'could not queue mail')
				sweepLater()
				return { ok: false, error: (error as Error).message }
			}
		},
		async deliver(id, attempt) {
			if (!transport) return
			const [row] = await db.select().from(outboxMail).where(eq(outboxMail.id, id))
			if (!row || row.status !== 'queued') return
			try {
				const info = await transport.sendMail({
					from,
					to: row.toAddress,
					subject: row.subject,
					html: row.html ?? undefined,
					text: row.text ?? undefined,
					headers: row.headers ?? undefined,
				})
				await db
					.update(outboxMail)
					.set({ status: 'sent', sentAt: new Date(), messageId: info.messageId, attempts: row.attempts + 1, lastError: null })
					.where(eq(outboxMail.id, id))
				recordMail('sent')
			} catch (error) {
				const reason = (error as Error).message.slice(0, 500)
				await db
					.update(outboxMail)
					.set({ attempts: row.attempts + 1, lastError: reason, status: attempt.isLast ? 'failed' : 'queued' })
					.where(eq(outboxMail.id, id))
				if (attempt.isLast) recordMail('failed')
				logger.warn({ mailId: id, attempt: row.attempts + 1, err: reason }, 'mail not sent, will retry')
				if (!attempt.isLast) throw error
			}
		},
		async sweep() {
			if (!transport) return 0
			const since = new Date(Date.now() - SWEEP_WINDOW_MS)
			const waiting = await db
				.select({ id: outboxMail.id })
				.from(outboxMail)
				.where(and(inArray(outboxMail.status, ['queued']), gte(outboxMail.createdAt, since)))
			let queued = 0
			for (const { id } of waiting) {
				// A mail whose job still waits (for a worker, or for its retry after a failure) keeps that job:
				// a second one would double its attempts, and two deliveries at once could send it twice.
				const pending = await (await jobs.boss()).findJobs(MAIL_QUEUE, { key: id }).catch(() => [])
				if (pending.some((job) => job.state === 'created' || job.state === 'retry' || job.state === 'active')) continue
				await enqueue(id)
				queued++
			}
			return queued
		},
		close() {
			clearTimeout(sweepTimer)
			transport?.close()
		},
	}
	return mailer
}

/** Declares the mail queues and starts the worker that sends outbox mail. */
export async function startMailWorker(mailer: Mailer, jobs: Jobs) {
	await jobs.queue(MAIL_QUEUE, MAIL_QUEUE_OPTIONS)
	await jobs.queue(MAIL_SWEEP_QUEUE, { retryLimit: 1 })
	await jobs.work<{ id: string }>(MAIL_QUEUE, async ([job]) => {
		if (!job) return
		await mailer.deliver(job.data.id, { isLast: job.retryCount >= MAIL_RETRY_LIMIT })
	})
	await jobs.work(MAIL_SWEEP_QUEUE, async () => {
		await mailer.sweep()
	})
	// Every ten minutes on PostgreSQL (another instance may have crashed between a mail's row and its
	// job). On the embedded database this process alone writes mails: those a crash left without a job
	// are queued again by the sweep at start below, and one whose job could not be sent by a sweep
	// SWEEP_AFTER_FAILURE_MS later (sendMail).
	if (!jobs.soleWriter) await jobs.schedule(MAIL_SWEEP_QUEUE, '*/10 * * * *')
	await mailer.sweep()
}
