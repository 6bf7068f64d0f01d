import { and, asc, count, eq, isNull } from 'drizzle-orm'
import type { Db } from '#app/platform/db/client.server.ts'
import { code, codeBatch, codeCampaign } from '#app/platform/db/schema.ts'
import { formatCode } from './code-format.ts'
import { qrModules } from './qr-code.server.ts'
import type { QrModules } from './qr-path.ts'
import { CARDS_PER_PAGE } from './rules.ts'

export interface PrintCard {
	/** As printed: `ABCD-EFGH-JKMN`. */
	code: string
	/** What the QR code holds: `<SITE_URL>/redeem?code=ABCD-EFGH-JKMN`. */
	url: string
	/** The QR code's modules, made on the server from our own URL (qr-path.ts draws them). */
	qr: QrModules
}

/** Cards encoded between two pauses, so that a page of 500 never holds the event loop for long. */
const ENCODE_SLICE = 50

/**
 * One page of a batch's print sheet: up to CARDS_PER_PAGE of its codes that can still be used (a
 * revoked code, or every code of a revoked batch, is not printed), in code order, each with its QR
 * code; and how many pages the batch's printable codes fill.
 */
export async function printPage(db: Db, batchId: string, page: number, siteUrl: string) {
	const [batch] = await db
		.select({
			id: codeBatch.id,
			campaignId: codeBatch.campaignId,
			label: codeBatch.label,
			campaign: codeCampaign.name,
			status: codeBatch.status,
			revokedAt: codeBatch.revokedAt,
		})
		.from(codeBatch)
		.innerJoin(codeCampaign, eq(codeCampaign.id, codeBatch.campaignId))
		.where(eq(codeBatch.id, batchId))
	if (!batch) return null
	const printable = and(eq(code.batchId, batchId), isNull(code.revokedAt))
	const [{ n: total } = { n: 0 }] = batch.revokedAt ? [] : await db.select({ n: count() }).from(code).where(printable)
	const pages = Math.max(1, Math.ceil(total / CARDS_PER_PAGE))
	const current = Math.min(page, pages)
	const rows = batch.revokedAt
		? []
		: await db
				.select({ code: code.code })
				.from(code)
				.where(printable)
				.orderBy(asc(code.code))
				.limit(CARDS_PER_PAGE)
				.offset((current - 1) * CARDS_PER_PAGE)
	const base = siteUrl.replace(/\/+$/, '')
	const cards: PrintCard[] = []
	for (const [index, row] of rows.entries()) {
		if (index > 0 && index % ENCODE_SLICE === 0) await new Promise((resolve) => setImmediate(resolve))
		const printed = formatCode(row.code)
		const url = `${base}/redeem?code=${printed}`
		cards.push({ code: printed, url, qr: qrModules(url) })
	}
	return { batch, cards, total, page: current, pages, redeemHost: base.replace(/^https?:\/\//, '') }
}
