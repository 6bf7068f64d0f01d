import type { StatsRange } from './range.ts'
import type { SourceResult } from './sources/types.ts'

/*
 * The stats screen as CSV, for a spreadsheet in French: « ; » between cells, UTF-8 with a BOM, the
 * daily figures first (one row per day), then the figures of the moment and the rankings. A cell
 * that a spreadsheet would run as a formula (= + - @) is written as text.
 */
function cell(value: string | number): string {
	if (typeof value === 'number') return String(value)
	const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
	return /[";\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

const row = (cells: (string | number)[]) => cells.map(cell).join(';')

export function statsCsv(range: StatsRange, results: SourceResult[]): string {
	const series = results.flatMap((result) => result.series.map((s) => ({ ...s, label: `${result.title} : ${s.label}` })))
	const lines = [row(['Jour', ...series.map((s) => s.label)])]
	range.days.forEach((day, index) => lines.push(row([day, ...series.map((s) => s.daily[index] ?? 0)])))
	lines.push(row(['Total', ...series.map((s) => s.total)]))
	lines.push('')
	lines.push(row(['Chiffre du moment', 'Valeur']))
	for (const result of results) for (const figure of result.figures) lines.push(row([`${result.title} : ${figure.label}`, figure.value]))
	for (const result of results) {
		for (const ranking of result.rankings) {
			lines.push('')
			lines.push(row([ranking.label, ranking.unit]))
			for (const entry of ranking.rows) lines.push(row([entry.label, entry.value]))
		}
	}
	return `\uFEFF${lines.join('\r\n')}\r\n`
}
