import { and, eq, gte, isNotNull, lt, sql } from 'drizzle-orm'
import type { Db } from '#app/platform/db/client.server.ts'
import { newsletterDelivery, newsletterSubscriber } from '#app/platform/db/schema.ts'
import { sqlParisDate, sqlParisDay, sqlParisMidnight } from '#app/platform/time-zone.ts'
import { regionsOfTowns } from '#app/features/towns/towns.server.ts'

/*
 * Figures for the admin's stats screen: subscribers by status over time, and sends and failures per
 * day. Days are Paris days, written YYYY-MM-DD.
 */

export interface SubscriberDay {
	day: string
	/** Subscribers counted at the end of that day, by what they were then. */
	active: number
	pending: number
	unsubscribed: number
	bounced: number
}

/**
 * For each day of [from, to): how many addresses were active, pending, unsubscribed or bounced at its
 * end, rebuilt from each row's dates (addresses deleted since are no longer counted).
 */
export async function subscribersByStatusOverTime(db: Db, from: Date, to: Date): Promise<SubscriberDay[]> {
	const result = await db.execute(sql`
		with days as (
			select d::date as day, ${sqlParisMidnight(sql`(d::date + 1)`)} as day_end
			from generate_series(${sqlParisDate(sql`${from.toISOString()}::timestamptz`)},
				${sqlParisDate(sql`(${to.toISOString()}::timestamptz - interval '1 microsecond')`)}, interval '1 day') as d
		)
		select to_char(days.day, 'YYYY-MM-DD') as day,
			count(s.id) filter (where s.bounced_at is not null and s.bounced_at < days.day_end)::int as bounced,
			count(s.id) filter (where (s.bounced_at is null or s.bounced_at >= days.day_end)
				and s.unsubscribed_at is not null and s.unsubscribed_at < days.day_end)::int as unsubscribed,
			count(s.id) filter (where (s.bounced_at is null or s.bounced_at >= days.day_end)
				and (s.unsubscribed_at is null or s.unsubscribed_at >= days.day_end)
				and s.consent_at is not null and s.consent_at < days.day_end)::int as active,
			count(s.id) filter (where (s.consent_at is null or s.consent_at >= days.day_end)
				and (s.unsubscribed_at is null or s.unsubscribed_at >= days.day_end)
				and (s.bounced_at is null or s.bounced_at >= days.day_end))::int as pending
		from days left join ${newsletterSubscriber} s on s.created_at < days.day_end
		group by days.day order by days.day`)
	// Both drivers (PGlite, node-postgres) answer raw SQL with { rows }.
	const { rows } = result as unknown as { rows: Omit<SubscriberDay, never>[] }
	return rows.map((row) => ({
		day: row.day,
		active: Number(row.active),
		pending: Number(row.pending),
		unsubscribed: Number(row.unsubscribed),
		bounced: Number(row.bounced),
	}))
}

export interface SendDay {
	day: string
	sent: number
	/** Given up after retries, or refused for good (bounced). */
	failed: number
}

/** Newsletter mails sent and failed per day of [from, to) (days without any are left out). */
export async function sendsPerDay(db: Db, from: Date, to: Date): Promise<SendDay[]> {
	const at = sql`coalesce(${newsletterDelivery.sentAt}, ${newsletterDelivery.createdAt})`
	const rows = await db
		.select({
			day: sqlParisDay(at),
			sent: sql<number>`count(*) filter (where ${newsletterDelivery.status} = 'sent')::int`,
			failed: sql<number>`count(*) filter (where ${newsletterDelivery.status} in ('failed', 'bounced'))::int`,
		})
		.from(newsletterDelivery)
		.where(and(gte(at, from), lt(at, to), isNotNull(newsletterDelivery.status)))
		.groupBy(sqlParisDay(at))
		.orderBy(sqlParisDay(at))
	return rows.map((row) => ({ day: row.day, sent: Number(row.sent), failed: Number(row.failed) }))
}

/**
 * Active subscribers by region now (features/towns: a French region, else a country), the most
 * numerous first, and how many gave no town. Grouped by town in SQL, then by region here: the
 * distinct towns are far fewer than the subscribers.
 */
export async function subscribersByRegion(db: Db): Promise<{ regions: { label: string; value: number }[]; withoutTown: number }> {
	const rows = await db
		.select({ townId: newsletterSubscriber.townId, n: sql<number>`count(*)::int` })
		.from(newsletterSubscriber)
		.where(eq(newsletterSubscriber.status, 'active'))
		.groupBy(newsletterSubscriber.townId)
	const regionOf = regionsOfTowns(rows.flatMap((row) => (row.townId === null ? [] : [row.townId])))
	const regions = new Map<string, number>()
	let withoutTown = 0
	for (const row of rows) {
		const region = row.townId === null ? null : (regionOf.get(row.townId) ?? null)
		if (region === null) withoutTown += Number(row.n)
		else regions.set(region, (regions.get(region) ?? 0) + Number(row.n))
	}
	return {
		regions: [...regions]
			.map(([label, value]) => ({ label, value }))
			.sort((a, b) => b.value - a.value || a.label.localeCompare(b.label, 'fr')),
		withoutTown,
	}
}
