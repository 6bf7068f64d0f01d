import { and, between, desc, ne, sql } from 'drizzle-orm'
import { pageViewDaily } from '#app/platform/db/schema.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { OTHER_SOURCES } from '../page-views.server.ts'
import { dailyValues, sum, type StatsSource } from './types.ts'

export const TOP_ROWS = 10

/** Audience: page views of the public site per day, the most viewed pages, referring sites and UTM sources. */
export const audienceSource: StatsSource = {
	id: 'audience',
	async load(db, range) {
		const t = getT()
		const inRange = between(pageViewDaily.day, range.from, range.to)
		const views = sql<number>`sum(${pageViewDaily.views})::int`
		const [perDay, pages, referrers, sources] = await Promise.all([
			db.select({ day: pageViewDaily.day, n: views }).from(pageViewDaily).where(inRange).groupBy(pageViewDaily.day),
			db
				.select({ label: pageViewDaily.path, value: views })
				.from(pageViewDaily)
				.where(inRange)
				.groupBy(pageViewDaily.path)
				.orderBy(desc(views), pageViewDaily.path)
				.limit(TOP_ROWS),
			db
				.select({ label: pageViewDaily.referrer, value: views })
				.from(pageViewDaily)
				.where(and(inRange, ne(pageViewDaily.referrer, '')))
				.groupBy(pageViewDaily.referrer)
				.orderBy(desc(views), pageViewDaily.referrer)
				.limit(TOP_ROWS),
			db
				.select({ label: pageViewDaily.utmSource, value: views })
				.from(pageViewDaily)
				.where(and(inRange, ne(pageViewDaily.utmSource, '')))
				.groupBy(pageViewDaily.utmSource)
				.orderBy(desc(views), pageViewDaily.utmSource)
				.limit(TOP_ROWS),
		])
		const daily = dailyValues(range, perDay)
		// The day's less frequent sources are added up under one name (features/stats/page-views.server.ts).
		const named = (rows: { label: string; value: number }[]) =>
			rows.map((row) => (row.label === OTHER_SOURCES ? { ...row, label: t('stats.audience.otherSources') } : row))
		const unit = t('stats.audience.views')
		return {
			id: 'audience',
			title: t('stats.audience.title'),
			note: t('stats.audience.viewDefinition'),
			series: [{ key: 'audience.views', label: t('stats.audience.pageViews'), total: sum(daily), daily }],
			figures: [],
			rankings: [
				{
					key: 'audience.pages',
					label: t('stats.audience.topPages'),
					unit,
					rows: pages.map((row) => ({ ...row, href: row.label })),
					empty: t('stats.audience.noViews'),
				},
				{
					key: 'audience.referrers',
					label: t('stats.audience.topReferrers'),
					unit,
					rows: named(referrers),
					empty: t('stats.audience.noReferrers'),
				},
				{ key: 'audience.utm', label: t('stats.audience.topSources'), unit, rows: named(sources), empty: t('stats.audience.noSources') },
			],
		}
	},
}
