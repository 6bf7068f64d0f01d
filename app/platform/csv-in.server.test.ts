import { parse } from 'csv-parse/sync'
import { describe, expect, it } from 'vitest'
import { csvErrorLine, csvRecords, readCsv, sniffDelimiter } from './csv-in.server.ts'

const utf8 = (text: string) => new TextEncoder().encode(text)

async function all(bytes: Uint8Array) {
	const file = readCsv(bytes)
	if (!file) throw new Error('unreadable')
	const records: string[][] = []
	let turns = 0
	let running = true
	const turn = () => {
		if (!running) return
		turns++
		setImmediate(turn)
	}
	setImmediate(turn)
	try {
		for await (const record of csvRecords(file)) records.push(record)
	} finally {
		running = false
	}
	return { file, records, turns }
}

describe('the one CSV reader', () => {
	it('finds « ; », « , » or a tab from the first line, outside quotes', async () => {
		expect((await all(utf8('titre;durée\r\nLes Lilas;4:05\r\n'))).records).toEqual([
			['titre', 'durée'],
			['Les Lilas', '4:05'],
		])
		expect((await all(utf8('email,note\nfan@exemple.fr,"dit ""oui"", puis non"\n'))).records).toEqual([
			['email', 'note'],
			['fan@exemple.fr', 'dit "oui", puis non'],
		])
		expect((await all(utf8('code\tnote\nAB-CD\tà part\n'))).file.delimiter).toBe('\t')
		// Commas inside a quoted header cell do not count: the file is separated by semicolons.
		expect(sniffDelimiter('"Nom, prénom, surnom";email\n"a, b, c";x')).toBe(';')
		// The most frequent wins; one column has none.
		expect(sniffDelimiter('a;b;c,d\n')).toBe(';')
		expect(sniffDelimiter('a,b,c;d\n')).toBe(',')
		expect(sniffDelimiter('code\nAB,CD')).toBeNull()
		expect((await all(utf8('code\nPRESS-1\nPRESS-2\n'))).records).toEqual([['code'], ['PRESS-1'], ['PRESS-2']])
	})

	it('reads UTF-8 with or without a BOM, and Windows-1252', async () => {
		const withBom = await all(utf8('\uFEFFtitre;artiste\nCafé;Hélène\n'))
		expect(withBom.file).toMatchObject({ encoding: 'utf-8', delimiter: ';' })
		expect(withBom.records).toEqual([
			['titre', 'artiste'],
			['Café', 'Hélène'],
		])
		expect((await all(utf8('titre;artiste\nCafé;Hélène\n'))).records).toEqual(withBom.records)
		// « Café;Hélène » as Excel writes it in France: é is 0xE9, not valid UTF-8.
		const cp1252 = Uint8Array.from(
			[...'titre;artiste\nCaf'].map((c) => c.charCodeAt(0)).concat([0xe9, 0x3b, 0x48, 0xe9, 0x6c, 0xe8, 0x6e, 0x65, 0x0a]),
		)
		const latin = await all(cp1252)
		expect(latin.file).toMatchObject({ encoding: 'windows-1252', delimiter: ';' })
		expect(latin.records).toEqual(withBom.records)
		// Windows-1252 has the typographic apostrophe, the euro sign and « œ » at 0x92, 0x80 and 0x9C.
		expect(readCsv(Uint8Array.from([0x4c, 0x92, 0x61, 0x20, 0x80, 0x20, 0x9c, 0x75, 0x66]))?.text).toBe('L’a € œuf')
		// Every byte from 0x80 to 0xFF, as the Encoding Standard maps them.
		const high = readCsv(Uint8Array.from({ length: 128 }, (_, i) => 0x80 + i))!.text
		expect([...high].map((c) => c.codePointAt(0))).toEqual([
			0x20ac,
			0x81,
			0x201a,
			0x192,
			0x201e,
			0x2026,
			0x2020,
			0x2021,
			0x2c6,
			0x2030,
			0x160,
			0x2039,
			0x152,
			0x8d,
			0x17d,
			0x8f,
			0x90,
			0x2018,
			0x2019,
			0x201c,
			0x201d,
			0x2022,
			0x2013,
			0x2014,
			0x2dc,
			0x2122,
			0x161,
			0x203a,
			0x153,
			0x9d,
			0x17e,
			0x178,
			...Array.from({ length: 96 }, (_, i) => 0xa0 + i),
		])
	})

	it('refuses what is no text: UTF-16 and binary files', () => {
		expect(readCsv(new Uint8Array([0xff, 0xfe, ...utf8('t\0i\0')]))).toBeNull()
		expect(readCsv(new Uint8Array([0xfe, 0xff, 0, 0x74]))).toBeNull()
		expect(readCsv(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00]))).toBeNull()
	})

	it('gives the same records as a parse in one go, with turns of the event loop between pieces', async () => {
		const lines = ['email,note']
		for (let i = 0; i < 6_000; i++) lines.push(`fan.${i}@exemple.fr,"dit ""bonjour"", ligne ${i}"`)
		const text = lines.join('\r\n')
		const { records, turns } = await all(utf8(text))
		expect(records).toEqual(parse(text, { relax_column_count: true, skip_empty_lines: true, trim: true }))
		expect(records).toHaveLength(6_001)
		// About 230 kB: four pieces, each followed by a turn.
		expect(turns).toBeGreaterThanOrEqual(4)
	}, 60_000)

	it('throws the parser’s error on a malformed file, with its line', async () => {
		const failure = await all(utf8('a,b\nc,d\n"jamais fermé,c\n')).catch((error: unknown) => error)
		expect(failure).toBeInstanceOf(Error)
		expect(csvErrorLine(failure)).toBeGreaterThanOrEqual(3)
		expect(csvErrorLine(new Error('autre'))).toBe(0)
	}, 60_000)
})
