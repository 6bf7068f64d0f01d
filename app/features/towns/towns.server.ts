import path from 'node:path'
import { foldTownName } from './fold.ts'
import { townLabel } from './label.ts'
import { fromScaled, openTownFile, type TownIndex } from './town-file.ts'

/*
 * The town list (town-file.ts), opened from the build's `towns.bin` the first time a town is looked
 * up, and kept: its columns as typed arrays over one buffer (2.6 MB), its names read from the file
 * when needed. Suggestions by prefix (accents and case
 * folded), and the server's own resolution of what a form sent: a town's label, or a bare name
 * when it names one town (else the form asks which). No coordinates are ever taken from a form.
 */

export interface Town {
	/** GeoNames' id: stable across releases of the list. */
	id: number
	name: string
	/** Unique: « Saint-Denis (Seine-Saint-Denis) ». */
	label: string
	latitude: number
	longitude: number
	countryCode: string
	population: number
}

export type TownResolution =
	| { status: 'found'; town: Town }
	| { status: 'ambiguous'; choices: Town[] }
	| { status: 'unknown'; suggestions: Town[] }
	| { status: 'unavailable' }

/** France and its overseas departments and territories, which GeoNames lists as countries of their own. */
const FRANCE = new Set(['FR', 'RE', 'GP', 'MQ', 'GF', 'YT', 'PM', 'BL', 'MF', 'NC', 'PF', 'WF'])
/** Letters before suggestions start (one letter matches thousands of towns). */
export const SUGGEST_MIN_LENGTH = 2
/** How many namesakes a form offers to choose from. */
const CHOICES = 8
/** A namesake this many times more populous than the next is the one meant by the bare name. */
const DOMINANT_RATIO = 10

let columns: TownIndex | null | undefined

/** The file: TOWNS_FILE, else towns.bin in the build folder (scripts/build-towns.ts writes it there). */
function townFile(): string {
	return process.env.TOWNS_FILE ?? path.resolve(process.env.BUILD_DIR ?? 'build', 'towns.bin')
}

function load(): TownIndex | null {
	if (columns !== undefined) return columns
	try {
		columns = openTownFile(townFile())
	} catch (error) {
		console.error(`The town list could not be read (${townFile()}): ${(error as Error).message}. Run npm run build.`)
		columns = null
	}
	return columns
}

function townAt(c: TownIndex, i: number): Town {
	const [countryCode, countryName] = c.header.countries[c.countries[i]!]!
	const name = c.name(i)
	const area = c.areas[i]! ? c.header.areas[c.areas[i]! - 1]! : null
	const population = c.populations[i]!
	return {
		id: c.ids[i]!,
		name,
		label: townLabel({ name, countryCode, countryName, area, region: c.header.regions[c.regions[i]!]!, population, detail: c.details[i]! }),
		latitude: fromScaled(c.latitudes[i]!),
		longitude: fromScaled(c.longitudes[i]!),
		countryCode,
		population,
	}
}

/** The first record whose folded name is ≥ `key` (records are sorted by folded name). */
function lowerBound(c: TownIndex, key: string): number {
	let low = 0
	let high = c.count
	while (low < high) {
		const middle = (low + high) >>> 1
		if (foldTownName(c.name(middle)) < key) low = middle + 1
		else high = middle
	}
	return low
}

/** The records whose folded name starts with `key`, and those whose name is `key` exactly (a range at its start). */
function rangeOf(c: TownIndex, key: string): { start: number; exactEnd: number; end: number } {
	const start = lowerBound(c, key)
	return { start, exactEnd: lowerBound(c, `${key}\u0000`), end: lowerBound(c, `${key}\uffff`) }
}

/** The best `limit` records of a range, read from the columns alone: same name, then France, then population. */
function best(c: TownIndex, range: { start: number; exactEnd: number; end: number }, limit: number): number[] {
	const french = c.header.countries.map(([code]) => FRANCE.has(code))
	const score = (i: number) => (i < range.exactEnd ? 2e10 : 0) + (french[c.countries[i]!] ? 1e10 : 0) + c.populations[i]!
	const top: number[] = []
	for (let i = range.start; i < range.end; i++) {
		if (top.length === limit && score(i) <= score(top[limit - 1]!)) continue
		let at = top.length === limit ? limit - 1 : top.length
		while (at > 0 && score(top[at - 1]!) < score(i)) {
			top[at] = top[at - 1]!
			at--
		}
		top[at] = i
		if (top.length > limit) top.length = limit
	}
	return top
}

const inFrance = (town: Town) => FRANCE.has(town.countryCode)

/** Up to `limit` towns whose name starts with what was typed (accents, case, hyphens folded). */
export function suggestTowns(query: string, limit = 8): Town[] {
	const key = foldTownName(query.replace(/\s*\(.*$/, ''))
	if (key.length < SUGGEST_MIN_LENGTH) return []
	const c = load()
	if (!c) return []
	return best(c, rangeOf(c, key), limit).map((i) => townAt(c, i))
}

/** A town by its id (a stored subscriber's, an event's), or null when the list no longer has it. */
export function townById(id: number): Town | null {
	const c = load()
	if (!c) return null
	const i = c.ids.indexOf(id)
	return i === -1 ? null : townAt(c, i)
}

/**
 * What a form's town field names: a suggestion's label exactly (case and accents folded), or a bare
 * name that one town carries. Among namesakes, the one in France (overseas included) when it is the
 * only one there, or one far more populous than the rest; otherwise the person is asked which.
 */
export function resolveTown(text: string): TownResolution {
	const c = load()
	if (!c) return { status: 'unavailable' }
	const typed = foldTownName(text)
	const nameKey = foldTownName(text.replace(/\s*\(.*$/, ''))
	if (!nameKey) return { status: 'unknown', suggestions: [] }
	const range = rangeOf(c, nameKey)
	const namesakes = best(c, { ...range, end: range.exactEnd }, range.exactEnd - range.start).map((i) => townAt(c, i))
	const byLabel = namesakes.find((town) => foldTownName(town.label) === typed)
	if (byLabel) return { status: 'found', town: byLabel }
	if (namesakes.length === 0) return { status: 'unknown', suggestions: nearby(nameKey) }
	if (text.includes('(') && namesakes.length > 1) return { status: 'ambiguous', choices: namesakes.slice(0, CHOICES) }
	const french = namesakes.filter(inFrance)
	const pool = (french.length > 0 ? french : namesakes).sort((a, b) => b.population - a.population)
	const [first, second] = pool
	if (first && (!second || first.population >= DOMINANT_RATIO * second.population)) return { status: 'found', town: first }
	return { status: 'ambiguous', choices: namesakes.slice(0, CHOICES) }
}

/** For a name the list does not have: towns starting like it (the typed name less its last letters). */
function nearby(key: string): Town[] {
	for (let length = key.length - 1; length >= SUGGEST_MIN_LENGTH + 1; length--) {
		const found = suggestTowns(key.slice(0, length), 5)
		if (found.length > 0) return found
	}
	return []
}

/**
 * A venue's town: its city as typed in the event editor (or one of the labels the editor offered),
 * in its country. One town of that name there, or one far more populous than its namesakes, is
 * found; several are offered to choose from; none leaves the venue without coordinates.
 */
export function resolveTownIn(text: string, countryCode: string): TownResolution {
	const c = load()
	if (!c) return { status: 'unavailable' }
	const nameKey = foldTownName(text.replace(/\s*\(.*$/, ''))
	if (!nameKey) return { status: 'unknown', suggestions: [] }
	const range = rangeOf(c, nameKey)
	const namesakes = best(c, { ...range, end: range.exactEnd }, range.exactEnd - range.start)
		.map((i) => townAt(c, i))
		.filter((town) => town.countryCode === countryCode.toUpperCase())
	const byLabel = namesakes.find((town) => foldTownName(town.label) === foldTownName(text))
	if (byLabel) return { status: 'found', town: byLabel }
	const [first, second] = namesakes
	if (!first) return { status: 'unknown', suggestions: [] }
	if (!second || first.population >= DOMINANT_RATIO * second.population) return { status: 'found', town: first }
	return { status: 'ambiguous', choices: namesakes.slice(0, CHOICES) }
}

/** A town's region: a French region's name (mainland and Corsica), else its country's French name. */
function regionAt(c: TownIndex, i: number): string {
	const [code, countryName] = c.header.countries[c.countries[i]!]!
	if (code !== 'FR') return countryName
	return c.header.regionNames?.[c.header.regions[c.regions[i]!]!] ?? countryName
}

/**
 * Where towns are, for the stats by region: each id's French region (mainland and Corsica), else
 * its country's French name (overseas departments are listed as countries: « La Réunion »). An id
 * the list no longer has is left out. One pass over the ids, however many are asked: the records are
 * in name order, and an index by id would cost half a megabyte more of memory.
 */
export function regionsOfTowns(ids: Iterable<number>): Map<number, string> {
	const found = new Map<number, string>()
	const c = load()
	if (!c) return found
	const wanted = new Set(ids)
	for (let i = 0; i < c.count && found.size < wanted.size; i++) {
		const id = c.ids[i]!
		if (wanted.has(id)) found.set(id, regionAt(c, i))
	}
	return found
}
