import { and, asc, eq, isNull } from 'drizzle-orm'
import QRCode from 'qrcode'
import type { Db } from '#app/platform/db/client.server.ts'
import { code, codeBatch, codeCampaign } from '#app/platform/db/schema.ts'
import { formatCode } from './code-format.ts'
import { CARDS_PER_PAGE } from './rules.ts'

export interface PrintCard {
	code: string
	url: string
	/** An SVG of the QR code, made on the server from our own URL (no user input inside). */
	qrSvg: string
}

/** One page of a batch's print sheet: its codes (not revoked), each with its QR code. */
export async function printPage(db: Db, batchId: string, page: number, siteUrl: string) {
	const [batch] = await db
		.select({
			id: codeBatch.id,
			label: codeBatch.label,
			campaign: codeCampaign.name,
			total: codeBatch.created,
			revokedAt: codeBatch.revokedAt,
		})
		.from(codeBatch)
		.innerJoin(codeCampaign, eq(codeCampaign.id, codeBatch.campaignId))
		.where(eq(codeBatch.id, batchId))
	if (!batch) return null
	const rows = await db
		.select({ code: code.code })
		.from(code)
		.where(and(eq(code.batchId, batchId), isNull(code.revokedAt)))
		.orderBy(asc(code.code))
		.limit(CARDS_PER_PAGE)
		.offset((page - 1) * CARDS_PER_PAGE)
	const base = siteUrl.replace(/\/+$/, '')
	const cards: PrintCard[] = await Promise.all(
		rows.map(async (row) => {
			const printed = formatCode(row.code)
			const url = `${base}/redeem?code=${printed}`
			const qrSvg = await QRCode.toString(url, { type: 'svg', margin: 0, errorCorrectionLevel: 'M' })
			return { code: printed, url, qrSvg }
		}),
	)
	return { batch, cards, page, pages: Math.max(1, Math.ceil(batch.total / CARDS_PER_PAGE)), redeemHost: base.replace(/^https?:\/\//, '') }
}
