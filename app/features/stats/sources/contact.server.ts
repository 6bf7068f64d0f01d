import { count } from 'drizzle-orm'
import { countMessages } from '#app/features/contact/contact.server.ts'
import { contactMessage } from '#app/platform/db/schema.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { sqlParisDay } from '#app/platform/time-zone.ts'
import { withinRange } from './sql.server.ts'
import { dailyValues, sum, type StatsSource } from './types.ts'

/** Contact: messages received per day, and what waits for an answer. */
export const contactSource: StatsSource = {
	id: 'contact',
	async load(db, range) {
		const t = getT()
		const day = sqlParisDay(contactMessage.createdAt)
		const [rows, counts] = await Promise.all([
			db.select({ day, n: count() }).from(contactMessage).where(withinRange(contactMessage.createdAt, range)).groupBy(day),
			countMessages(db),
		])
		const daily = dailyValues(range, rows)
		return {
			id: 'contact',
			title: t('stats.contact.title'),
			series: [{ key: 'contact.received', label: t('stats.contact.received'), total: sum(daily), daily }],
			figures: [
				{ key: 'contact.unread', label: t('stats.contact.unread'), value: counts.unread },
				{ key: 'contact.open', label: t('stats.contact.open'), value: counts.open },
			],
			rankings: [],
		}
	},
}
