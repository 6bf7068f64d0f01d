import { randomUUID } from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '#app/platform/db/client.server.ts'
import { newsletterImport, newsletterSubscriber, type ImportStatus } from '#app/platform/db/schema.ts'
import type { Jobs } from '#app/platform/jobs.server.ts'
import type { Platform } from '#app/platform/platform.server.ts'
import type { Realtime } from '#app/platform/realtime.server.ts'
import { nextSlice, progressSteps } from '#app/platform/work-slices.server.ts'
import { POLICY_VERSION } from './rules.ts'
import { newSecret } from '#app/platform/random-token.server.ts'

/*
 * A confirmed subscriber import is written by a background job, never by the request that confirms
 * it: a slice of addresses per transaction (the rows and the count of lines done move together, so
 * a job that dies resumes where it stopped and writes no address twice), the event loop getting a
 * turn between slices, and the admin's screen told the progress in steps (work-slices.server.ts).
 */

export const IMPORT_QUEUE = 'newsletter.import'
const IMPORT_QUEUE_OPTIONS = { retryLimit: 5, retryDelay: 10, retryBackoff: true, expireInSeconds: 30 * 60 }
/** Addresses written per statement: a few tens of milliseconds on the embedded database. */
const IMPORT_SLICE = 250
/** The realtime topic of one import's progress. */
export const importTopic = (id: string) => `newsletter.import.${id}`

export interface ImportProgress {
	id: string
	status: ImportStatus
	total: number
	done: number
	added: number
	error: string | null
}

/**
 * Confirms a previewed import (single use, by the admin who previewed it) and queues its job.
 * Returns the import's id, or null when the preview is unknown, expired or already confirmed.
 */
export async function confirmImport(db: Db, jobs: Jobs, id: string, createdBy: string): Promise<string | null> {
	const [row] = await db
		.update(newsletterImport)
		.set({ status: 'queued' })
		.where(and(eq(newsletterImport.id, id), eq(newsletterImport.createdBy, createdBy), eq(newsletterImport.status, 'preview')))
		.returning({ id: newsletterImport.id })
	if (!row) return null
	await jobs.queue(IMPORT_QUEUE, IMPORT_QUEUE_OPTIONS)
	await jobs.send(IMPORT_QUEUE, { importId: id }, { singletonKey: id })
	return id
}

export async function importProgress(db: Db, id: string): Promise<ImportProgress | null> {
	const [row] = await db
		.select({
			id: newsletterImport.id,
			status: newsletterImport.status,
			total: newsletterImport.total,
			done: newsletterImport.done,
			added: newsletterImport.added,
			error: newsletterImport.error,
		})
		.from(newsletterImport)
		.where(eq(newsletterImport.id, id))
	return row ?? null
}

/** Writes a confirmed import's addresses (every new one active, with the stated consent), from where it stopped. */
export async function runImport(deps: { db: Db; realtime?: Realtime }, id: string): Promise<void> {
	const { db, realtime } = deps
	const [stash] = await db.select().from(newsletterImport).where(eq(newsletterImport.id, id))
	if (!stash || stash.status === 'done' || stash.status === 'preview') return
	await db.update(newsletterImport).set({ status: 'running' }).where(eq(newsletterImport.id, id))
	const emails = stash.addresses ? stash.addresses.split('\n') : []
	const total = emails.length
	const announce = (status: ImportStatus, done: number, added: number) =>
		realtime?.publish(importTopic(id), { id, status, total, done, added, error: null } satisfies ImportProgress)
	let { done, added } = stash
	const progress = progressSteps(total, (step) => announce('running', step.done, added))
	await progress.advance(done)
	const now = new Date()
	while (done < total) {
		const slice = emails.slice(done, done + IMPORT_SLICE)
		const moved = await db.transaction(async (tx) => {
			const rows = await tx
				.insert(newsletterSubscriber)
				.values(
					slice.map((email) => ({
						id: randomUUID(),
						email,
						status: 'active' as const,
						source: 'import' as const,
						consentNote: stash.consentNote,
						consentAt: now,
						policyVersion: POLICY_VERSION,
						unsubscribeToken: newSecret(),
					})),
				)
				// An address that joined meanwhile (by the form, by hand) keeps its status.
				.onConflictDoNothing({ target: newsletterSubscriber.email })
				.returning({ id: newsletterSubscriber.id })
			const [row] = await tx
				.update(newsletterImport)
				.set({ done: sql`${newsletterImport.done} + ${slice.length}`, added: sql`${newsletterImport.added} + ${rows.length}` })
				.where(eq(newsletterImport.id, id))
				.returning({ done: newsletterImport.done, added: newsletterImport.added })
			return row!
		})
		done = moved.done
		added = moved.added
		await progress.advance(done)
		await nextSlice()
	}
	await db.update(newsletterImport).set({ status: 'done', finishedAt: new Date(), addresses: '' }).where(eq(newsletterImport.id, id))
	await Promise.resolve(announce('done', done, added)).catch(() => {})
}

async function markImportFailed(db: Db, id: string, error: string) {
	await db
		.update(newsletterImport)
		.set({ status: 'failed', error: error.slice(0, 500) })
		.where(eq(newsletterImport.id, id))
}

/** Declares the import queue and works it; called once at start (app/background.server.ts). */
export async function startImportWorker(platform: Platform): Promise<void> {
	const { jobs, database, realtime, logger } = platform
	await jobs.queue(IMPORT_QUEUE, IMPORT_QUEUE_OPTIONS)
	await jobs.work<{ importId: string }>(IMPORT_QUEUE, async (batch) => {
		for (const job of batch) {
			try {
				await runImport({ db: database.db, realtime }, job.data.importId)
			} catch (error) {
				logger.error({ err: error, importId: job.data.importId }, 'subscriber import interrupted; it will resume')
				if (job.retryCount >= IMPORT_QUEUE_OPTIONS.retryLimit) {
					await markImportFailed(database.db, job.data.importId, String((error as Error).message))
					const failed = await importProgress(database.db, job.data.importId)
					if (failed) await realtime.publish(importTopic(job.data.importId), failed).catch(() => {})
				}
				throw error
			}
		}
	})
}
