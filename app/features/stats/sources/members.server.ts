import { count, eq, sql } from 'drizzle-orm'
import { user } from '#app/platform/db/schema.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { sqlParisDay } from '#app/platform/time-zone.ts'
import { withinRange } from './sql.server.ts'
import { dailyValues, sum, type StatsSource } from './types.ts'

/** Members: sign-ups per day, and who has an account now. */
export const membersSource: StatsSource = {
	id: 'members',
	async load(db, range) {
		const t = getT()
		const day = sqlParisDay(user.createdAt)
		const [rows, [total], [verified], [admins]] = await Promise.all([
			db.select({ day, n: count() }).from(user).where(withinRange(user.createdAt, range)).groupBy(day),
			db.select({ n: count() }).from(user),
			db.select({ n: count() }).from(user).where(eq(user.emailVerified, true)),
			db
				.select({ n: count() })
				.from(user)
				.where(sql`${user.role} = 'admin'`),
		])
		const daily = dailyValues(range, rows)
		return {
			id: 'members',
			title: t('stats.members.title'),
			series: [{ key: 'members.signups', label: t('stats.members.signups'), total: sum(daily), daily }],
			figures: [
				{ key: 'members.total', label: t('stats.members.total'), value: total?.n ?? 0 },
				{ key: 'members.verified', label: t('stats.members.verified'), value: verified?.n ?? 0 },
				{ key: 'members.admins', label: t('stats.members.admins'), value: admins?.n ?? 0 },
			],
			rankings: [],
		}
	},
}
