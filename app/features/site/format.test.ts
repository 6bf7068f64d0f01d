import { describe, expect, it } from 'vitest'
import { formatDate, formatDateTime, formatDay, formatEuros, formatTime } from './format.ts'
// The server's strings, which give formatDateTime its « à » (as the root's provider does in the browser).
import '#app/platform/i18n.server.ts'

/** French formatting never breaks a line inside an amount: a no-break space before €, narrow ones in thousands. */
const NBSP = '\u00a0'
const NNBSP = '\u202f'

describe('French formatting in Europe/Paris', () => {
	it('formats a winter evening (UTC+1)', () => {
		expect(formatDateTime('2026-03-14T19:30:00Z')).toBe('samedi 14 mars 2026 à 20 h 30')
		expect(formatDate('2026-03-14T19:30:00Z')).toBe('samedi 14 mars 2026')
		expect(formatTime(new Date('2026-03-14T19:30:00Z'))).toBe('20 h 30')
	})

	it('formats a summer evening (UTC+2) and a time on the hour', () => {
		expect(formatDateTime('2026-07-14T19:00:00Z')).toBe('mardi 14 juillet 2026 à 21 h')
	})

	it('uses the Paris date, not the UTC one, around midnight', () => {
		expect(formatDateTime('2026-12-31T23:15:00Z')).toBe('vendredi 1 janvier 2027 à 0 h 15')
		expect(formatTime('2026-06-21T07:05:00Z')).toBe('9 h 05')
	})

	it('formats euros', () => {
		expect(formatEuros(12.5)).toBe(`12,50${NBSP}€`)
		expect(formatEuros(0)).toBe(`0,00${NBSP}€`)
		expect(formatEuros(1234.5)).toBe(`1${NNBSP}234,50${NBSP}€`)
		// What a reader sees: « 12,50 € ».
		expect(formatEuros(12.5).replace(/\s/g, ' ')).toBe('12,50 €')
	})
})

describe('formats remembered per instant', () => {
	it('give the same text for a date, its ISO string and a later call, past the 500 kept', () => {
		const first = new Date('2026-03-14T19:30:00Z')
		expect(formatDay(first)).toBe('14 mars 2026')
		expect(formatDay(first.toISOString())).toBe('14 mars 2026')
		expect(formatTime(first)).toBe('20 h 30')
		// 600 other instants: the memory starts over once, and answers stay right.
		for (let k = 0; k < 600; k++) {
			const day = new Date(Date.UTC(2026, 0, 1 + k, 12))
			expect(formatDate(day)).toBe(
				new Intl.DateTimeFormat('fr-FR', {
					weekday: 'long',
					day: 'numeric',
					month: 'long',
					year: 'numeric',
					timeZone: 'Europe/Paris',
				}).format(day),
			)
		}
		expect(formatDateTime(first)).toBe('samedi 14 mars 2026 à 20 h 30')
		expect(() => formatDay('pas une date')).toThrow(RangeError)
	})
})
