import { and, eq, isNull, lt, notExists, or } from 'drizzle-orm'
import type { Db } from '#app/platform/db/client.server.ts'
import type { Env } from '#app/platform/env.server.ts'
import { event, media } from '#app/platform/db/schema.ts'
import { getT } from '#app/platform/i18n.server.ts'
import type { Jobs } from '#app/platform/jobs.server.ts'
import type { Platform } from '#app/platform/platform.server.ts'
import { isStorageKey } from '#app/platform/storage/storage.server.ts'
import { deleteMediaWhere, MEDIA_DELETE_QUEUE, MEDIA_DELETE_QUEUE_OPTIONS, removeMedia } from './media.server.ts'
import { publicContentChanged } from '#app/platform/public-content.server.ts'
import { processMedia, supersededAvatars } from './variants.server.ts'

/** One job per uploaded image: make its renditions (variants.server.ts). */
export const MEDIA_QUEUE = 'media.variants'
/** Attempts after the first, with backoff from 15 s: about four minutes of retries in all. */
export const MEDIA_RETRY_LIMIT = 4
const MEDIA_QUEUE_OPTIONS = { retryLimit: MEDIA_RETRY_LIMIT, retryDelay: 15, retryBackoff: true, expireInSeconds: 15 * 60 }

/** The media queue's options; the tests that wait for a retry shorten its first delay (TEST_MEDIA_RETRY_DELAY_SECONDS, see startMediaWorkers). */
export function mediaQueueOptions(env: Pick<Env, 'TEST_MEDIA_RETRY_DELAY_SECONDS'>) {
	return { ...MEDIA_QUEUE_OPTIONS, retryDelay: env.TEST_MEDIA_RETRY_DELAY_SECONDS ?? MEDIA_QUEUE_OPTIONS.retryDelay }
}
/** Once a day: images nobody uses any more. */
export const MEDIA_PURGE_QUEUE = 'media.purge'

const HOUR = 3600_000
/** How long an image may stay processing before it is declared interrupted (its job long gone). */
const STUCK_AFTER_MS = 6 * HOUR
/** How long a failed upload is kept, so that its editor can still read why. */
const FAILED_KEPT_MS = 24 * HOUR
/** How long a cover no event uses is kept (the editor may not have saved its event yet). */
const UNUSED_COVER_KEPT_MS = 7 * 24 * HOUR

/**
 * The housekeeping of media: uploads stuck in processing are marked failed, failed ones and
 * covers no event uses are deleted after a while, and so are avatars whose member is gone.
 */
export async function purgeMedia(db: Db, jobs: Jobs, now = new Date()) {
	const at = (ms: number) => new Date(now.getTime() - ms)
	const stuck = await db
		.update(media)
		.set({ status: 'failed', error: getT()('media.errors.interrupted') })
		.where(and(eq(media.status, 'processing'), lt(media.createdAt, at(STUCK_AFTER_MS))))
		.returning({ id: media.id })
	await jobs.queue(MEDIA_DELETE_QUEUE, MEDIA_DELETE_QUEUE_OPTIONS)
	const deleted = await db.transaction((tx) =>
		deleteMediaWhere(
			tx,
			jobs,
			or(
				and(eq(media.status, 'failed'), lt(media.updatedAt, at(FAILED_KEPT_MS))),
				and(
					eq(media.kind, 'cover'),
					lt(media.createdAt, at(UNUSED_COVER_KEPT_MS)),
					notExists(db.select({ id: event.id }).from(event).where(eq(event.coverId, media.id))),
				),
				and(eq(media.kind, 'avatar'), isNull(media.createdBy)),
			)!,
		),
	)
	return { interrupted: stuck.length, deleted }
}

/** Declares the media queues and starts their workers; called once at start (app/background.server.ts). */
export async function startMediaWorkers(platform: Platform): Promise<void> {
	const { jobs, database, storage, logger } = platform
	const db = database.db
	await jobs.queue(MEDIA_QUEUE, mediaQueueOptions(platform.env))
	await jobs.queue(MEDIA_DELETE_QUEUE, MEDIA_DELETE_QUEUE_OPTIONS)
	await jobs.queue(MEDIA_PURGE_QUEUE, { retryLimit: 2, retryDelay: 300 })

	await jobs.work<{ id: string }>(
		MEDIA_QUEUE,
		async (batch) => {
			for (const job of batch) {
				const outcome = await processMedia({ db, storage, logger }, job.data.id, { isLast: job.retryCount >= MEDIA_RETRY_LIMIT })
				if (outcome !== 'ready') continue
				await removeMedia(db, jobs, await supersededAvatars(db, job.data.id))
				// A cover's renditions now show on public pages that were cached without them.
				await publicContentChanged()
			}
		},
		{
			pollingIntervalSeconds: 1,
			// A retry coming due is found by the worker's safety poll (30 s, app/platform/jobs.server.ts);
			// the tests that shorten the retry delay have it look every second as well.
			...(platform.env.TEST_MEDIA_RETRY_DELAY_SECONDS ? { notifyPollingIntervalSeconds: 1 } : {}),
		},
	)
	await jobs.work<{ keys: string[] }>(MEDIA_DELETE_QUEUE, async (batch) => {
		for (const job of batch) {
			for (const key of job.data.keys) if (isStorageKey(key)) await storage.delete(key)
		}
	})
	await jobs.work(MEDIA_PURGE_QUEUE, async () => {
		const report = await purgeMedia(db, jobs)
		logger.info({ media: report }, 'media housekeeping done')
	})
	await jobs.schedule(MEDIA_PURGE_QUEUE, '41 4 * * *')
}
