import { count, desc, eq, gte } from 'drizzle-orm'
import type { Db } from '#app/platform/db/client.server.ts'
import { user } from '#app/platform/db/schema.ts'

export interface MemberSummary {
	total: number
	admins: number
	verified: number
	lastWeek: number
	latest: { name: string; createdAt: string }[]
}

/** Who has an account: totals and the latest sign-ups (names only, no e-mail). */
export async function memberSummary(db: Db, now = new Date()): Promise<MemberSummary> {
	const weekAgo = new Date(now.getTime() - 7 * 24 * 3600 * 1000)
	const [[total], [admins], [verified], [lastWeek], latest] = await Promise.all([
		db.select({ n: count() }).from(user),
		db.select({ n: count() }).from(user).where(eq(user.role, 'admin')),
		db.select({ n: count() }).from(user).where(eq(user.emailVerified, true)),
		db.select({ n: count() }).from(user).where(gte(user.createdAt, weekAgo)),
		db.select({ name: user.name, createdAt: user.createdAt }).from(user).orderBy(desc(user.createdAt)).limit(5),
	])
	return {
		total: total?.n ?? 0,
		admins: admins?.n ?? 0,
		verified: verified?.n ?? 0,
		lastWeek: lastWeek?.n ?? 0,
		latest: latest.map((row) => ({ name: row.name, createdAt: row.createdAt.toISOString() })),
	}
}
