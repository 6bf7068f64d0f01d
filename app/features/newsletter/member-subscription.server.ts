import { eq } from 'drizzle-orm'
import type { Db } from '#app/platform/db/client.server.ts'
import { newsletterSubscriber, type SubscriberStatus } from '#app/platform/db/schema.ts'
import { cachedForMember } from '#app/platform/session-cache.server.ts'
import { normaliseEmail } from './subscribers.server.tsx'
import type { SubscriberTown } from './town-columns.ts'

/*
 * What a member's pages show of the newsletter: the status and the town of the subscriber record of
 * their account's address (the row their toggle and their town field change), or nothing.
 */
export interface MemberSubscription {
	status: SubscriberStatus | null
	town: SubscriberTown | null
}

/** The subscriber record of a member's address, read now (one statement). */
export async function readMemberSubscription(db: Db, email: string): Promise<MemberSubscription> {
	const [row] = await db
		.select({
			status: newsletterSubscriber.status,
			townId: newsletterSubscriber.townId,
			townLabel: newsletterSubscriber.townLabel,
			latitude: newsletterSubscriber.latitude,
			longitude: newsletterSubscriber.longitude,
		})
		.from(newsletterSubscriber)
		.where(eq(newsletterSubscriber.email, normaliseEmail(email)))
	if (!row) return { status: null, town: null }
	const { status, ...town } = row
	return { status, town }
}

/**
 * The same, from the member's remembered data (app/platform/session-cache.server.ts): read once,
 * forgotten when the database signals a change of a subscriber row of their address or of their
 * account (its address among others), by any write. Read-only.
 */
export function memberSubscription(db: Db, member: { id: string; email: string }): Promise<MemberSubscription> {
	return cachedForMember(member.id, 'newsletter', () => readMemberSubscription(db, member.email))
}
