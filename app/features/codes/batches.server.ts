import { and, asc, eq, gt, sql } from 'drizzle-orm'
import type { Db } from '#app/platform/db/client.server.ts'
import { code, codeBatch, codeCampaign } from '#app/platform/db/schema.ts'
import type { Jobs } from '#app/platform/jobs.server.ts'
import type { Platform } from '#app/platform/platform.server.ts'
import type { Realtime } from '#app/platform/realtime.server.ts'
import type { Storage } from '#app/platform/storage/storage.server.ts'
import { nextSlice, progressSteps } from '#app/platform/work-slices.server.ts'
import { CODES_PURGE_QUEUE, purgeCodeData } from './purge.server.ts'
import { csvStream } from '#app/platform/csv-out.server.ts'
import { formatCode } from './code-format.ts'
import { randomCodes } from './generate.server.ts'
import { newId } from '#app/platform/random-token.server.ts'
import { BATCH_CHUNK, BATCH_MAX } from './rules.ts'

/** One job per generated batch; it resumes where it stopped (the batch row counts what is stored). */
export const BATCH_QUEUE = 'codes.generate'
/** Where an imported batch's codes wait for the job that stores them. */
export const importKey = (batchId: string) => `codes/imports/${batchId.toLowerCase().replace(/[^a-z0-9]/g, '')}-${batchId.length}.txt`
export const BATCH_QUEUE_OPTIONS = { retryLimit: 5, retryDelay: 10, retryBackoff: true, expireInSeconds: 30 * 60 }
/** The realtime topic of a batch's progress. */
export const batchTopic = (batchId: string) => `codes.batch.${batchId}`

/**
 * Inserts the codes with one parameter (a comma-separated list split by the database), skipping
 * any that already exist; returns how many were stored. Codes are letters and digits only.
 */
export async function insertCodes(
	db: Pick<Db, 'execute'>,
	values: string[],
	target: { campaignId: string; batchId: string; maxUses: number },
): Promise<number> {
	if (values.length === 0) return 0
	const result = await db.execute(sql`
		with inserted as (
			insert into ${code} (code, campaign_id, batch_id, max_uses)
			select unnest(string_to_array(${values.join(',')}, ',')), ${target.campaignId}, ${target.batchId}, ${target.maxUses}::int
			on conflict (code) do nothing
			returning 1
		)
		select count(*)::int as n from inserted`)
	const rows = (result as unknown as { rows: { n: number }[] }).rows
	return Number(rows[0]?.n ?? 0)
}

/** Records a batch to generate and queues its job. */
export async function createBatch(
	db: Db,
	jobs: Jobs,
	input: { campaignId: string; count: number; label: string; userId: string | null },
): Promise<string> {
	if (!Number.isInteger(input.count) || input.count < 1 || input.count > BATCH_MAX) throw new Error('batch size out of range')
	const id = newId()
	await db.insert(codeBatch).values({
		id,
		campaignId: input.campaignId,
		kind: 'generated',
		label: input.label,
		requested: input.count,
		createdBy: input.userId,
	})
	await jobs.queue(BATCH_QUEUE, BATCH_QUEUE_OPTIONS)
	await jobs.send(BATCH_QUEUE, { batchId: id }, { singletonKey: id })
	return id
}

/**
 * Stores what is missing of a batch, a chunk per transaction (the codes and the progress move
 * together), giving the event loop a turn after each (app/platform/work-slices.server.ts) and
 * announcing progress in steps. Safe to run again after a crash: it starts from what the batch row
 * says is done. A generated batch draws new codes until it holds `requested` (a rare collision is
 * drawn again); an imported one walks its list (codes that appeared meanwhile are skipped),
 * `created` being the lines done.
 */
export async function runBatch(deps: { db: Db; storage: Storage; realtime?: Realtime }, batchId: string): Promise<void> {
	const { db, storage, realtime } = deps
	const [batch] = await db
		.select({
			id: codeBatch.id,
			kind: codeBatch.kind,
			campaignId: codeBatch.campaignId,
			requested: codeBatch.requested,
			created: codeBatch.created,
			status: codeBatch.status,
			usesPerCode: codeCampaign.usesPerCode,
		})
		.from(codeBatch)
		.innerJoin(codeCampaign, eq(codeCampaign.id, codeBatch.campaignId))
		.where(eq(codeBatch.id, batchId))
	if (!batch || batch.status === 'done') return
	await db.update(codeBatch).set({ status: 'running' }).where(eq(codeBatch.id, batchId))
	let list: string[] = []
	if (batch.kind === 'imported') {
		const bytes = await storage.read(importKey(batchId))
		if (!bytes) throw new Error('the list of imported codes is missing')
		list = new TextDecoder().decode(bytes).split('\n').filter(Boolean)
	}
	const target = { campaignId: batch.campaignId, batchId, maxUses: batch.usesPerCode }
	const progress = progressSteps(batch.requested, ({ done, total }) =>
		realtime?.publish(batchTopic(batchId), { created: done, requested: total }),
	)
	let created = batch.created
	await progress.advance(created)
	while (created < batch.requested) {
		const size = Math.min(BATCH_CHUNK, batch.requested - created)
		const from = created
		created = await db.transaction(async (tx) => {
			const stored =
				batch.kind === 'imported'
					? (await insertCodes(tx, list.slice(from, from + size), target), size)
					: // Sorted, each chunk fills the indexes' pages in order rather than all over.
						await insertCodes(tx, randomCodes(size).sort(), target)
			const [row] = await tx
				.update(codeBatch)
				.set({ created: sql`${codeBatch.created} + ${stored}` })
				.where(eq(codeBatch.id, batchId))
				.returning({ created: codeBatch.created })
			return row!.created
		})
		await progress.advance(created)
		await nextSlice()
	}
	await db.update(codeBatch).set({ status: 'done', finishedAt: new Date() }).where(eq(codeBatch.id, batchId))
	if (batch.kind === 'imported') await storage.delete(importKey(batchId)).catch(() => {})
	await realtime?.publish(batchTopic(batchId), { created, requested: batch.requested, done: true }).catch(() => {})
}

/** Declares the batch queue and works it; called once at start (app/background.server.ts). */
export async function startCodeWorkers(platform: Platform): Promise<void> {
	const { jobs, database, storage, realtime, logger } = platform
	await jobs.queue(BATCH_QUEUE, BATCH_QUEUE_OPTIONS)
	await jobs.work<{ batchId: string }>(BATCH_QUEUE, async (batch) => {
		for (const job of batch) {
			try {
				await runBatch({ db: database.db, storage, realtime }, job.data.batchId)
			} catch (error) {
				logger.error({ err: error, batchId: job.data.batchId }, 'code batch interrupted; it will resume')
				if (job.retryCount >= BATCH_QUEUE_OPTIONS.retryLimit)
					await markBatchFailed(database.db, job.data.batchId, String((error as Error).message))
				throw error
			}
		}
	})
	await jobs.queue(CODES_PURGE_QUEUE, { retryLimit: 2, retryDelay: 300 })
	await jobs.work(CODES_PURGE_QUEUE, async () => {
		logger.info({ codes: await purgeCodeData(database.db) }, 'codes housekeeping done')
	})
	await jobs.schedule(CODES_PURGE_QUEUE, '53 4 * * *')
}

export async function markBatchFailed(db: Db, batchId: string, error: string): Promise<void> {
	await db.update(codeBatch).set({ status: 'failed', error }).where(eq(codeBatch.id, batchId))
}

/** Rows per page of a streamed CSV export: one page is one short statement (well under 100 ms on PGlite). */
const EXPORT_PAGE = 1_000

/**
 * A batch as CSV (code as printed, link, state, uses), streamed by pages of the primary key
 * (keyset) through the site's one CSV writer (app/platform/csv-out.server.ts).
 */
export function batchCsv(db: Db, batchId: string, siteUrl: string): ReadableStream<Uint8Array> {
	const base = siteUrl.replace(/\/+$/, '')
	async function* pages() {
		let after = ''
		while (true) {
			const rows = await db
				.select({ code: code.code, uses: code.uses, maxUses: code.maxUses, revokedAt: code.revokedAt })
				.from(code)
				.where(and(eq(code.batchId, batchId), gt(code.code, after)))
				.orderBy(asc(code.code))
				.limit(EXPORT_PAGE)
			if (rows.length === 0) return
			after = rows[rows.length - 1]!.code
			yield rows.map((row) => {
				const printed = formatCode(row.code)
				return [printed, `${base}/redeem?code=${printed}`, row.uses, row.maxUses, row.revokedAt ? 'oui' : 'non']
			})
		}
	}
	return csvStream(['code', 'lien', 'utilisations', 'utilisations_max', 'revoque'], pages(), ',')
}

export async function revokeBatch(db: Db, batchId: string): Promise<void> {
	await db.update(codeBatch).set({ revokedAt: new Date() }).where(eq(codeBatch.id, batchId))
}

export async function revokeCode(db: Db, normalised: string): Promise<boolean> {
	const rows = await db.update(code).set({ revokedAt: new Date() }).where(eq(code.code, normalised)).returning({ code: code.code })
	return rows.length === 1
}
