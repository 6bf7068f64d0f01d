import { and, isNotNull, lt, or } from 'drizzle-orm'
import type { Db } from '#app/platform/db/client.server.ts'
import { contactMessage, outboxMail, pageViewDaily, rateLimit, session, verification } from '#app/platform/db/schema.ts'
import { parisDay } from '#app/platform/time-zone.ts'

/**
 * What the site keeps, and for how long. The privacy policy states the same durations; change
 * them together.
 */
export const RETENTION = {
	/** A delivered or failed mail's content (subject and address stay, for the history). */
	mailBodyDays: 30,
	/** A mail's record (address, subject, status). */
	mailRecordDays: 365,
	/** A contact message and the replies in its thread, from the day it was received. */
	contactMessageDays: 365,
	/** Audience figures (page views per day, page, referring domain, UTM source): 25 months, CNIL's ceiling. */
	pageViewMonths: 25,
} as const

export interface PurgeReport {
	sessions: number
	verifications: number
	mailBodies: number
	mailRecords: number
	rateLimits: number
	contactMessages: number
	pageViewDays: number
}

/** Deletes expired sessions, tokens and limits, and mail content past its retention. */
export async function purgeExpired(db: Db, now = new Date()): Promise<PurgeReport> {
	const days = (n: number) => new Date(now.getTime() - n * 24 * 3600 * 1000)
	const sessions = await db.delete(session).where(lt(session.expiresAt, now)).returning({ id: session.id })
	const verifications = await db.delete(verification).where(lt(verification.expiresAt, now)).returning({ id: verification.id })
	// Records past their retention go first, so that their content is not counted as emptied too.
	const mailRecords = await db
		.delete(outboxMail)
		.where(lt(outboxMail.createdAt, days(RETENTION.mailRecordDays)))
		.returning({ id: outboxMail.id })
	const mailBodies = await db
		.update(outboxMail)
		.set({ html: null, text: null })
		.where(and(lt(outboxMail.createdAt, days(RETENTION.mailBodyDays)), or(isNotNull(outboxMail.html), isNotNull(outboxMail.text))))
		.returning({ id: outboxMail.id })
	const rateLimits = await db.delete(rateLimit).where(lt(rateLimit.expire, now)).returning({ key: rateLimit.key })
	// Replies go with their message (on delete cascade).
	const contactMessages = await db
		.delete(contactMessage)
		.where(lt(contactMessage.createdAt, days(RETENTION.contactMessageDays)))
		.returning({ id: contactMessage.id })
	const oldestKept = new Date(now)
	oldestKept.setUTCMonth(oldestKept.getUTCMonth() - RETENTION.pageViewMonths)
	const pageViewDays = await db
		.delete(pageViewDaily)
		.where(lt(pageViewDaily.day, parisDay(oldestKept)))
		.returning({ day: pageViewDaily.day })
	return {
		sessions: sessions.length,
		verifications: verifications.length,
		mailBodies: mailBodies.length,
		mailRecords: mailRecords.length,
		rateLimits: rateLimits.length,
		contactMessages: contactMessages.length,
		pageViewDays: new Set(pageViewDays.map((row) => row.day)).size,
	}
}
