import { stringify } from 'csv-stringify/sync'
import { nextSlice } from './work-slices.server.ts'

/*
 * The one CSV writer, for every export (the stats, the subscriber list, a batch of codes): csv-stringify
 * with the same rules everywhere.
 * - UTF-8 with a BOM, so that a spreadsheet reads the accents right; lines end with CRLF.
 * - A cell is quoted when it holds the delimiter, a quote or a line break (quotes doubled); an empty
 *   or missing cell is empty.
 * - A text cell a spreadsheet would run as a formula (starting with = + - @, a tab or a carriage
 *   return, or their full-width forms) gets a leading apostrophe, which the spreadsheet shows as
 *   text: csv-stringify's `escape_formulas`. A number is written as it is (-3 is not a formula).
 * The delimiter is the export's choice: « ; » where a French spreadsheet opens the file directly
 * (the stats), « , » for lists that other tools read (subscribers, codes).
 */

export type CsvCell = string | number | null | undefined
export type CsvDelimiter = ',' | ';'

// csv-stringify quotes a cell holding the record delimiter (CRLF) but not a lone CR or LF: the
// match quotes those too, or a cell with a line break would split its row.
const options = (delimiter: CsvDelimiter) =>
	({ delimiter, record_delimiter: 'windows', escape_formulas: true, quoted_match: /[\r\n]/ }) as const

/** Rows as CSV lines (no BOM): the body of a file, or one page of a streamed one. */
export function csvLines(rows: readonly (readonly CsvCell[])[], delimiter: CsvDelimiter): string {
	return stringify(
		rows.map((row) => row.map((cell) => cell ?? '')),
		options(delimiter),
	)
}

/** A whole file: the BOM, then every row. */
export function csvFile(rows: readonly (readonly CsvCell[])[], delimiter: CsvDelimiter): string {
	return `\uFEFF${csvLines(rows, delimiter)}`
}

/**
 * A file streamed page by page: the BOM and the header first, then each page of rows `pages`
 * yields (one short statement each, by keyset), the event loop getting a turn between pages, so a
 * list of any length is never held whole, in memory or on the database.
 */
export function csvStream(
	header: readonly string[],
	pages: AsyncIterable<readonly (readonly CsvCell[])[]>,
	delimiter: CsvDelimiter,
): ReadableStream<Uint8Array> {
	const encoder = new TextEncoder()
	const iterator = pages[Symbol.asyncIterator]()
	let started = false
	return new ReadableStream({
		async pull(controller) {
			if (!started) {
				started = true
				controller.enqueue(encoder.encode(csvFile([header], delimiter)))
				return
			}
			await nextSlice()
			const page = await iterator.next()
			if (page.done) controller.close()
			else controller.enqueue(encoder.encode(csvLines(page.value, delimiter)))
		},
		async cancel() {
			await iterator.return?.()
		},
	})
}
