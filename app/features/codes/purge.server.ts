import { lt } from 'drizzle-orm'
import type { Db } from '#app/platform/db/client.server.ts'
import { codeAttempt, codeDownload } from '#app/platform/db/schema.ts'
import { releaseExpiredReservations } from './reservations.server.ts'
import { CODE_RETENTION } from './rules.ts'

/** Once a day: reservations past their time give their use back; old attempts and downloads go. */
export const CODES_PURGE_QUEUE = 'codes.purge'

export async function purgeCodeData(db: Db, now = new Date()) {
	const days = (n: number) => new Date(now.getTime() - n * 24 * 3600_000)
	const reservations = await releaseExpiredReservations(db, { now })
	const attempts = await db
		.delete(codeAttempt)
		.where(lt(codeAttempt.at, days(CODE_RETENTION.attemptDays)))
		.returning({ id: codeAttempt.id })
	const downloads = await db
		.delete(codeDownload)
		.where(lt(codeDownload.at, days(CODE_RETENTION.downloadDays)))
		.returning({ id: codeDownload.id })
	return { reservations, attempts: attempts.length, downloads: downloads.length }
}
