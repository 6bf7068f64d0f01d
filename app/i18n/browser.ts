import STRINGS_VERSION from 'virtual:strings-version'
import type { Resources } from './translate.ts'

/*
 * The browser's strings: only the units (./units.ts) that the routes on screen declare
 * (./route-strings.ts), each one a file of its own, built from translation.json and named by its
 * version, so that it is cached for good (scripts/strings-plugin.ts). They are merged into one tree
 * as they arrive. The server renders with every string and needs none of this.
 */
const RETRIES = 5
const FIRST_DELAY_MS = 350
/** At most this many files are read at once. */
const PARALLEL_READS = 10

/** The strings loaded so far: what the browser's translator reads. */
export const browserStrings: Resources = {}

const loaded = new Set<string>()
const inFlight = new Map<string, Promise<void>>()
/** Every load the routes asked for, for the first render to wait on. */
const requested: Promise<void>[] = []
/** What a render waits on, per set of missing units: the same promise for every render that asks. */
const pendingRenders = new Map<string, Promise<void>>()

export function stringsUrl(unit: string): string {
	return `/assets/strings/${STRINGS_VERSION}/${unit}.json`
}

let reading = 0
const queue: (() => void)[] = []

async function inTurn<T>(work: () => Promise<T>): Promise<T> {
	if (reading < PARALLEL_READS) reading++
	else await new Promise<void>((resolve) => queue.push(resolve))
	try {
		return await work()
	} finally {
		// A read that ends hands its turn to the next one waiting, or gives it back.
		const next = queue.shift()
		if (next) next()
		else reading--
	}
}

/** Reads one unit's file: up to 5 retries, from 350 ms and doubling. */
export async function fetchUnit(unit: string, fetcher: typeof fetch = fetch): Promise<Resources> {
	const url = stringsUrl(unit)
	let delay = FIRST_DELAY_MS
	for (let attempt = 0; ; attempt++) {
		let failure: unknown
		try {
			const strings = await inTurn(async () => {
				const response = await fetcher(url, { credentials: 'same-origin' })
				if (!response.ok) throw new Error(`${url}: ${response.status}`)
				return (await response.json()) as Resources
			})
			return strings
		} catch (error) {
			failure = error
		}
		if (attempt >= RETRIES) throw failure
		await new Promise((resolve) => setTimeout(resolve, delay))
		delay *= 2
	}
}

function isLoaded(unit: string): boolean {
	return loaded.has(unit) || loaded.has(unit.split('.')[0]!)
}

function merge(unit: string, strings: Resources) {
	const [namespace, group] = unit.split('.') as [string, string | undefined]
	const current = browserStrings[namespace]
	const tree = typeof current === 'object' ? current : {}
	browserStrings[namespace] = group === undefined ? { ...tree, ...strings } : { ...tree, [group]: strings }
	loaded.add(unit)
}

/** Loads the units not loaded yet; settles when all of them are there (or one could not be read). */
export function loadStrings(units: readonly string[], fetcher: typeof fetch = fetch): Promise<void> {
	return Promise.all(
		units
			.filter((unit) => !isLoaded(unit))
			.map((unit) => {
				let load = inFlight.get(unit)
				if (!load) {
					load = fetchUnit(unit, fetcher)
						.then((strings) => merge(unit, strings))
						.finally(() => inFlight.delete(unit))
					inFlight.set(unit, load)
				}
				return load
			}),
	).then(() => undefined)
}

/** Starts loading what a route declares, as soon as its module is there (see ./route-strings.ts). */
export function requestStrings(units: readonly string[]) {
	const load = loadStrings(units)
	// A failure is seen by whoever waits: the first render (stringsRequested) or the route's render.
	load.catch(() => {})
	requested.push(load)
}

/** Settles when every unit asked for so far is loaded: the page's first render waits for it. */
export function stringsRequested(): Promise<void> {
	return Promise.all(requested).then(() => undefined)
}

/**
 * For a render that needs these units: null when they are all there, or else one promise (the same
 * for every render that asks) that settles when they are. When they cannot be read, the page is
 * loaded again from the server, which renders it with every string.
 */
export function pendingStrings(units: readonly string[]): Promise<void> | null {
	const missing = [...new Set(units)].filter((unit) => !isLoaded(unit)).sort()
	if (missing.length === 0) return null
	const key = missing.join(' ')
	let pending = pendingRenders.get(key)
	if (!pending) {
		pending = loadStrings(missing)
			.catch(() => {
				window.location.reload()
				return new Promise<void>(() => {})
			})
			.finally(() => pendingRenders.delete(key))
		pendingRenders.set(key, pending)
	}
	return pending
}
