import { and, desc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm'
import { fromDrizzle } from 'pg-boss'
import type { Db } from '#app/platform/db/client.server.ts'
import { media } from '#app/platform/db/schema.ts'
import type { Jobs } from '#app/platform/jobs.server.ts'
import { MEDIA_URL_PREFIX, type PublicImage } from './public-image.ts'
import type { MediaKind, MediaStatus } from './rules.ts'
import { cachedForMember } from '#app/platform/session-cache.server.ts'

/** Queue of the files to delete once their media rows are gone (worked by media-jobs.server.ts). */
export const MEDIA_DELETE_QUEUE = 'media.delete-files'
export const MEDIA_DELETE_QUEUE_OPTIONS = { retryLimit: 8, retryDelay: 30, retryBackoff: true }

type MediaRow = typeof media.$inferSelect

/** The job queue's view of a transaction: a job sent through it commits or rolls back with it. */
export function jobsIn(tx: Db) {
	return fromDrizzle(tx as unknown as Parameters<typeof fromDrizzle>[0], sql)
}

function toPublicImage(row: MediaRow): PublicImage | null {
	if (row.status !== 'ready' || !row.width || !row.height || row.variants.length === 0) return null
	return {
		width: row.width,
		height: row.height,
		alt: row.alt ?? '',
		variants: row.variants.map((v) => ({ format: v.format, width: v.width, height: v.height, url: MEDIA_URL_PREFIX + v.key })),
	}
}

/** A ready image, as a page can show it; null while it is processing, failed, or unknown. */
export async function publicImage(db: Db, mediaId: string | null | undefined): Promise<PublicImage | null> {
	if (!mediaId) return null
	const [row] = await db.select().from(media).where(eq(media.id, mediaId))
	return row ? toPublicImage(row) : null
}

/**
 * Where an upload stands, for its status endpoint. With `ownerId`, only that member's own media
 * is found (a member polls their avatar; an admin may poll any image).
 */
export async function mediaStatus(
	db: Db,
	mediaId: string,
	options: { ownerId?: string; kind?: MediaKind } = {},
): Promise<MediaStatus | null> {
	const conditions: SQL[] = [eq(media.id, mediaId)]
	if (options.ownerId) conditions.push(eq(media.createdBy, options.ownerId))
	if (options.kind) conditions.push(eq(media.kind, options.kind))
	const [row] = await db
		.select()
		.from(media)
		.where(and(...conditions))
	if (!row) return null
	return {
		id: row.id,
		kind: row.kind,
		status: row.status,
		progress: row.status === 'ready' ? 100 : row.progress,
		error: row.status === 'failed' ? row.error : null,
		image: toPublicImage(row),
	}
}

/** The member's avatar: their latest ready one, or null. */
export async function memberAvatar(db: Db, userId: string): Promise<(PublicImage & { id: string }) | null> {
	// Every dashboard page shows it: read once per few seconds per member, forgotten as soon as one
	// of their avatars changes (the database's signal, app/platform/session-cache.server.ts).
	return cachedForMember(userId, 'avatar', async () => {
		const [row] = await db
			.select()
			.from(media)
			.where(and(eq(media.kind, 'avatar'), eq(media.createdBy, userId), eq(media.status, 'ready')))
			.orderBy(desc(media.createdAt))
			.limit(1)
		const image = row ? toPublicImage(row) : null
		return row && image ? { ...image, id: row.id } : null
	})
}

/** The ids of the member's avatars, whatever their state. */
export async function memberAvatarIds(db: Db, userId: string): Promise<string[]> {
	const rows = await db
		.select({ id: media.id })
		.from(media)
		.where(and(eq(media.kind, 'avatar'), eq(media.createdBy, userId)))
	return rows.map((r) => r.id)
}

/**
 * Deletes media rows matching `where`, inside the caller's transaction, and queues the deletion of
 * their files in that same transaction: the files go only if the rows are really gone. Pages that
 * pointed at such an image (an event's cover) lose it (`on delete set null`).
 * The caller must have declared MEDIA_DELETE_QUEUE first (`jobs.queue`), outside the transaction.
 */
export async function deleteMediaWhere(tx: Db, jobs: Jobs, where: SQL): Promise<number> {
	const rows = await tx.delete(media).where(where).returning({ originalKey: media.originalKey, variants: media.variants })
	const keys = rows.flatMap((r) => [r.originalKey, ...r.variants.map((v) => v.key)])
	if (keys.length > 0) await jobs.send(MEDIA_DELETE_QUEUE, { keys }, { db: jobsIn(tx) })
	return rows.length
}

/** Deletes these media, rows now and files by a job. */
export async function removeMedia(db: Db, jobs: Jobs, ids: string[]): Promise<number> {
	if (ids.length === 0) return 0
	await prepareMediaDeletion(jobs)
	return db.transaction((tx) => deleteMediaWhere(tx, jobs, inArray(media.id, ids)))
}

/**
 * The condition for every avatar of a member, for account deletion. The account row may be gone
 * already (Better Auth deletes it first), which sets `created_by` to null: avatars without a
 * member are theirs, or someone's before them, and go too.
 */
export function avatarsOf(userId: string): SQL {
	return and(eq(media.kind, 'avatar'), or(eq(media.createdBy, userId), isNull(media.createdBy)))!
}

/** Declares the queue deleteMediaWhere sends to: call it before opening the transaction. */
export async function prepareMediaDeletion(jobs: Jobs): Promise<void> {
	await jobs.queue(MEDIA_DELETE_QUEUE, MEDIA_DELETE_QUEUE_OPTIONS)
}

/** The member's images, for the copy of their data: each avatar's largest JPEG and when it was sent. */
export async function memberImagesForExport(db: Db, userId: string, siteUrl: string) {
	const rows = await db
		.select()
		.from(media)
		.where(and(eq(media.kind, 'avatar'), eq(media.createdBy, userId)))
		.orderBy(desc(media.createdAt))
	return rows.map((row) => {
		const largest = row.variants.filter((v) => v.format === 'jpeg').sort((a, b) => b.width - a.width)[0]
		return {
			kind: row.kind,
			status: row.status,
			url: largest ? `${siteUrl}${MEDIA_URL_PREFIX}${largest.key}` : null,
			uploadedAt: row.createdAt.toISOString(),
		}
	})
}
