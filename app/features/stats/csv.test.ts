import { describe, expect, it } from 'vitest'
import { statsCsv } from './csv.ts'
import type { StatsRange } from './range.ts'

describe('the stats as CSV', () => {
	it('writes one row per day, the totals, the figures and the rankings, safe for a spreadsheet', () => {
		const range: StatsRange = { preset: 'custom', from: '2026-03-01', to: '2026-03-02', days: ['2026-03-01', '2026-03-02'] }
		const csv = statsCsv(range, [
			{
				id: 'audience',
				title: 'Audience',
				series: [{ key: 'v', label: 'Pages vues', total: 5, daily: [2, 3] }],
				figures: [{ key: 'f', label: 'Membres', value: 9 }],
				rankings: [{ key: 'r', label: 'Sites', unit: 'Vues', rows: [{ label: '=HYPERLINK("x");1', value: 4 }], empty: '' }],
			},
		])
		expect(csv.startsWith('\uFEFF')).toBe(true)
		const lines = csv.slice(1).split('\r\n')
		expect(lines.slice(0, 4)).toEqual(['Jour;Audience\u00a0: Pages vues', '2026-03-01;2', '2026-03-02;3', 'Total;5'])
		expect(lines).toContain('Audience\u00a0: Membres;9')
		expect(lines).toContain(`"'=HYPERLINK(""x"");1";4`)
	})
})
