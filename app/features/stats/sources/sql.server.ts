import { sql, type SQL, type SQLWrapper } from 'drizzle-orm'
import { addDays, parisWallClockToInstant, sqlParisMidnight } from '#app/platform/time-zone.ts'
import type { StatsRange } from '../range.ts'

/** The column falls within the range's Paris days (bounds computed once, so an index on it is used). */
export function withinRange(column: SQLWrapper, range: StatsRange): SQL {
	return sql`${column} >= ${sqlParisMidnight(range.from)} and ${column} < ${sqlParisMidnight(addDays(range.to, 1))}`
}

/** The range as instants: from the first day's Paris midnight (included) to the day after the last (excluded). */
export function rangeBounds(range: StatsRange): { from: Date; to: Date } {
	return { from: parisWallClockToInstant(`${range.from}T00:00`)!, to: parisWallClockToInstant(`${addDays(range.to, 1)}T00:00`)! }
}
