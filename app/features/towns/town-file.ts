/*
 * The town list as one compact file (built by scripts/build-towns.ts from the world's towns of
 * 1,000 inhabitants or more, with France's departments): a short header, then one column per field,
 * read in place as typed arrays over the file's bytes, so that 135,000 towns weigh about their file
 * (about 4 MB) instead of tens of megabytes of objects. Records are sorted by folded name (fold.ts),
 * the most populous first among equal names, which is what a prefix search walks.
 *
 *   "TOWNS01\n" · u32 count · u32 header length · header (JSON, UTF-8, padded to 4 bytes)
 *   i32 id[count] · i16 latitude×100[count] · i16 longitude×100[count] · u32 population[count]
 *   u32 nameStart[count + 1] · u8 country[count] · u8 area[count] · u8 detail[count]
 *   u16 region[count] · names (UTF-8)
 *
 * The running site reads it with openTownFile: the columns in memory (2.6 MB), the names (1.3 MB,
 * the biggest part) left in the file and read a few bytes at a time, by position, when a name is
 * needed (about fifty short reads for a suggestion): the kernel's page cache holds them, shared
 * with every process, instead of the server's own memory.
 */

import fs from 'node:fs'
import { COORDINATE_DECIMALS } from './rules.ts'

const MAGIC = 'TOWNS01\n'
/** Coordinates in hundredths of a degree (about a kilometre): a town's, never an address's. */
const SCALE = 10 ** COORDINATE_DECIMALS

/** How a town's label tells it apart from its namesakes. */
export const DETAIL_NONE = 0
/** The country's own region code after the country (« Paris (États-Unis, TX) »). */
export const DETAIL_REGION = 1
/** Its population too, when even that is shared. */
export const DETAIL_POPULATION = 2

export interface TownHeader {
	/** Per country index: ISO code, French name. */
	countries: [string, string][]
	/** Per area index − 1: a French department's name (0 is « no department »). */
	areas: string[]
	/** Per record's region index: the country's own first-level code (US states, …), for labels only. */
	regions: string[]
	/** France's regions by code (INSEE's, which GeoNames uses): « 84 » → « Auvergne-Rhône-Alpes ». */
	regionNames?: Record<string, string>
}

export interface TownRecordInput {
	id: number
	name: string
	latitude: number
	longitude: number
	population: number
	country: number
	area: number
	region: number
	detail: number
}

export interface TownColumns {
	count: number
	header: TownHeader
	ids: Int32Array
	latitudes: Int16Array
	longitudes: Int16Array
	populations: Uint32Array
	nameStarts: Uint32Array
	countries: Uint8Array
	areas: Uint8Array
	details: Uint8Array
	regions: Uint16Array
	names: Uint8Array
}

const pad4 = (n: number) => (n + 3) & ~3

type Columns = Omit<TownColumns, 'count' | 'header' | 'names'>

/** The columns' views over `buffer` from `start`, in the file's order; and where the names begin. */
function columnsOver(buffer: ArrayBufferLike, start: number, count: number): { columns: Columns; end: number } {
	let offset = start
	const column = <T extends Int32Array | Int16Array | Uint32Array | Uint16Array | Uint8Array>(
		Type: { new (b: ArrayBufferLike, o: number, l: number): T },
		length: number,
	) => {
		const array = new Type(buffer, offset, length)
		offset += pad4(length * array.BYTES_PER_ELEMENT)
		return array
	}
	const columns = {
		ids: column(Int32Array, count),
		latitudes: column(Int16Array, count),
		longitudes: column(Int16Array, count),
		populations: column(Uint32Array, count),
		nameStarts: column(Uint32Array, count + 1),
		countries: column(Uint8Array, count),
		areas: column(Uint8Array, count),
		details: column(Uint8Array, count),
		regions: column(Uint16Array, count),
	}
	return { columns, end: offset }
}

/** Bytes the columns take for `count` records (what columnsOver walks through). */
const columnsLength = (count: number) => 4 * count * 2 + 2 * pad4(count * 2) + 4 * (count + 1) + 3 * pad4(count) + pad4(count * 2)

/** Writes the file's bytes; `records` must already be in search order. */
export function encodeTownFile(header: TownHeader, records: TownRecordInput[]): Uint8Array {
	const encoder = new TextEncoder()
	const headerBytes = encoder.encode(JSON.stringify(header))
	const nameBytes = records.map((record) => encoder.encode(record.name))
	const count = records.length
	const namesLength = nameBytes.reduce((sum, bytes) => sum + bytes.length, 0)
	const fixed = 8 + 4 + 4 + pad4(headerBytes.length)
	const bytes = new Uint8Array(fixed + columnsLength(count) + namesLength)
	const view = new DataView(bytes.buffer)
	bytes.set(encoder.encode(MAGIC), 0)
	view.setUint32(8, count, true)
	view.setUint32(12, headerBytes.length, true)
	bytes.set(headerBytes, 16)
	const { columns: c, end } = columnsOver(bytes.buffer, fixed, count)
	let nameOffset = 0
	records.forEach((record, i) => {
		c.ids[i] = record.id
		c.latitudes[i] = Math.round(record.latitude * SCALE)
		c.longitudes[i] = Math.round(record.longitude * SCALE)
		c.populations[i] = record.population
		c.countries[i] = record.country
		c.areas[i] = record.area
		c.details[i] = record.detail
		c.regions[i] = record.region
		c.nameStarts[i] = nameOffset
		bytes.set(nameBytes[i]!, end + nameOffset)
		nameOffset += nameBytes[i]!.length
	})
	c.nameStarts[count] = nameOffset
	return bytes
}

/** Views over a file's bytes (nothing copied but the header). */
export function decodeTownFile(bytes: Uint8Array): TownColumns {
	const buffer = bytes.buffer
	const base = bytes.byteOffset
	if (base % 4 !== 0) return decodeTownFile(bytes.slice())
	if (new TextDecoder().decode(bytes.subarray(0, 8)) !== MAGIC) throw new Error('Not a town file (scripts/build-towns.ts writes it).')
	const view = new DataView(buffer, base)
	const count = view.getUint32(8, true)
	const headerLength = view.getUint32(12, true)
	const header = JSON.parse(new TextDecoder().decode(bytes.subarray(16, 16 + headerLength))) as TownHeader
	const { columns, end } = columnsOver(buffer, base + 16 + pad4(headerLength), count)
	const names = new Uint8Array(buffer, end, columns.nameStarts[count]!)
	return { count, header, ...columns, names }
}

/** The columns in memory, and each record's name read from the file when asked for. */
export interface TownIndex extends Omit<TownColumns, 'names'> {
	name(i: number): string
}

/**
 * The file at `file`, opened for the life of the process: its header and columns read into memory,
 * its names read by position on demand. scripts/build-towns.ts replaces the file by renaming a new
 * one over it, so a rebuild never changes the bytes under an open file.
 */
export function openTownFile(file: string): TownIndex {
	const fd = fs.openSync(file, 'r')
	try {
		const start = Buffer.alloc(16)
		fs.readSync(fd, start, 0, 16, 0)
		if (start.subarray(0, 8).toString('latin1') !== MAGIC) throw new Error('Not a town file (scripts/build-towns.ts writes it).')
		const count = start.readUInt32LE(8)
		const headerLength = start.readUInt32LE(12)
		const fixed = 16 + pad4(headerLength)
		// Its own ArrayBuffer, from offset 0: the typed columns need their offsets aligned.
		const bytes = new Uint8Array(fixed + columnsLength(count))
		if (fs.readSync(fd, bytes, 0, bytes.length, 0) !== bytes.length) throw new Error('The town file is cut short.')
		const header = JSON.parse(new TextDecoder().decode(bytes.subarray(16, 16 + headerLength))) as TownHeader
		const { columns, end: namesAt } = columnsOver(bytes.buffer, fixed, count)
		const decoder = new TextDecoder()
		let scratch = Buffer.alloc(256)
		const name = (i: number) => {
			const from = columns.nameStarts[i]!
			const length = columns.nameStarts[i + 1]! - from
			if (length > scratch.length) scratch = Buffer.alloc(length)
			const read = fs.readSync(fd, scratch, 0, length, namesAt + from)
			return decoder.decode(scratch.subarray(0, read))
		}
		return { count, header, ...columns, name }
	} catch (error) {
		fs.closeSync(fd)
		throw error
	}
}

export const fromScaled = (value: number) => value / SCALE
