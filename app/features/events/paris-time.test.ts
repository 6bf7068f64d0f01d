import { describe, expect, it } from 'vitest'
import { instantToParisWallClock, parisOffsetMinutes, parisWallClockToInstant, parseWallClock } from './paris-time.ts'

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
