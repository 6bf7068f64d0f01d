import { newShortId } from '#app/platform/random-token.server.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm'
import { contactMessage, contactReply, outboxMail, type CONTACT_SUBJECTS as STORED_SUBJECTS } from '#app/platform/db/schema.ts'
import type { Platform } from '#app/platform/platform.server.ts'
import { formatWait } from '#app/platform/rate-limit.server.ts'
import { STATS_TOPIC } from '#app/features/stats/topics.ts'
import { notifyBandMail, replyMail } from './emails.server.tsx'
import type { ContactInput } from './forms.ts'
import type { CONTACT_SUBJECTS, ContactSubjectValue } from './rules.ts'
import { MESSAGES_PAGE_SIZE, type MessageFilter } from './inbox.ts'
import { getT } from '#app/platform/i18n.server.ts'

// The form's list and the table's are the same (the form keeps its own copy, free of database code).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const subjectsMatch: Same<(typeof STORED_SUBJECTS)[number], (typeof CONTACT_SUBJECTS)[number]> = true
void subjectsMatch

/** What the stats and the admin screens listen to. */
export const CONTACT_TOPIC = 'contact'

export type SubmitOutcome = { ok: true; id: string | null } | { ok: false; reason: 'limited'; message: string; retryAfterSeconds: number }

/**
 * A message from /contact. The rate limit first (per client address), then the message is stored,
 * and only then mailed to the band's address through the outbox (retried while the relay is down).
 * The sender gets no copy: the address is whatever was typed, and a copy carrying the visitor's text
 * would let anyone mail anybody through the site; the page itself confirms the message arrived.
 * A filled honeypot gets the same answer as a person and changes nothing.
 */
export async function submitContact(platform: Platform, clientAddress: string, input: ContactInput): Promise<SubmitOutcome> {
	const limited = await platform.limits.consume('contactByAddress', clientAddress)
	if (!limited.ok) {
		return {
			ok: false,
			reason: 'limited',
			message: getT()('contact.limited', { wait: formatWait(limited.retryAfterSeconds) }),
			retryAfterSeconds: limited.retryAfterSeconds,
		}
	}
	if (input.website?.trim()) {
		platform.logger.info({ honeypot: true }, 'contact form: honeypot filled, message dropped')
		return { ok: true, id: null }
	}
	const { db } = platform.database
	const id = newShortId()
	const stored = { id, name: input.name, email: input.email, subject: input.subject, body: input.message }
	await db.insert(contactMessage).values(stored)

	const to = platform.env.CONTACT_EMAIL
	if (to) {
		const sent = await platform.mailer.sendMail(notifyBandMail(platform.env, to, stored))
		if (sent.ok) await db.update(contactMessage).set({ notifyMailId: sent.id }).where(eq(contactMessage.id, id))
	}
	await announce(platform)
	return { ok: true, id }
}

async function announce(platform: Platform) {
	await Promise.all([platform.realtime.publish(CONTACT_TOPIC), platform.realtime.publish(STATS_TOPIC, { source: 'contact' })]).catch(
		(error: Error) => platform.logger.warn({ err: error }, 'could not announce a contact change'),
	)
}

export interface MessageSummary {
	id: string
	name: string
	email: string
	subject: ContactSubjectValue
	excerpt: string
	status: 'unread' | 'read' | 'handled'
	createdAt: string
	replies: number
}

/** The admin's inbox: newest first, open ones (unread and read) by default. */
export async function listMessages(platform: Platform, filter: MessageFilter, page = 1) {
	const { db } = platform.database
	const where =
		filter === 'open'
			? inArray(contactMessage.status, ['unread', 'read'])
			: filter === 'unread'
				? eq(contactMessage.status, 'unread')
				: filter === 'handled'
					? eq(contactMessage.status, 'handled')
					: undefined
	const offset = (Math.max(1, page) - 1) * MESSAGES_PAGE_SIZE
	const [rows, [total], counts] = await Promise.all([
		db
			.select({
				id: contactMessage.id,
				name: contactMessage.name,
				email: contactMessage.email,
				subject: contactMessage.subject,
				excerpt: sql<string>`left(${contactMessage.body}, 160)`,
				status: contactMessage.status,
				createdAt: contactMessage.createdAt,
				replies: sql<number>`(select count(*)::int from ${contactReply} where ${contactReply.messageId} = ${contactMessage.id})`,
			})
			.from(contactMessage)
			.where(where)
			.orderBy(desc(contactMessage.createdAt), desc(contactMessage.id))
			.limit(MESSAGES_PAGE_SIZE)
			.offset(offset),
		db.select({ n: count() }).from(contactMessage).where(where),
		messageCounts(platform),
	])
	return {
		messages: rows.map((row): MessageSummary => ({ ...row, createdAt: row.createdAt.toISOString(), replies: Number(row.replies) })),
		total: total?.n ?? 0,
		counts,
	}
}

/** Unread, open (unread + read) and handled messages: the messages screen's tabs, and the stats screen. */
export async function messageCounts(platform: Platform) {
	return countMessages(platform.database.db)
}

export async function countMessages(db: Db) {
	const rows = await db.select({ status: contactMessage.status, n: count() }).from(contactMessage).groupBy(contactMessage.status)
	const of = (status: string) => rows.find((row) => row.status === status)?.n ?? 0
	return { unread: of('unread'), open: of('unread') + of('read'), handled: of('handled'), all: rows.reduce((sum, row) => sum + row.n, 0) }
}

/** One message and its thread of replies (with how each reply's mail is doing). Opening it marks it read. */
export async function openMessage(platform: Platform, id: string) {
	const { db } = platform.database
	const [message] = await db.select().from(contactMessage).where(eq(contactMessage.id, id))
	if (!message) return null
	if (message.status === 'unread') {
		const readAt = new Date()
		await db
			.update(contactMessage)
			.set({ status: 'read', readAt })
			.where(and(eq(contactMessage.id, id), eq(contactMessage.status, 'unread')))
		message.status = 'read'
		message.readAt = readAt
		await announce(platform)
	}
	const replies = await db
		.select({
			id: contactReply.id,
			body: contactReply.body,
			authorName: contactReply.authorName,
			createdAt: contactReply.createdAt,
			mailStatus: outboxMail.status,
		})
		.from(contactReply)
		.leftJoin(outboxMail, eq(outboxMail.id, contactReply.mailId))
		.where(eq(contactReply.messageId, id))
		.orderBy(contactReply.createdAt)
	let notifyStatus: 'queued' | 'sent' | 'failed' | null = null
	if (message.notifyMailId) {
		const [mail] = await db.select({ status: outboxMail.status }).from(outboxMail).where(eq(outboxMail.id, message.notifyMailId))
		notifyStatus = mail?.status ?? null
	}
	return {
		id: message.id,
		name: message.name,
		email: message.email,
		subject: message.subject,
		body: message.body,
		status: message.status,
		createdAt: message.createdAt.toISOString(),
		handledAt: message.handledAt?.toISOString() ?? null,
		notifyStatus,
		replies: replies.map((reply) => ({ ...reply, createdAt: reply.createdAt.toISOString(), mailStatus: reply.mailStatus ?? null })),
	}
}

export async function setHandled(platform: Platform, id: string, handled: boolean): Promise<boolean> {
	const rows = await platform.database.db
		.update(contactMessage)
		.set(handled ? { status: 'handled', handledAt: new Date() } : { status: 'read', handledAt: null })
		.where(eq(contactMessage.id, id))
		.returning({ id: contactMessage.id })
	if (rows.length) await announce(platform)
	return rows.length > 0
}

export async function deleteMessage(platform: Platform, id: string): Promise<boolean> {
	const rows = await platform.database.db.delete(contactMessage).where(eq(contactMessage.id, id)).returning({ id: contactMessage.id })
	if (rows.length) await announce(platform)
	return rows.length > 0
}

export type ReplyOutcome = { ok: true } | { ok: false; reason: 'missing' | 'limited' | 'mail'; message: string }

/** Answers the sender through the outbox; the reply is kept in the thread and the message marked handled. */
export async function replyToMessage(
	platform: Platform,
	admin: { id: string; name: string },
	id: string,
	text: string,
): Promise<ReplyOutcome> {
	const { db } = platform.database
	const limited = await platform.limits.consume('contactReplyByAccount', admin.id)
	if (!limited.ok)
		return { ok: false, reason: 'limited', message: getT()('contact.admin.replyLimited', { wait: formatWait(limited.retryAfterSeconds) }) }
	const [message] = await db.select().from(contactMessage).where(eq(contactMessage.id, id))
	if (!message) return { ok: false, reason: 'missing', message: getT()('contact.admin.replyGone') }
	const sent = await platform.mailer.sendMail(
		replyMail(platform.env, { ...message, subject: message.subject }, text, platform.env.CONTACT_EMAIL),
	)
	if (!sent.ok) return { ok: false, reason: 'mail', message: getT()('contact.admin.replyNotQueued') }
	await db.transaction(async (tx) => {
		await tx
			.insert(contactReply)
			.values({ id: newShortId(), messageId: id, body: text, authorId: admin.id, authorName: admin.name, mailId: sent.id })
		await tx
			.update(contactMessage)
			.set({ status: 'handled', handledAt: new Date(), readAt: message.readAt ?? new Date() })
			.where(eq(contactMessage.id, id))
	})
	await announce(platform)
	return { ok: true }
}
