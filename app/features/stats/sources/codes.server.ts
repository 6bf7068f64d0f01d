import { codeTotals } from '#app/features/codes/counts.server.ts'
import { dailyAttempts, dailyRedemptions } from '#app/features/codes/stats.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { rangeBounds } from './sql.server.ts'
import { dailyValues, sum, type StatsSource } from './types.ts'

const ACCEPTED = new Set(['granted', 'reserved', 'already'])

/** Codes: redemptions per day (all campaigns) and per campaign, and codes generated so far. */
export const codesSource: StatsSource = {
	id: 'codes',
	async load(db, range) {
		const t = getT()
		const bounds = rangeBounds(range)
		// Codes are counted as the campaigns screen counts them (a revoked batch's codes are revoked).
		const [campaigns, attempts, totals] = await Promise.all([dailyRedemptions(db, bounds), dailyAttempts(db, bounds), codeTotals(db)])
		const daily = dailyValues(
			range,
			sumByDay(campaigns.flatMap((campaign) => campaign.days.map((entry) => ({ day: entry.day, n: entry.count })))),
		)
		// Attempts that unlocked nothing (unknown, expired, used up, too many…): how much guessing the site sees.
		const refused = dailyValues(
			range,
			sumByDay(attempts.filter((row) => !ACCEPTED.has(row.outcome)).map((row) => ({ day: row.day, n: row.count }))),
		)
		return {
			id: 'codes',
			title: t('stats.codes.title'),
			series: [
				{ key: 'codes.redeemed', label: t('stats.codes.redeemed'), total: sum(daily), daily },
				{ key: 'codes.refused', label: t('stats.codes.refused'), total: sum(refused), daily: refused },
			],
			figures: [
				{ key: 'codes.generated', label: t('stats.codes.generated'), value: totals.generated },
				{ key: 'codes.revoked', label: t('stats.codes.revoked'), value: totals.revoked },
			],
			rankings: [
				{
					key: 'codes.byCampaign',
					label: t('stats.codes.byCampaign'),
					unit: t('stats.codes.unit'),
					rows: campaigns.map((campaign) => ({
						label: campaign.campaignName,
						value: campaign.total,
						href: `/dashboard/admin/codes/${campaign.campaignId}`,
					})),
					empty: t('stats.codes.none'),
				},
			],
		}
	},
}

/** One row per day, its counts added up (the queries give one row per day and campaign, or outcome). */
function sumByDay(rows: { day: string; n: number }[]): { day: string; n: number }[] {
	const byDay = new Map<string, number>()
	for (const row of rows) byDay.set(row.day, (byDay.get(row.day) ?? 0) + row.n)
	return [...byDay].map(([day, n]) => ({ day, n }))
}
