import { and, isNotNull, lt, or } from 'drizzle-orm'
import type { Db } from '#app/platform/db/client.server.ts'
import { outboxMail, rateLimit, session, verification } from '#app/platform/db/schema.ts'

/**
 * What the site keeps, and for how long. The privacy policy states the same durations; change
 * them together.
 */
export const RETENTION = {
	/** A delivered or failed mail's content (subject and address stay, for the history). */
	mailBodyDays: 30,
	/** A mail's record (address, subject, status). */
	mailRecordDays: 365,
} as const

export interface PurgeReport {
	sessions: number
	verifications: number
	mailBodies: number
	mailRecords: number
	rateLimits: number
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
	return {
		sessions: sessions.length,
		verifications: verifications.length,
		mailBodies: mailBodies.length,
		mailRecords: mailRecords.length,
		rateLimits: rateLimits.length,
	}
}
