import { csvFile, type CsvCell } from '#app/platform/csv-out.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import type { StatsRange } from './range.ts'
import type { SourceResult } from './sources/types.ts'

/*
 * The stats screen as CSV, for a spreadsheet in French: « ; » between cells, through the site's one
 * CSV writer (app/platform/csv-out.server.ts: a BOM, formula-looking cells written as text), the
 * daily figures first (one row per day), then the figures of the moment and the rankings.
 */
export function statsCsv(range: StatsRange, results: SourceResult[]): string {
	const t = getT()
	const labelled = (title: string, label: string) => t('stats.csv.labelled', { title, label })
	const series = results.flatMap((result) => result.series.map((s) => ({ ...s, label: labelled(result.title, s.label) })))
	const rows: CsvCell[][] = [[t('stats.csv.day'), ...series.map((s) => s.label)]]
	range.days.forEach((day, index) => rows.push([day, ...series.map((s) => s.daily[index] ?? 0)]))
	rows.push([t('stats.csv.total'), ...series.map((s) => s.total)])
	rows.push([])
	rows.push([t('stats.csv.figure'), t('stats.csv.value')])
	for (const result of results) for (const figure of result.figures) rows.push([labelled(result.title, figure.label), figure.value])
	for (const result of results) {
		for (const ranking of result.rankings) {
			rows.push([])
			rows.push([ranking.label, ranking.unit])
			for (const entry of ranking.rows) rows.push([entry.label, entry.value])
		}
	}
	return csvFile(rows, ';')
}
