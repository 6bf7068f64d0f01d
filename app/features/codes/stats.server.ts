import { and, eq, gte, lt, sql } from 'drizzle-orm'
import type { Db } from '#app/platform/db/client.server.ts'
import { codeAttempt, codeCampaign, codeRedemption } from '#app/platform/db/schema.ts'
import { sqlParisDay } from '#app/platform/time-zone.ts'

/*
 * For the stats screen: redemptions per campaign and day (Paris days), and attempts per
 * outcome and day. `from` is included, `to` excluded.
 */

export interface DailyRedemptions {
	campaignId: string
	campaignName: string
	/** `YYYY-MM-DD` in Paris → codes granted that day. */
	days: { day: string; count: number }[]
	total: number
}

export async function dailyRedemptions(db: Db, range: { from: Date; to: Date }): Promise<DailyRedemptions[]> {
	const day = sqlParisDay(codeRedemption.grantedAt)
	const rows = await db
		.select({ campaignId: codeRedemption.campaignId, campaignName: codeCampaign.name, day, count: sql<number>`count(*)::int` })
		.from(codeRedemption)
		.innerJoin(codeCampaign, eq(codeCampaign.id, codeRedemption.campaignId))
		.where(and(eq(codeRedemption.status, 'granted'), gte(codeRedemption.grantedAt, range.from), lt(codeRedemption.grantedAt, range.to)))
		.groupBy(codeRedemption.campaignId, codeCampaign.name, day)
		.orderBy(day)
	const byCampaign = new Map<string, DailyRedemptions>()
	for (const row of rows) {
		let entry = byCampaign.get(row.campaignId)
		if (!entry) byCampaign.set(row.campaignId, (entry = { campaignId: row.campaignId, campaignName: row.campaignName, days: [], total: 0 }))
		entry.days.push({ day: row.day, count: Number(row.count) })
		entry.total += Number(row.count)
	}
	return [...byCampaign.values()].sort((a, b) => b.total - a.total)
}

/** Attempts per day and outcome (granted, unknown, limited…): how much guessing the site sees. */
export async function dailyAttempts(db: Db, range: { from: Date; to: Date }) {
	const day = sqlParisDay(codeAttempt.at)
	const rows = await db
		.select({ day, outcome: codeAttempt.outcome, count: sql<number>`count(*)::int` })
		.from(codeAttempt)
		.where(and(gte(codeAttempt.at, range.from), lt(codeAttempt.at, range.to)))
		.groupBy(day, codeAttempt.outcome)
		.orderBy(day)
	return rows.map((row) => ({ ...row, count: Number(row.count) }))
}
