import { purgeExpired } from '#app/features/accounts/housekeeping.server.ts'
import { announceSetupLink } from '#app/features/accounts/setup.server.ts'
import { startCodeWorkers } from '#app/features/codes/batches.server.ts'
import { startMediaWorkers } from '#app/features/media/media-jobs.server.ts'
import { startVenueWorker } from '#app/features/events/venue-place.server.ts'
import { startNewsletterWorkers } from '#app/features/newsletter/jobs.server.ts'
import { startImportWorker } from '#app/features/newsletter/imports.server.ts'
import { getPlatform, startPlatformWorkers, type Platform } from '#app/platform/platform.server.ts'
import { listenForPublicContentChanges } from '#app/platform/public-content.server.ts'

export const HOUSEKEEPING_QUEUE = 'accounts.housekeeping'

/**
 * Everything that runs outside requests: the platform's workers (outbox mail), each feature's
 * jobs and schedules, and the first-run set-up link. Called once by the server at start.
 *
 * Resolves once what must be in place before the first request is (the listener that keeps the
 * public page caches in step with other instances, and the set-up link, which the server prints
 * on its « site ready » line); `workers` settles when
 * every worker and schedule is started. Requests do not wait for those: whatever sends a job
 * declares its queue first, and the job waits in the database for its worker. `workersFrom`: when
 * to start them (the server: once its first answer is out, so that it does not wait for the job
 * queue's start).
 */
export async function startBackground(
	workersFrom: Promise<void> = Promise.resolve(),
): Promise<{ workers: Promise<void>; setupLink: string | null }> {
	const platform = await getPlatform()
	// Caches of public pages forget what another instance's admin changed.
	const [, setupLink] = await Promise.all([listenForPublicContentChanges(), announceSetupLink(platform)])
	return { workers: workersFrom.then(() => startWorkers(platform)), setupLink }
}

async function startWorkers(platform: Platform): Promise<void> {
	const { jobs, database, logger } = platform
	const housekeeping = async () => {
		await jobs.queue(HOUSEKEEPING_QUEUE, { retryLimit: 3, retryDelay: 60, retryBackoff: true })
		await jobs.work(HOUSEKEEPING_QUEUE, async () => {
			const report = await purgeExpired(database.db)
			logger.info({ purged: report }, 'housekeeping done')
		})
		await jobs.schedule(HOUSEKEEPING_QUEUE, '17 4 * * *')
		await jobs.send(HOUSEKEEPING_QUEUE, {})
	}
	// Independent queues, declared side by side (each declaration is a few round trips).
	await Promise.all([
		startPlatformWorkers(platform),
		housekeeping(),
		// Image renditions, file deletions and the daily media housekeeping.
		startMediaWorkers(platform),
		// Code batches (generated or imported) and the daily codes housekeeping.
		startCodeWorkers(platform),
		// Newsletter sends (resumed after a crash), schedules and the purge of unconfirmed addresses.
		startNewsletterWorkers(platform),
		// Confirmed subscriber imports, written in slices with their progress.
		startImportWorker(platform),
		// Venues of events saved before the town list: placed from their town, a batch at a time.
		startVenueWorker(jobs, database.db, logger),
	])
}
