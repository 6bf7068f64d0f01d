import { and, eq, lt, sql } from 'drizzle-orm'
import type { Db } from '#app/platform/db/client.server.ts'
import { code, codeRedemption } from '#app/platform/db/schema.ts'

/*
 * Expired reservations, on their own: the batch job and the purge reach this through plain Node
 * (bench/codes.ts), so nothing here may lead to the platform and from there to the mails' React.
 */

export type Executor = Parameters<Parameters<Db['transaction']>[0]>[0]

/** Gives back the uses held by reservations past their time (for one code, or all). */
export async function releaseExpiredReservations(db: Db | Executor, options: { code?: string; now?: Date } = {}): Promise<number> {
	const now = options.now ?? new Date()
	return db.transaction(async (tx) => {
		const released = await tx
			.delete(codeRedemption)
			.where(
				and(
					eq(codeRedemption.status, 'reserved'),
					lt(codeRedemption.reservedUntil, now),
					options.code ? eq(codeRedemption.code, options.code) : undefined,
				),
			)
			.returning({ code: codeRedemption.code })
		const perCode = new Map<string, number>()
		for (const row of released) perCode.set(row.code, (perCode.get(row.code) ?? 0) + 1)
		for (const [value, count] of perCode) {
			await tx
				.update(code)
				.set({ uses: sql`greatest(${code.uses} - ${count}, 0)` })
				.where(eq(code.code, value))
		}
		return released.length
	})
}
