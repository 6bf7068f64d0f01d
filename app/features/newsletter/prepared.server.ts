import { randomUUID } from 'node:crypto'
import { and, desc, eq, isNotNull } from 'drizzle-orm'
import type { Db } from '#app/platform/db/client.server.ts'
import { newsletterCampaign, siteSetting } from '#app/platform/db/schema.ts'
import type { Env } from '#app/platform/env.server.ts'
import { getLogger } from '#app/platform/logger.server.ts'
import { announcementDraft, defaultAudience } from './announce.server.ts'
import { countAudience, venueOf } from './audience.server.ts'

/*
 * « Préparer une annonce à chaque nouveau concert publié »: when an admin turns it on, an event's
 * first publication also writes the draft « Annoncer aux fans proches » would open (same text, same
 * default radius), marked as prepared. Nothing is sent: the stats screen and the campaign list
 * point the admin to it, and only their click sends it. Off unless an admin turns it on.
 */

const SETTING = 'newsletter.prepare_announcements'

/** Whether first publications prepare an announcement. */
export async function preparesAnnouncements(db: Db): Promise<boolean> {
	const [row] = await db.select({ value: siteSetting.value }).from(siteSetting).where(eq(siteSetting.key, SETTING))
	return row?.value === 'on'
}

export async function setPreparesAnnouncements(db: Db, on: boolean): Promise<void> {
	const value = on ? 'on' : 'off'
	await db.insert(siteSetting).values({ key: SETTING, value }).onConflictDoUpdate({ target: siteSetting.key, set: { value } })
}

export type Preparation = 'prepared' | 'failed' | 'none'

/**
 * Called inside the transaction that publishes an event for the first time: writes its draft
 * announcement, at most one per event (a unique index), in a savepoint, so that a failure here is
 * logged and told but never undoes the publication.
 */
export async function prepareAnnouncement(tx: Db, env: Env, eventId: string, userId: string): Promise<Preparation> {
	if (!(await preparesAnnouncements(tx))) return 'none'
	try {
		return await tx.transaction(async (savepoint) => {
			const draft = await announcementDraft(savepoint, env, eventId)
			if (!draft) return 'none'
			const audience = defaultAudience(await venueOf(savepoint, eventId))
			if (audience) audience.countAtSave = await countAudience(savepoint, audience)
			const [row] = await savepoint
				.insert(newsletterCampaign)
				.values({ id: randomUUID(), ...draft, audience, preparedForEvent: eventId, preparedAt: new Date(), createdBy: userId })
				.onConflictDoNothing()
				.returning({ id: newsletterCampaign.id })
			return row ? 'prepared' : 'none'
		})
	} catch (error) {
		getLogger().error({ err: error, eventId }, 'the announcement of a newly published event could not be prepared')
		return 'failed'
	}
}

/** The prepared announcements still waiting as drafts, newest first. */
export async function waitingPreparedDrafts(db: Db) {
	return db
		.select({ id: newsletterCampaign.id, subject: newsletterCampaign.subject })
		.from(newsletterCampaign)
		.where(and(isNotNull(newsletterCampaign.preparedAt), eq(newsletterCampaign.status, 'draft')))
		.orderBy(desc(newsletterCampaign.preparedAt))
}
