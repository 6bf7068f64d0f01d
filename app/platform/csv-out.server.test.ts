import { parse } from 'csv-parse/sync'
import { describe, expect, it } from 'vitest'
import { csvFile, csvLines, csvStream } from './csv-out.server.ts'

async function readAll(stream: ReadableStream<Uint8Array>) {
	const chunks: string[] = []
	const decoder = new TextDecoder('utf-8', { ignoreBOM: true })
	for await (const chunk of stream) chunks.push(decoder.decode(chunk, { stream: true }))
	return chunks
}

describe('the one CSV writer', () => {
	it('writes a BOM, CRLF line ends, and quotes a cell with the delimiter, a quote or a line break', () => {
		const text = csvFile(
			[
				['titre', 'notes'],
				['Les Lilas', 'capo 2; en mi'],
				['Dit "oui"', 'ligne 1\nligne 2'],
				['retour', 'chariot\rseul'],
				['vide', null],
			],
			';',
		)
		expect(text.startsWith('\uFEFF')).toBe(true)
		expect(text.slice(1)).toBe(
			'titre;notes\r\nLes Lilas;"capo 2; en mi"\r\n"Dit ""oui""";"ligne 1\nligne 2"\r\nretour;"chariot\rseul"\r\nvide;\r\n',
		)
		// A comma is plain text with « ; » between cells, and the reverse.
		expect(csvLines([['a,b', 'c;d']], ';')).toBe('a,b;"c;d"\r\n')
		expect(csvLines([['a,b', 'c;d']], ',')).toBe('"a,b",c;d\r\n')
	})

	it('writes a cell a spreadsheet would run as a formula as text, in every export', () => {
		const cells = ['=HYPERLINK("x")', '+33 6', '-2+3', '@SUM(A1)', '\tcaché', '\rcaché', '\uFF1D1+1', 'a=b', '']
		expect(csvLines([cells], ',')).toBe(`"'=HYPERLINK(""x"")",'+33 6,'-2+3,'@SUM(A1),'\tcaché,"'\rcaché",'\uFF1D1+1,a=b,\r\n`)
		// A number is a number: -3 is not a formula.
		expect(csvLines([[-3, 0, 12.5]], ';')).toBe('-3;0;12.5\r\n')
	})

	it('reads back what it writes, through csv-parse', () => {
		const rows = [
			['e-mail', 'note'],
			['fan@exemple.fr', 'dit "bonjour", puis\r\nau revoir'],
		]
		expect(parse(csvFile(rows, ','), { bom: true })).toEqual(rows)
	})

	it('streams the BOM and the header, then one chunk per page', async () => {
		async function* pages() {
			yield [['A', 1]]
			yield [
				['B', 2],
				['=C', 3],
			]
		}
		const chunks = await readAll(csvStream(['code', 'utilisations'], pages(), ','))
		expect(chunks).toEqual(['\uFEFFcode,utilisations\r\n', 'A,1\r\n', "B,2\r\n'=C,3\r\n"])
	})
})
