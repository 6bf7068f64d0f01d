import { sql } from 'drizzle-orm'
import type { Db } from '#app/platform/db/client.server.ts'
import { codeBatch } from '#app/platform/db/schema.ts'
import type { Jobs } from '#app/platform/jobs.server.ts'
import type { Storage } from '#app/platform/storage/storage.server.ts'
import { csvRecords, readCsv } from '#app/platform/csv-in.server.ts'
import { nextSlice } from '#app/platform/work-slices.server.ts'
import { normalizeCode } from './code-format.ts'
import { BATCH_QUEUE, BATCH_QUEUE_OPTIONS, importKey } from './batches.server.ts'
import { newId } from '#app/platform/random-token.server.ts'
import { IMPORT_MAX_LINES } from './rules.ts'

/*
 * Codes printed elsewhere (a pressing plant's list), imported from CSV (read by the site's one
 * reader, app/platform/csv-in.server.ts): the first column of each line (or the column named « code »). A preview says which lines are kept and why the others are
 * refused; only the confirmation stores them, through the same background job as a generation.
 */

export type RejectReason = 'format' | 'duplicate' | 'exists'
export interface ImportPreview {
	accepted: string[]
	rejected: { line: number; value: string; reason: RejectReason }[]
	tooMany: boolean
	unreadable: boolean
}

/** Lines parsed between two turns of the event loop, and codes looked up per statement. */
const PARSE_SLICE = 2_000
const LOOKUP_SLICE = 2_000

/**
 * Reads the list in slices (the event loop gets a turn every PARSE_SLICE lines and between lookups:
 * app/platform/work-slices.server.ts), so that a 100,000-line file never holds the server.
 */
export async function previewImport(db: Db, bytes: Uint8Array): Promise<ImportPreview> {
	const rows: string[][] = []
	const file = readCsv(bytes)
	if (!file) return { accepted: [], rejected: [], tooMany: false, unreadable: true }
	try {
		for await (const record of csvRecords(file)) {
			rows.push(record)
			if (rows.length > IMPORT_MAX_LINES + 1) return { accepted: [], rejected: [], tooMany: true, unreadable: false }
			if (rows.length % PARSE_SLICE === 0) await nextSlice()
		}
	} catch {
		return { accepted: [], rejected: [], tooMany: false, unreadable: true }
	}
	let column = 0
	let start = 0
	const header = rows[0]?.map((cell) => cell.toLowerCase())
	if (header && header.includes('code')) {
		column = header.indexOf('code')
		start = 1
	}
	const seen = new Set<string>()
	const accepted: string[] = []
	const rejected: ImportPreview['rejected'] = []
	for (let i = start; i < rows.length; i++) {
		const raw = (rows[i]![column] ?? '').slice(0, 80)
		const normalised = normalizeCode(raw)
		if (!normalised) rejected.push({ line: i + 1, value: raw, reason: 'format' })
		else if (seen.has(normalised)) rejected.push({ line: i + 1, value: raw, reason: 'duplicate' })
		else {
			seen.add(normalised)
			accepted.push(normalised)
		}
	}
	if (accepted.length > IMPORT_MAX_LINES) return { accepted: [], rejected: [], tooMany: true, unreadable: false }
	// Codes the site already has, in any campaign.
	const existing = new Set<string>()
	for (let i = 0; i < accepted.length; i += LOOKUP_SLICE) {
		if (i > 0) await nextSlice()
		const slice = accepted.slice(i, i + LOOKUP_SLICE)
		const result = await db.execute(sql`select code from code where code = any(string_to_array(${slice.join(',')}, ','))`)
		for (const row of (result as unknown as { rows: { code: string }[] }).rows) existing.add(row.code)
	}
	if (existing.size > 0) {
		const lineOf = new Map<string, number>()
		for (let i = start; i < rows.length; i++) {
			const n = normalizeCode((rows[i]![column] ?? '').slice(0, 80))
			if (n && !lineOf.has(n)) lineOf.set(n, i + 1)
		}
		for (const value of existing) rejected.push({ line: lineOf.get(value) ?? 0, value, reason: 'exists' })
		rejected.sort((a, b) => a.line - b.line)
	}
	return { accepted: accepted.filter((value) => !existing.has(value)), rejected, tooMany: false, unreadable: false }
}

/** Stores the accepted codes for the job, records the batch and queues it. */
export async function startImport(
	db: Db,
	jobs: Jobs,
	storage: Storage,
	input: { campaignId: string; codes: string[]; label: string; userId: string | null },
): Promise<string> {
	const id = newId()
	await storage.put(importKey(id), new TextEncoder().encode(input.codes.join('\n')), { contentType: 'text/plain' })
	await db.insert(codeBatch).values({
		id,
		campaignId: input.campaignId,
		kind: 'imported',
		label: input.label,
		requested: input.codes.length,
		createdBy: input.userId,
	})
	await jobs.queue(BATCH_QUEUE, BATCH_QUEUE_OPTIONS)
	await jobs.send(BATCH_QUEUE, { batchId: id }, { singletonKey: id })
	return id
}
