import { describe, expect, it } from 'vitest'
import { PgDialect } from 'drizzle-orm/pg-core'
import { sql } from 'drizzle-orm'
// The server's strings, which give formatDateTime its « à » (as the root's provider does in the browser).
import '#app/platform/i18n.server.ts'
import {
	formatDate,
	formatDateTime,
	formatDay,
	formatShortDate,
	formatShortDay,
	formatTime,
	instantToParisWallClock,
	parisDate,
	parisDay,
	parisNoon,
	parisOffsetMinutes,
	parisWallClockToInstant,
	parseWallClock,
	sqlParisDay,
	sqlParisMidnight,
} from './time-zone.ts'

const iso = (value: string) => parisWallClockToInstant(value)?.toISOString() ?? null

describe('Paris wall clock to instant', () => {
	it('reads winter time as UTC+1 and summer time as UTC+2', () => {
		expect(iso('2026-01-15T20:30')).toBe('2026-01-15T19:30:00.000Z')
		expect(iso('2026-07-14T21:00')).toBe('2026-07-14T19:00:00.000Z')
	})

	it('accepts seconds (some browsers send them) and ignores them', () => {
		expect(iso('2026-07-14T21:00:00')).toBe('2026-07-14T19:00:00.000Z')
		expect(iso('2026-07-14T21:00:59.500')).toBe('2026-07-14T19:00:00.000Z')
	})

	it('March change: the hour before and after, and the hour that does not exist', () => {
		// Sunday 29 March 2026: at 02:00 CET the clocks jump to 03:00 CEST (01:00 UTC).
		expect(iso('2026-03-29T01:59')).toBe('2026-03-29T00:59:00.000Z')
		expect(iso('2026-03-29T03:00')).toBe('2026-03-29T01:00:00.000Z')
		expect(iso('2026-03-29T03:30')).toBe('2026-03-29T01:30:00.000Z')
		// 02:30 never happens: moved forward by the gap, to 03:30 CEST.
		expect(iso('2026-03-29T02:30')).toBe('2026-03-29T01:30:00.000Z')
		expect(iso('2026-03-29T02:00')).toBe('2026-03-29T01:00:00.000Z')
		// The day before and after keep their own offsets.
		expect(iso('2026-03-28T02:30')).toBe('2026-03-28T01:30:00.000Z')
		expect(iso('2026-03-30T02:30')).toBe('2026-03-30T00:30:00.000Z')
	})

	it('October change: the hour that happens twice is read as the first one (summer time)', () => {
		// Sunday 25 October 2026: at 03:00 CEST the clocks go back to 02:00 CET (01:00 UTC).
		expect(iso('2026-10-25T01:59')).toBe('2026-10-24T23:59:00.000Z')
		expect(iso('2026-10-25T02:00')).toBe('2026-10-25T00:00:00.000Z')
		expect(iso('2026-10-25T02:30')).toBe('2026-10-25T00:30:00.000Z')
		expect(iso('2026-10-25T03:00')).toBe('2026-10-25T02:00:00.000Z')
		expect(iso('2026-10-26T02:30')).toBe('2026-10-26T01:30:00.000Z')
	})

	it('refuses what is not a date and time', () => {
		for (const value of [
			'',
			'2026-02-30T20:00',
			'2026-13-01T20:00',
			'2026-04-31T10:00',
			'2026-01-01T24:00',
			'2026-01-01T10:60',
			'2026-01-01',
			'20:30',
			'demain soir',
			'2026-01-01T20:30Z',
			'2026-01-01T20:30+01:00',
		]) {
			expect(parisWallClockToInstant(value), value).toBeNull()
		}
		expect(parseWallClock('2028-02-29T20:00')).not.toBeNull()
		expect(parseWallClock('2027-02-29T20:00')).toBeNull()
	})
})

describe('instant to Paris wall clock', () => {
	it('writes the value of a datetime-local field', () => {
		expect(instantToParisWallClock(new Date('2026-01-15T19:30:00Z'))).toBe('2026-01-15T20:30')
		expect(instantToParisWallClock('2026-07-14T19:00:00.000Z')).toBe('2026-07-14T21:00')
		expect(instantToParisWallClock(Date.UTC(2026, 11, 31, 23, 5))).toBe('2027-01-01T00:05')
	})

	it('March change: both sides of the jump', () => {
		expect(instantToParisWallClock('2026-03-29T00:59:00Z')).toBe('2026-03-29T01:59')
		expect(instantToParisWallClock('2026-03-29T01:00:00Z')).toBe('2026-03-29T03:00')
	})

	it('October change: the repeated hour, once in summer time and once in winter time', () => {
		expect(instantToParisWallClock('2026-10-25T00:30:00Z')).toBe('2026-10-25T02:30')
		expect(instantToParisWallClock('2026-10-25T01:30:00Z')).toBe('2026-10-25T02:30')
		expect(instantToParisWallClock('2026-10-25T02:00:00Z')).toBe('2026-10-25T03:00')
	})

	it('drops the seconds', () => {
		expect(instantToParisWallClock('2026-05-01T18:45:59.999Z')).toBe('2026-05-01T20:45')
	})

	it('goes back and forth without drift, every 37 minutes of two years', () => {
		const start = Date.UTC(2025, 0, 1)
		const end = Date.UTC(2027, 0, 1)
		for (let at = start; at < end; at += 37 * 60_000) {
			const wall = instantToParisWallClock(at)
			const back = parisWallClockToInstant(wall)!.getTime()
			// The repeated autumn hour reads back as its first occurrence: an hour earlier at most.
			const expected = at - (at % 60_000)
			expect(expected - back === 0 || expected - back === 3_600_000, wall).toBe(true)
			if (expected !== back) expect(parisOffsetMinutes(at)).toBe(60)
		}
	})
})

describe('offset', () => {
	it('is +60 in winter and +120 in summer', () => {
		expect(parisOffsetMinutes(new Date('2026-01-01T12:00:00Z'))).toBe(60)
		expect(parisOffsetMinutes(new Date('2026-08-01T12:00:00Z'))).toBe(120)
		expect(parisOffsetMinutes(Date.UTC(2026, 2, 29, 0, 59))).toBe(60)
		expect(parisOffsetMinutes(Date.UTC(2026, 2, 29, 1, 0))).toBe(120)
		expect(parisOffsetMinutes(Date.UTC(2026, 9, 25, 0, 59))).toBe(120)
		expect(parisOffsetMinutes(Date.UTC(2026, 9, 25, 1, 0))).toBe(60)
	})
})

describe('French dates and times in Paris', () => {
	it('formats a winter evening (UTC+1) and a summer one (UTC+2), on the hour or not', () => {
		expect(formatDateTime('2026-03-14T19:30:00Z')).toBe('samedi 14 mars 2026 à 20 h 30')
		expect(formatDate('2026-03-14T19:30:00Z')).toBe('samedi 14 mars 2026')
		expect(formatTime(new Date('2026-03-14T19:30:00Z'))).toBe('20 h 30')
		expect(formatDateTime('2026-07-14T19:00:00Z')).toBe('mardi 14 juillet 2026 à 21 h')
		expect(formatTime('2026-06-21T07:05:00Z')).toBe('9 h 05')
	})

	it('writes the first of the month « 1er » in every format, and only the first', () => {
		const first = '2026-06-01T18:00:00Z'
		expect(formatDate(first)).toBe('lundi 1er juin 2026')
		expect(formatDay(first)).toBe('1er juin 2026')
		expect(formatShortDate(first)).toBe('lun. 1er juin 2026')
		expect(formatShortDay('2026-01-01T12:00:00Z')).toBe('1er janv. 2026')
		expect(formatDay('2026-06-02T18:00:00Z')).toBe('2 juin 2026')
		expect(formatDay('2026-06-11T18:00:00Z')).toBe('11 juin 2026')
		expect(formatDay('2026-06-21T18:00:00Z')).toBe('21 juin 2026')
		expect(formatDay('2026-05-31T18:00:00Z')).toBe('31 mai 2026')
	})

	it('uses the Paris date, not the UTC one, around midnight', () => {
		expect(formatDateTime('2026-12-31T23:15:00Z')).toBe('vendredi 1er janvier 2027 à 0 h 15')
		expect(parisDay(new Date('2026-12-31T23:15:00Z'))).toBe('2027-01-01')
		expect(parisDay(new Date('2026-12-31T22:59:00Z'))).toBe('2026-12-31')
		// Summer: midnight in Paris is 22:00 UTC.
		expect(parisDay(new Date('2026-07-13T21:59:00Z'))).toBe('2026-07-13')
		expect(parisDay(new Date('2026-07-13T22:00:00Z'))).toBe('2026-07-14')
	})

	it('follows both daylight-saving changes', () => {
		// 29 March 2026: 01:59 CET, then 03:00 CEST one minute later.
		expect(formatTime('2026-03-29T00:59:00Z')).toBe('1 h 59')
		expect(formatTime('2026-03-29T01:00:00Z')).toBe('3 h')
		expect(formatTime('2026-03-29T01:30:00Z')).toBe('3 h 30')
		// 25 October 2026: 02:30 happens twice, first in summer time then in winter time.
		expect(formatTime('2026-10-25T00:30:00Z')).toBe('2 h 30')
		expect(formatTime('2026-10-25T01:30:00Z')).toBe('2 h 30')
		expect(formatTime('2026-10-25T02:00:00Z')).toBe('3 h')
		// Both days are still one Paris day from midnight to midnight.
		expect(parisDay(new Date('2026-03-28T23:00:00Z'))).toBe('2026-03-29')
		expect(parisDay(new Date('2026-03-29T21:59:00Z'))).toBe('2026-03-29')
		expect(parisDay(new Date('2026-10-24T22:00:00Z'))).toBe('2026-10-25')
		expect(parisDay(new Date('2026-10-25T22:59:00Z'))).toBe('2026-10-25')
		expect(parisDay(new Date('2026-10-25T23:00:00Z'))).toBe('2026-10-26')
	})

	it('gives every part a page needs', () => {
		expect(parisDate('2026-03-14T19:30:00Z')).toEqual({
			weekday: 'samedi',
			weekdayShort: 'sam.',
			day: '14',
			dayWord: '14',
			month: 'mars',
			monthShort: 'mars',
			year: '2026',
			time: '20 h 30',
			parisDay: '2026-03-14',
		})
	})

	it('gives the same text for a date, its ISO string and a later call, past the 500 kept', () => {
		const first = new Date('2026-03-14T19:30:00Z')
		expect(formatDay(first)).toBe('14 mars 2026')
		expect(formatDay(first.toISOString())).toBe('14 mars 2026')
		// 600 other instants: the memory starts over once, and answers stay right.
		const intl = new Intl.DateTimeFormat('fr-FR', {
			weekday: 'long',
			day: 'numeric',
			month: 'long',
			year: 'numeric',
			timeZone: 'Europe/Paris',
		})
		for (let k = 0; k < 600; k++) {
			const day = new Date(Date.UTC(2026, 0, 1 + k, 12))
			expect(formatDate(day)).toBe(intl.format(day).replace(/ 1 /, ' 1er '))
		}
		expect(formatDateTime(first)).toBe('samedi 14 mars 2026 à 20 h 30')
		expect(() => formatDay('pas une date')).toThrow(RangeError)
	})
})

describe('Paris days in SQL', () => {
	const dialect = new PgDialect()

	it('writes the zone into the text, so SELECT and GROUP BY read the same expression', () => {
		const column = sql`created_at`
		const first = dialect.sqlToQuery(sqlParisDay(column))
		expect(first).toEqual({ sql: `to_char((created_at at time zone 'Europe/Paris')::date, 'YYYY-MM-DD')`, params: [] })
		expect(dialect.sqlToQuery(sqlParisDay(column)).sql).toBe(first.sql)
	})

	it('binds the day of a midnight as a parameter', () => {
		expect(dialect.sqlToQuery(sqlParisMidnight('2026-03-29'))).toMatchObject({
			sql: `($1::timestamp at time zone 'Europe/Paris')`,
			params: ['2026-03-29'],
		})
	})
})

describe('a Paris day written YYYY-MM-DD, in words', () => {
	it('is the same day in every format, « 1er » included, whatever the season', () => {
		expect(formatDay(parisNoon('2026-03-01'))).toBe('1er mars 2026')
		expect(formatShortDate(parisNoon('2026-03-29'))).toBe('dim. 29 mars 2026')
		expect(formatShortDate(parisNoon('2026-10-25'))).toBe('dim. 25 oct. 2026')
		expect(parisDay(parisNoon('2026-12-31'))).toBe('2026-12-31')
		expect(() => formatDay(parisNoon('2026-02-30'))).toThrow(RangeError)
	})
})
