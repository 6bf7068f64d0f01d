import { randomUUID } from 'node:crypto'
import { and, asc, count, desc, eq, ilike, inArray, lt, notInArray, sql, type SQL } from 'drizzle-orm'
import { z } from 'zod'
import type { Db } from '#app/platform/db/client.server.ts'
import { newsletterImport, newsletterSubscriber, SUBSCRIBER_STATUSES, type SubscriberStatus } from '#app/platform/db/schema.ts'
import { EMAIL_MAX } from '#app/features/accounts/forms.ts'
import { IMPORT_MAX_LINES, POLICY_VERSION } from './rules.ts'
import { csvErrorLine, csvRecords, readCsv } from '#app/platform/csv-in.server.ts'
import { csvStream } from '#app/platform/csv-out.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { segmentConditions, type SubscriberSegment } from './segment.server.ts'
import { nextSlice } from '#app/platform/work-slices.server.ts'
import { normaliseEmail, requestSubscription, type NewsletterContext } from './subscribers.server.tsx'
import { newSecret } from '#app/platform/random-token.server.ts'

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
			unsubscribeToken: newSecret(),
		})
		.onConflictDoNothing({ target: newsletterSubscriber.email })
		.returning({ id: newsletterSubscriber.id })
	return rows.length > 0
}

export async function deleteSubscriberById(db: Db, id: string) {
	const rows = await db.delete(newsletterSubscriber).where(eq(newsletterSubscriber.id, id)).returning({ id: newsletterSubscriber.id })
	return rows.length > 0
}

/** Rows per page of the export: one short statement (well under 100 ms on the embedded database). */
const EXPORT_PAGE = 1_000

const EXPORT_HEADER = [
	'email',
	'statut',
	'source',
	'origine_du_consentement',
	'date_du_consentement',
	'version_politique',
	'inscrit_le',
	'ville',
]

/**
 * The list as CSV, one page of rows at a time by keyset (never the whole list in memory, never one
 * long statement), through the site's one CSV writer (app/platform/csv-out.server.ts).
 */
export function exportSubscribersCsv(db: Db, status: SubscriberStatus | null, segment?: SubscriberSegment): ReadableStream<Uint8Array> {
	const inSegment = segment ? segmentConditions(segment) : []
	async function* pages() {
		let after = ''
		while (true) {
			const rows = await db
				.select()
				.from(newsletterSubscriber)
				.where(
					and(sql`${newsletterSubscriber.email} > ${after}`, status ? eq(newsletterSubscriber.status, status) : undefined, ...inSegment),
				)
				.orderBy(asc(newsletterSubscriber.email))
				.limit(EXPORT_PAGE)
			if (rows.length === 0) return
			after = rows.at(-1)!.email
			yield rows.map((r) => [
				r.email,
				r.status,
				r.source,
				r.consentNote,
				r.consentAt?.toISOString(),
				r.policyVersion,
				r.createdAt.toISOString(),
				r.townLabel,
			])
		}
	}
	return csvStream(EXPORT_HEADER, pages(), ',')
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

/**
 * Parses an uploaded CSV: the column named like « email » / « e-mail » / « courriel » (or the first
 * one), read by the site's one CSV reader (app/platform/csv-in.server.ts). Keeps the valid, new addresses aside for the
 * confirmation and reports each rejected line with its reason.
 */
export async function previewImport(
	db: Db,
	input: { bytes: Uint8Array; consentNote: string; createdBy: string },
): Promise<ImportPreview | { error: string }> {
	const t = getT()
	const file = readCsv(input.bytes)
	if (!file) return { error: t('admin.csv.encoding') }
	if (!file.text.trim()) return { error: t('admin.csv.empty') }
	const records = csvRecords(file)
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
				return { error: t('newsletter.admin.import.errors.tooManyLines', { max: IMPORT_MAX_LINES.toLocaleString('fr-FR') }) }
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
			if (!email) reject(raw, t('newsletter.admin.import.errors.missing'))
			else if (email.length > EMAIL_MAX || !isEmail.safeParse(email).success) reject(raw, t('newsletter.admin.import.errors.invalid'))
			else if (seen.has(email)) duplicates++
			else seen.add(email)
		}
	} catch (error) {
		return { error: t('admin.csv.malformed', { line: csvErrorLine(error) || line + 1 }) }
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
