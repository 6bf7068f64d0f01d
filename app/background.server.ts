import { purgeExpired } from '#app/features/accounts/housekeeping.server.ts'
import { announceSetupLink } from '#app/features/accounts/setup.server.ts'
import { startCodeWorkers } from '#app/features/codes/batches.server.ts'
import { startMediaWorkers } from '#app/features/media/media-jobs.server.ts'
import { startNewsletterWorkers } from '#app/features/newsletter/jobs.server.ts'
import { getPlatform, startPlatformWorkers } from '#app/platform/platform.server.ts'
import { listenForPublicContentChanges } from '#app/platform/public-content.server.ts'

export const HOUSEKEEPING_QUEUE = 'accounts.housekeeping'

/**
 * Everything that runs outside requests: the platform's workers (outbox mail), each feature's
 * jobs and schedules, and the first-run set-up link. Called once by the server at start.
 */
export async function startBackground(): Promise<void> {
	const platform = await getPlatform()
	const { jobs, database, logger } = platform
	await startPlatformWorkers(platform)
	// Caches of public pages forget what another instance's admin changed.
	await listenForPublicContentChanges()

	await jobs.queue(HOUSEKEEPING_QUEUE, { retryLimit: 3, retryDelay: 60, retryBackoff: true })
	await jobs.work(HOUSEKEEPING_QUEUE, async () => {
		const report = await purgeExpired(database.db)
		logger.info({ purged: report }, 'housekeeping done')
	})
	await jobs.schedule(HOUSEKEEPING_QUEUE, '17 4 * * *')
	await jobs.send(HOUSEKEEPING_QUEUE, {})

	// Image renditions, file deletions and the daily media housekeeping.
	await startMediaWorkers(platform)
	// Code batches (generated or imported) and the daily codes housekeeping.
	await startCodeWorkers(platform)

	// Newsletter sends (resumed after a crash), schedules and the purge of unconfirmed addresses.
	await startNewsletterWorkers(platform)

	await announceSetupLink(platform)
}
