import { and, between, desc, eq, like, sql } from 'drizzle-orm'
import { countEvents } from '#app/features/events/events.server.ts'
import { event, pageViewDaily } from '#app/platform/db/schema.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { formatShortDay } from '#app/platform/time-zone.ts'
import { TOP_ROWS } from './audience.server.ts'
import { dailyValues, sum, type StatsSource } from './types.ts'

/** Events: views of the event pages per day, the most viewed events, and how many shows are announced. */
export const eventsSource: StatsSource = {
	id: 'events',
	async load(db, range) {
		const t = getT()
		const eventPages = and(between(pageViewDaily.day, range.from, range.to), like(pageViewDaily.path, '/events/%'))
		const views = sql<number>`sum(${pageViewDaily.views})::int`
		const [perDay, top, totals] = await Promise.all([
			db.select({ day: pageViewDaily.day, n: views }).from(pageViewDaily).where(eventPages).groupBy(pageViewDaily.day),
			db
				.select({ id: event.id, title: event.title, startsAt: event.startsAt, value: views })
				.from(pageViewDaily)
				.innerJoin(event, eq(pageViewDaily.path, sql`'/events/' || ${event.id}`))
				.where(eventPages)
				.groupBy(event.id, event.title, event.startsAt)
				.orderBy(desc(views), event.startsAt)
				.limit(TOP_ROWS),
			// Upcoming as the events screens count them: published, and not over yet (a show playing now counts).
			countEvents(db),
		])
		const daily = dailyValues(range, perDay)
		return {
			id: 'events',
			title: t('stats.events.title'),
			series: [{ key: 'events.views', label: t('stats.events.pageViews'), total: sum(daily), daily }],
			figures: [{ key: 'events.upcoming', label: t('stats.events.upcoming'), value: totals.upcoming }],
			rankings: [
				{
					key: 'events.top',
					label: t('stats.events.top'),
					unit: t('stats.audience.views'),
					rows: top.map((row) => ({
						label: `${row.title} (${formatShortDay(row.startsAt)})`,
						value: row.value,
						href: `/events/${row.id}`,
					})),
					empty: t('stats.events.noViews'),
				},
			],
		}
	},
}
