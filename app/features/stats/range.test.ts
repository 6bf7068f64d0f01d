import { describe, expect, it } from 'vitest'
import { MAX_RANGE_DAYS, readRange } from './range.ts'
import { getT } from '#app/platform/i18n.server.ts'

const TODAY = '2026-03-15'
const read = (query: string) => readRange(new URLSearchParams(query), getT(), TODAY)

describe('the stats period', () => {
	it('gives the last 7, 30 or 90 days with today, and 30 for anything else', () => {
		expect(read('periode=7').range).toMatchObject({ preset: '7', from: '2026-03-09', to: TODAY })
		expect(read('periode=7').range.days).toHaveLength(7)
		expect(read('periode=90').range.days).toHaveLength(90)
		expect(read('').range).toMatchObject({ preset: '30', from: '2026-02-14' })
		expect(read('periode=1000').range.preset).toBe('30')
	})

	it('takes custom dates, across a change of year and a leap day', () => {
		const { range, error } = readRange(new URLSearchParams('periode=perso&du=2023-12-30&au=2024-03-01'), getT(), TODAY)
		expect(error).toBeNull()
		expect(range.days[0]).toBe('2023-12-30')
		expect(range.days).toContain('2024-02-29')
		expect(range.days.at(-1)).toBe('2024-03-01')
	})

	it('refuses reversed dates and impossible ones in French, and falls back to 30 days', () => {
		const reversed = read('periode=perso&du=2026-03-10&au=2026-03-01')
		expect(reversed.error).toBe('La date de début doit précéder la date de fin.')
		expect(reversed.range.preset).toBe('30')
		expect(read('periode=perso&du=2026-02-30&au=2026-03-01').error).toMatch(/deux dates valides/)
		expect(read('periode=perso&du=hier&au=2026-03-01').error).toMatch(/deux dates valides/)
	})

	it('clamps ten years to the longest period, ending today at the latest, and says so', () => {
		const { range, notice, error } = read('periode=perso&du=2016-01-01&au=2030-01-01')
		expect(error).toBeNull()
		expect(range.to).toBe(TODAY)
		expect(range.days).toHaveLength(MAX_RANGE_DAYS)
		expect(notice).toMatch(/limitée à 366 jours/)
	})
})
