import { parse, type Options } from 'csv-parse'
import { nextSlice } from './work-slices.server.ts'

/** Characters handed to the parser between two turns of the event loop (a few milliseconds of parsing). */
const CHUNK_CHARS = 64 * 1024

/**
 * The records of a CSV text, parsed a piece at a time with a turn of the event loop between pieces
 * (work-slices.server.ts). Handing csv-parse the whole text at once parses it all in one go: a
 * 100,000-line file held the server for the whole parse, however the records were read afterwards.
 * Throws the parser's error (a malformed file) as csv-parse does.
 */
export async function* csvRecordsInSlices(text: string, options: Options): AsyncGenerator<string[]> {
	const parser = parse(options)
	const records: string[][] = []
	let failure: Error | null = null
	let ended = false
	parser.on('readable', () => {
		let record: string[] | null
		while ((record = parser.read() as string[] | null) !== null) records.push(record)
	})
	parser.on('error', (error: Error) => (failure = error))
	parser.on('end', () => (ended = true))
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
