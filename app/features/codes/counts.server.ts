import { eq, sql } from 'drizzle-orm'
import type { Db } from '#app/platform/db/client.server.ts'
import { code, codeBatch } from '#app/platform/db/schema.ts'

/*
 * How codes are counted, in one place: the campaigns screen (per campaign) and the stats screen
 * (all campaigns) read the same numbers. A code is revoked when it was revoked alone or when its
 * batch was: revoking a batch marks the batch, and its codes count as revoked from that moment.
 * Redeemed: used at least once (a use is granted, or reserved for a visitor who is signing up).
 */
const revoked = sql`(${code.revokedAt} is not null or ${codeBatch.revokedAt} is not null)`

export interface CodeCounts {
	generated: number
	redeemed: number
	revoked: number
}

/** Each campaign's codes: generated, redeemed, revoked (campaigns without codes are absent). */
export async function codeCountsByCampaign(db: Db): Promise<Map<string, CodeCounts>> {
	const rows = await db
		.select({
			campaignId: code.campaignId,
			generated: sql<number>`count(*)::int`,
			redeemed: sql<number>`(count(*) filter (where ${code.uses} > 0))::int`,
			revoked: sql<number>`(count(*) filter (where ${revoked}))::int`,
		})
		.from(code)
		.innerJoin(codeBatch, eq(codeBatch.id, code.batchId))
		.groupBy(code.campaignId)
	return new Map(
		rows.map((row) => [row.campaignId, { generated: Number(row.generated), redeemed: Number(row.redeemed), revoked: Number(row.revoked) }]),
	)
}

/** Every campaign's codes added up: what the stats screen shows. */
export async function codeTotals(db: Db): Promise<CodeCounts> {
	const totals: CodeCounts = { generated: 0, redeemed: 0, revoked: 0 }
	for (const counts of (await codeCountsByCampaign(db)).values()) {
		totals.generated += counts.generated
		totals.redeemed += counts.redeemed
		totals.revoked += counts.revoked
	}
	return totals
}
