import { parse } from 'csv-parse/sync'
import { describe, expect, it } from 'vitest'
import { csvRecordsInSlices } from './csv-in-slices.server.ts'

async function all(text: string) {
	const records: string[][] = []
	let turns = 0
	let running = true
	const turn = () => {
		if (!running) return
		turns++
		setImmediate(turn)
	}
	setImmediate(turn)
	for await (const record of csvRecordsInSlices(text, { relax_column_count: true, skip_empty_lines: true, trim: true }))
		records.push(record)
	running = false
	return { records, turns }
}

describe('CSV parsed in slices', () => {
	it('gives the same records as a parse in one go, with turns of the event loop between pieces', async () => {
		const lines = ['email;note']
		for (let i = 0; i < 6_000; i++) lines.push(`fan.${i}@exemple.fr;"dit ""bonjour""; ligne ${i}"`)
		const text = lines.join('\r\n')
		const { records, turns } = await all(text.replaceAll(';', ','))
		expect(records).toEqual(parse(text.replaceAll(';', ','), { relax_column_count: true, skip_empty_lines: true, trim: true }))
		expect(records).toHaveLength(6_001)
		// About 230 kB: four pieces, each followed by a turn.
		expect(turns).toBeGreaterThanOrEqual(4)
	}, 60_000)

	it('throws the parser’s error on a malformed file', async () => {
		await expect(all('a,b\n"jamais fermé,c\n')).rejects.toThrow()
	}, 60_000)
})
