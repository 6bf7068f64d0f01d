import { randomUUID } from 'node:crypto'
import { and, asc, count, desc, eq, ilike, inArray, lt, notInArray, sql, type SQL } from 'drizzle-orm'
import { z } from 'zod'
import type { Db } from '#app/platform/db/client.server.ts'
import { newsletterImport, newsletterSubscriber, SUBSCRIBER_STATUSES, type SubscriberStatus } from '#app/platform/db/schema.ts'
import { EMAIL_MAX } from '#app/features/accounts/fields.ts'
import { IMPORT_MAX_LINES, POLICY_VERSION } from './rules.ts'
import { segmentConditions, type SubscriberSegment } from './segment.server.ts'
import { csvRecordsInSlices } from '#app/platform/csv-in-slices.server.ts'
import { nextSlice } from '#app/platform/work-slices.server.ts'
import { newToken, normaliseEmail, requestSubscription, type NewsletterContext } from './subscribers.server.tsx'

/*
 * The admin's side of the subscriber list: search and filter, add by hand, import and export CSV.
 * An import is read in two steps: the file is parsed and kept aside (with its rejected lines and
 * their reasons) for the preview, then written by a background job once the admin confirms
 * (imports.server.ts). Every long loop here works in slices (app/platform/work-slices.server.ts).
 */

export const PAGE_SIZE = 50

export function parseStatus(value: string | null): SubscriberStatus | null {
	return (SUBSCRIBER_STATUSES as readonly string[]).includes(value ?? '') ? (value as SubscriberStatus) : null
}

export async function listSubscribers(
	db: Db,
	options: { q?: string; status?: SubscriberStatus | null; page?: number; segment?: SubscriberSegment },
) {
	const where: SQL[] = options.segment ? segmentConditions(options.segment) : []
	const q = options.q?.trim().toLowerCase()
	if (q) where.push(ilike(newsletterSubscriber.email, `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`))
	if (options.status) where.push(eq(newsletterSubscriber.status, options.status))
	const condition = where.length ? and(...where) : undefined
	const page = Math.max(1, options.page ?? 1)
	const [rows, [total]] = await Promise.all([
		db
			.select({
				id: newsletterSubscriber.id,
				email: newsletterSubscriber.email,
				status: newsletterSubscriber.status,
				source: newsletterSubscriber.source,
				consentNote: newsletterSubscriber.consentNote,
				consentAt: newsletterSubscriber.consentAt,
				createdAt: newsletterSubscriber.createdAt,
				townLabel: newsletterSubscriber.townLabel,
			})
			.from(newsletterSubscriber)
			.where(condition)
			.orderBy(desc(newsletterSubscriber.createdAt), asc(newsletterSubscriber.email))
			.limit(PAGE_SIZE)
			.offset((page - 1) * PAGE_SIZE),
		db.select({ n: count() }).from(newsletterSubscriber).where(condition),
	])
	return { rows, total: Number(total?.n ?? 0), page, pages: Math.max(1, Math.ceil(Number(total?.n ?? 0) / PAGE_SIZE)) }
}

/**
 * Adds an address by hand. Certified (the admin vouches for a consent given elsewhere, and says
 * where): active at once. Otherwise it gets the confirmation mail, as from the landing page.
 * Returns false when the address was already on the list (the admin may know that).
 */
export async function addSubscriber(ctx: NewsletterContext, input: { email: string; certified: boolean; consentNote?: string }) {
	const email = normaliseEmail(input.email)
	if (!input.certified) {
		const [existing] = await ctx.db
			.select({ id: newsletterSubscriber.id })
			.from(newsletterSubscriber)
			.where(eq(newsletterSubscriber.email, email))
		if (existing) return false
		await requestSubscription(ctx, { email, source: 'admin' })
		if (input.consentNote)
			await ctx.db.update(newsletterSubscriber).set({ consentNote: input.consentNote }).where(eq(newsletterSubscriber.email, email))
		return true
	}
	const rows = await ctx.db
		.insert(newsletterSubscriber)
		.values({
			id: randomUUID(),
			email,
			status: 'active',
			source: 'admin',
			consentNote: input.consentNote || null,
			consentAt: new Date(),
			policyVersion: POLICY_VERSION,
			unsubscribeToken: newToken(),
		})
		.onConflictDoNothing({ target: newsletterSubscriber.email })
		.returning({ id: newsletterSubscriber.id })
	return rows.length > 0
}

export async function deleteSubscriberById(db: Db, id: string) {
	const rows = await db.delete(newsletterSubscriber).where(eq(newsletterSubscriber.id, id)).returning({ id: newsletterSubscriber.id })
	return rows.length > 0
}

const csvCell = (value: string) =>
	/[",;\r\n]/.test(value) || /^[=+\-@\t]/.test(value) ? `"${value.replace(/^([=+\-@\t])/, "'$1").replace(/"/g, '""')}"` : value

/** Rows per page of the export: one short statement (well under 100 ms on the embedded database). */
const EXPORT_PAGE = 1_000

/**
 * The list as CSV, one page of rows at a time by keyset (never the whole list in memory, never one
 * long statement), the event loop getting a turn between pages. Formula-looking cells are defused.
 */
export function exportSubscribersCsv(db: Db, status: SubscriberStatus | null, segment?: SubscriberSegment): ReadableStream<Uint8Array> {
	const inSegment = segment ? segmentConditions(segment) : []
	const encoder = new TextEncoder()
	let after = ''
	let started = false
	return new ReadableStream({
		async pull(controller) {
			if (!started) {
				started = true
				// A BOM, so that spreadsheet software reads the accents right.
				controller.enqueue(
					encoder.encode('\uFEFFemail,statut,source,origine_du_consentement,date_du_consentement,version_politique,inscrit_le,ville\r\n'),
				)
			} else await nextSlice()
			const rows = await db
				.select()
				.from(newsletterSubscriber)
				.where(
					and(sql`${newsletterSubscriber.email} > ${after}`, status ? eq(newsletterSubscriber.status, status) : undefined, ...inSegment),
				)
				.orderBy(asc(newsletterSubscriber.email))
				.limit(EXPORT_PAGE)
			if (rows.length === 0) return controller.close()
			after = rows.at(-1)!.email
			const lines = rows.map((r) =>
				[
					r.email,
					r.status,
					r.source,
					r.consentNote ?? '',
					r.consentAt?.toISOString() ?? '',
					r.policyVersion ?? '',
					r.createdAt.toISOString(),
					r.townLabel ?? '',
				]
					.map(csvCell)
					.join(','),
			)
			controller.enqueue(encoder.encode(lines.join('\r\n') + '\r\n'))
		},
	})
}

/** Imports a day old go (a preview never confirmed, or the record of one written); one still being written stays. */
async function purgeImports(db: Db) {
	await db
		.delete(newsletterImport)
		.where(
			and(lt(newsletterImport.createdAt, new Date(Date.now() - 24 * 3600_000)), notInArray(newsletterImport.status, ['queued', 'running'])),
		)
}

export interface ImportRejection {
	line: number
	value: string
	reason: string
}

export interface ImportPreview {
	id: string
	valid: number
	duplicates: number
	alreadyListed: number
	rejected: ImportRejection[]
	rejectedCount: number
	sample: string[]
	consentNote: string
}

const isEmail = z.email()
/** Lines read between two turns of the event loop, and addresses looked up per statement. */
const PARSE_SLICE = 2_000
const LOOKUP_SLICE = 1_000

/** Reads the file as UTF-8, or as Windows-1252 when it is not valid UTF-8 (a spreadsheet's export). */
function decode(bytes: Uint8Array): string {
	try {
		return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '')
	} catch {
		return new TextDecoder('windows-1252').decode(bytes)
	}
}

/** Which separator the file uses, from its first line: comma, semicolon (French spreadsheets) or tab. */
function guessDelimiter(text: string): string {
	const first = text.slice(0, text.search(/\r?\n|$/))
	const counts = [',', ';', '\t'].map((d) => [d, first.split(d).length] as const)
	return counts.sort((a, b) => b[1] - a[1])[0]![0]
}

/**
 * Parses an uploaded CSV: the column named like « email » / « e-mail » / « courriel » (or the first
 * one), any separator, UTF-8 or Windows-1252. Keeps the valid, new addresses aside for the
 * confirmation and reports each rejected line with its reason.
 */
export async function previewImport(
	db: Db,
	input: { bytes: Uint8Array; consentNote: string; createdBy: string },
): Promise<ImportPreview | { error: string }> {
	const text = decode(input.bytes)
	if (!text.trim()) return { error: 'Le fichier est vide.' }
	const records = csvRecordsInSlices(text, {
		delimiter: guessDelimiter(text),
		relax_column_count: true,
		skip_empty_lines: true,
		trim: true,
		bom: true,
	})
	const seen = new Set<string>()
	const rejected: ImportRejection[] = []
	let rejectedCount = 0
	let duplicates = 0
	let column = -1
	let line = 0
	const reject = (value: string, reason: string) => {
		rejectedCount++
		if (rejected.length < 200) rejected.push({ line, value: value.slice(0, 120), reason })
	}
	try {
		for await (const record of records) {
			line++
			if (line % PARSE_SLICE === 0) await nextSlice()
			if (line > IMPORT_MAX_LINES + 1)
				return { error: `Le fichier dépasse ${IMPORT_MAX_LINES.toLocaleString('fr-FR')} lignes : découpez-le.` }
			if (column === -1) {
				const header = record.findIndex((cell) => /^(e-?mail|courriel|adresse( e-?mail)?|email address)$/i.test(cell.trim()))
				if (header >= 0) {
					column = header
					continue
				}
				column = 0
			}
			const raw = (record[column] ?? '').trim()
			const email = raw.toLowerCase()
			if (!email) reject(raw, 'adresse manquante')
			else if (email.length > EMAIL_MAX || !isEmail.safeParse(email).success) reject(raw, 'adresse e-mail invalide')
			else if (seen.has(email)) duplicates++
			else seen.add(email)
		}
	} catch (error) {
		return { error: `Le fichier n’a pas pu être lu comme un CSV (ligne ${line + 1}) : ${(error as Error).message.slice(0, 120)}` }
	}
	// Addresses already on the list keep their status (an unsubscribed person stays unsubscribed).
	const emails = [...seen]
	let alreadyListed = 0
	for (let i = 0; i < emails.length; i += LOOKUP_SLICE) {
		await nextSlice()
		const chunk = emails.slice(i, i + LOOKUP_SLICE)
		const known = await db
			.select({ email: newsletterSubscriber.email })
			.from(newsletterSubscriber)
			.where(inArray(newsletterSubscriber.email, chunk))
		alreadyListed += known.length
		for (const { email } of known) seen.delete(email)
	}
	const fresh = [...seen]
	const id = randomUUID()
	await purgeImports(db)
	await db
		.insert(newsletterImport)
		.values({ id, createdBy: input.createdBy, consentNote: input.consentNote, addresses: fresh.join('\n'), total: fresh.length })
	return {
		id,
		valid: fresh.length,
		duplicates,
		alreadyListed,
		rejected,
		rejectedCount,
		sample: fresh.slice(0, 8),
		consentNote: input.consentNote,
	}
}
