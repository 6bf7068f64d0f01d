import { sql, type SQL, type SQLWrapper } from 'drizzle-orm'
import { parisWallClockToInstant } from '#app/features/events/paris-time.ts'
import { addDays } from '../paris-day.ts'
import type { StatsRange } from '../range.ts'

/** The Paris day of a timestamp column, as YYYY-MM-DD. */
export function parisDayOf(column: SQLWrapper): SQL<string> {
	return sql<string>`to_char(${column} at time zone 'Europe/Paris', 'YYYY-MM-DD')`
}

/** The column falls within the range's Paris days (bounds computed once, so an index on it is used). */
export function withinRange(column: SQLWrapper, range: StatsRange): SQL {
	const end = addDays(range.to, 1)
	return sql`${column} >= (${range.from}::timestamp at time zone 'Europe/Paris') and ${column} < (${end}::timestamp at time zone 'Europe/Paris')`
}

/** The range as instants: from the first day's Paris midnight (included) to the day after the last (excluded). */
export function rangeBounds(range: StatsRange): { from: Date; to: Date } {
	return { from: parisWallClockToInstant(`${range.from}T00:00`)!, to: parisWallClockToInstant(`${addDays(range.to, 1)}T00:00`)! }
}
