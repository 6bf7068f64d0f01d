import { parse } from 'csv-parse'
import { nextSlice } from './work-slices.server.ts'

/*
 * The one CSV reader, for every import (subscribers, codes, songs): what French spreadsheets write.
 * - Encoding: UTF-8, with or without a BOM, else Windows-1252 (Excel's French default). A file with
 *   NUL bytes or a UTF-16 BOM is no text this reads (null: the import says so in French).
 * - Delimiter: the one of « ; », « , » and tab found most often on the first line, outside quotes
 *   (null when none is there: a file of one column).
 * - Records: csv-parse, fed a piece at a time with a turn of the event loop between pieces
 *   (work-slices.server.ts), cells trimmed, empty lines skipped, rows of any length.
 */

export type CsvEncoding = 'utf-8' | 'windows-1252'
export type CsvDelimiter = ';' | ',' | '\t'

export interface CsvText {
	/** The text, without its BOM. */
	text: string
	encoding: CsvEncoding
	/** Null for a file of one column (no delimiter on its first line). */
	delimiter: CsvDelimiter | null
}

/*
 * Windows-1252's bytes 0x80–0x9F (€ ‚ ƒ „ … † ‡ ˆ ‰ Š ‹ Œ Ž ‘ ’ “ ” • – — ˜ ™ š › œ ž Ÿ), by the
 * Encoding Standard's table. Node's TextDecoder('windows-1252') decodes them as Latin-1's control
 * characters (U+0080–U+009F: nodejs/node#60888), so the apostrophe Excel writes, ’, came out as an
 * invisible U+0092; the text is mapped again after decoding (which a fixed Node leaves as it is).
 */
const CP1252_80_9F =
	'\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
	'\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178'

/** The file's text: UTF-8 first, else Windows-1252; null for what is no text. */
function decode(bytes: Uint8Array): { text: string; encoding: CsvEncoding } | null {
	if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff) || bytes.includes(0)) return null
	try {
		return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8' }
	} catch {
		const text = new TextDecoder('windows-1252').decode(bytes).replace(/[\u0080-\u009f]/g, (c) => CP1252_80_9F[c.charCodeAt(0) - 0x80]!)
		return { text, encoding: 'windows-1252' }
	}
}

const DELIMITERS: readonly CsvDelimiter[] = [';', ',', '\t']

/** The delimiter the first line uses most, outside quoted cells; null when it has none. */
export function sniffDelimiter(text: string): CsvDelimiter | null {
	const counts = new Map<string, number>()
	let quoted = false
	for (const char of text.slice(0, 64 * 1024)) {
		if (char === '"') quoted = !quoted
		else if (!quoted && (char === '\n' || char === '\r')) break
		else if (!quoted && DELIMITERS.includes(char as CsvDelimiter)) counts.set(char, (counts.get(char) ?? 0) + 1)
	}
	let best: CsvDelimiter | null = null
	for (const delimiter of DELIMITERS) if ((counts.get(delimiter) ?? 0) > (best ? counts.get(best)! : 0)) best = delimiter
	return best
}

/** Reads an uploaded file's bytes: its text, encoding and delimiter; null when it is no text. */
export function readCsv(bytes: Uint8Array): CsvText | null {
	const decoded = decode(bytes)
	if (!decoded) return null
	const text = decoded.text.replace(/^\uFEFF/, '')
	return { text, encoding: decoded.encoding, delimiter: sniffDelimiter(text) }
}

/** Characters handed to the parser between two turns of the event loop (a few milliseconds of parsing). */
const CHUNK_CHARS = 64 * 1024

/**
 * The records of the file, parsed a piece at a time with a turn of the event loop between pieces.
 * Handing csv-parse the whole text at once parses it all in one go: a 100,000-line file held the
 * server for the whole parse, however the records were read afterwards. Throws the parser's error
 * (a malformed file; its `lines` says where) as csv-parse does.
 */
export async function* csvRecords(file: CsvText): AsyncGenerator<string[]> {
	const parser = parse({ delimiter: file.delimiter ?? ',', relax_column_count: true, skip_empty_lines: true, trim: true })
	const records: string[][] = []
	let failure: Error | null = null
	let ended = false
	parser.on('readable', () => {
		let record: string[] | null
		while ((record = parser.read() as string[] | null) !== null) records.push(record)
	})
	parser.on('error', (error: Error) => (failure = error))
	parser.on('end', () => (ended = true))
	const { text } = file
	for (let at = 0; at < text.length; at += CHUNK_CHARS) {
		parser.write(text.slice(at, at + CHUNK_CHARS))
		await nextSlice()
		if (failure) throw failure
		yield* records.splice(0)
	}
	parser.end()
	while (!ended && !failure) await nextSlice()
	if (failure) throw failure
	yield* records.splice(0)
}

/** The line a parser's error points at (csv-parse's `lines`), 0 when it does not say. */
export function csvErrorLine(error: unknown): number {
	const lines = (error as { lines?: unknown } | null)?.lines
	return typeof lines === 'number' ? lines : 0
}
