import { count, inArray, eq } from 'drizzle-orm'
import { contactMessage } from '#app/platform/db/schema.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { parisDayOf, withinRange } from './sql.server.ts'
import { dailyValues, sum, type StatsSource } from './types.ts'

/** Contact: messages received per day, and what waits for an answer. */
export const contactSource: StatsSource = {
	id: 'contact',
	async load(db, range) {
		const t = getT()
		const day = parisDayOf(contactMessage.createdAt)
		const [rows, [unread], [open]] = await Promise.all([
			db.select({ day, n: count() }).from(contactMessage).where(withinRange(contactMessage.createdAt, range)).groupBy(day),
			db.select({ n: count() }).from(contactMessage).where(eq(contactMessage.status, 'unread')),
			db
				.select({ n: count() })
				.from(contactMessage)
				.where(inArray(contactMessage.status, ['unread', 'read'])),
		])
		const daily = dailyValues(range, rows)
		return {
			id: 'contact',
			title: t('stats.contact.title'),
			series: [{ key: 'contact.received', label: t('stats.contact.received'), total: sum(daily), daily }],
			figures: [
				{ key: 'contact.unread', label: t('stats.contact.unread'), value: unread?.n ?? 0 },
				{ key: 'contact.open', label: t('stats.contact.open'), value: open?.n ?? 0 },
			],
			rankings: [],
		}
	},
}
