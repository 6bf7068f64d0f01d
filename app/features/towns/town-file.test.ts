import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { decodeTownFile, encodeTownFile, openTownFile, type TownRecordInput } from './town-file.ts'

/*
 * The running site keeps the columns in memory and reads names from the file by position: what it
 * reads must be what was written, accents and all, and a rebuild that renames a new file over the
 * old one must not change what an already open list reads.
 */
const header = { countries: [['FR', 'France'] as [string, string]], areas: ['Rhône'], regions: ['84'] }
const record = (id: number, name: string): TownRecordInput => ({
	id,
	name,
	latitude: 45.75,
	longitude: 4.85,
	population: 1000 + id,
	country: 0,
	area: 1,
	region: 0,
	detail: 0,
})

function writeFile(dir: string, names: string[]): string {
	const file = path.join(dir, 'towns.bin')
	const fresh = `${file}.tmp`
	fs.writeFileSync(
		fresh,
		encodeTownFile(
			header,
			names.map((name, i) => record(i + 1, name)),
		),
	)
	fs.renameSync(fresh, file)
	return file
}

describe('the town file read in place', () => {
	it('reads every name by position as it was written, and the same columns as the whole file decoded', () => {
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'town-file-'))
		// A name longer than the reader's first scratch buffer, and names in several scripts.
		const names = ['Ærøskøbing', 'Kraków', 'Lyon', 'Saint-Étienne', 'Đà Nẵng', 'Ł'.repeat(300), 'Ōsaka']
		const file = writeFile(dir, names)
		const index = openTownFile(file)
		const whole = decodeTownFile(fs.readFileSync(file))
		expect(index.count).toBe(names.length)
		expect(names.map((_, i) => index.name(i))).toEqual(names)
		expect([...index.ids]).toEqual([...whole.ids])
		expect([...index.populations]).toEqual([...whole.populations])
		expect([...index.nameStarts]).toEqual([...whole.nameStarts])
		expect(index.header).toEqual(whole.header)
	})

	it('keeps reading the file it opened when a rebuild renames a new one over it', () => {
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'town-file-'))
		const index = openTownFile(writeFile(dir, ['Brest', 'Lyon']))
		writeFile(dir, ['Aaaaaaaaaaaaaa', 'Zzzzzzzzzzzzzz'])
		expect([index.name(0), index.name(1)]).toEqual(['Brest', 'Lyon'])
	})

	it('refuses a file that is not a town file', () => {
		const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'town-file-')), 'towns.bin')
		fs.writeFileSync(file, 'not a town list at all')
		expect(() => openTownFile(file)).toThrow(/Not a town file/)
	})
})
