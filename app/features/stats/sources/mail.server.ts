import { and, count, eq } from 'drizzle-orm'
import { outboxMail } from '#app/platform/db/schema.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { sqlParisDay } from '#app/platform/time-zone.ts'
import { withinRange } from './sql.server.ts'
import { dailyValues, sum, type StatsSource } from './types.ts'

/** E-mail: every mail the site sent (accounts, contact…) and the ones that failed for good, per day. */
export const mailSource: StatsSource = {
	id: 'mail',
	async load(db, range) {
		const t = getT()
		const sentDay = sqlParisDay(outboxMail.sentAt)
		const failedDay = sqlParisDay(outboxMail.updatedAt)
		const [sent, failed, [queued]] = await Promise.all([
			db
				.select({ day: sentDay, n: count() })
				.from(outboxMail)
				.where(and(eq(outboxMail.status, 'sent'), withinRange(outboxMail.sentAt, range)))
				.groupBy(sentDay),
			db
				.select({ day: failedDay, n: count() })
				.from(outboxMail)
				.where(and(eq(outboxMail.status, 'failed'), withinRange(outboxMail.updatedAt, range)))
				.groupBy(failedDay),
			db.select({ n: count() }).from(outboxMail).where(eq(outboxMail.status, 'queued')),
		])
		const sentDaily = dailyValues(range, sent)
		const failedDaily = dailyValues(range, failed)
		return {
			id: 'mail',
			title: t('stats.mail.title'),
			series: [
				{ key: 'mail.sent', label: t('stats.mail.sent'), total: sum(sentDaily), daily: sentDaily },
				{ key: 'mail.failed', label: t('stats.mail.failed'), total: sum(failedDaily), daily: failedDaily },
			],
			figures: [{ key: 'mail.queued', label: t('stats.mail.queued'), value: queued?.n ?? 0 }],
			rankings: [],
		}
	},
}
