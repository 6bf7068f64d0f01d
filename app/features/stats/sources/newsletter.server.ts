import { sendsPerDay, subscribersByRegion, subscribersByStatusOverTime } from '#app/features/newsletter/stats.server.ts'
import { countByStatus } from '#app/features/newsletter/subscribers.server.tsx'
import { getT } from '#app/platform/i18n.server.ts'
import { rangeBounds } from './sql.server.ts'
import { dailyValues, sum, type StatsSource } from './types.ts'

/** The newsletter: subscribers by status now and active ones day by day; mails sent and failed per day. */
export const newsletterSource: StatsSource = {
	id: 'newsletter',
	async load(db, range) {
		const t = getT()
		const bounds = rangeBounds(range)
		// Subscribers by status as the newsletter screen counts them.
		const [byDay, sends, statuses, byRegion] = await Promise.all([
			subscribersByStatusOverTime(db, bounds.from, bounds.to),
			sendsPerDay(db, bounds.from, bounds.to),
			countByStatus(db),
			subscribersByRegion(db),
		])
		const now = (status: keyof typeof statuses) => statuses[status]
		const active = dailyValues(
			range,
			byDay.map((day) => ({ day: day.day, n: day.active })),
		)
		const sent = dailyValues(
			range,
			sends.map((day) => ({ day: day.day, n: day.sent })),
		)
		const failed = dailyValues(
			range,
			sends.map((day) => ({ day: day.day, n: day.failed })),
		)
		return {
			id: 'newsletter',
			title: t('stats.newsletter.title'),
			series: [
				{ key: 'newsletter.sent', label: t('stats.newsletter.sent'), total: sum(sent), daily: sent },
				{ key: 'newsletter.failed', label: t('stats.newsletter.failed'), total: sum(failed), daily: failed },
			],
			figures: [
				{ key: 'newsletter.active', label: t('stats.newsletter.active'), value: now('active') },
				{ key: 'newsletter.pending', label: t('stats.newsletter.pending'), value: now('pending') },
				{ key: 'newsletter.unsubscribed', label: t('stats.newsletter.unsubscribed'), value: now('unsubscribed') },
				{ key: 'newsletter.bounced', label: t('stats.newsletter.bounced'), value: now('bounced') },
				{ key: 'newsletter.activeAtEnd', label: t('stats.newsletter.activeAtEnd'), value: active.at(-1) ?? 0 },
			],
			rankings: [
				{
					key: 'newsletter.regions',
					label: t('stats.newsletter.regions'),
					unit: t('stats.newsletter.regionsUnit'),
					rows: [
						...byRegion.regions,
						...(byRegion.withoutTown > 0 ? [{ label: t('stats.newsletter.withoutTown'), value: byRegion.withoutTown }] : []),
					],
					empty: t('stats.newsletter.regionsEmpty'),
				},
			],
		}
	},
}
