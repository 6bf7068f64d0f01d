import { LRUCache } from 'lru-cache'

/*
 * React Router's `/__manifest` (lazy route discovery) matches every path a browser asks about:
 * the links of a page whose routes it has not met yet, all in one request. Each path costs some
 * 90 µs of CPU, and one request may list 1,700 made-up paths (React Router refuses URLs over 7,680
 * characters): 90–210 ms per request, for anyone, without a cookie. So each client address gets a
 * budget of paths per window; past it, a short 429 until the window ends. A browser's own requests
 * stay far below it (a page sends its undiscovered links once, tens to a few hundred paths); when
 * one is refused, React Router only logs it. A small request (`SMALL` paths or fewer: what React
 * Router asks when a link is followed, the path and its parents) is never counted nor refused, so
 * a navigation never fails on it, even for many visitors behind one address; it costs no more
 * than a page.
 */

export interface ManifestBudgetOptions {
	/** Paths one address may have matched per window. */
	paths: number
	windowMs: number
	/** Addresses remembered at most; past that the least recently seen is forgotten. */
	addresses: number
}

const DEFAULTS: ManifestBudgetOptions = { paths: 10_000, windowMs: 10_000, addresses: 10_000 }
/** Requests asking for this many paths or fewer are always answered. */
export const SMALL = 16

/** The distinct paths a `/__manifest` query asks about (React Router's own reading of it). */
export function pathsAskedFor(search: string): number {
	const list = new URLSearchParams(search).get('paths')
	return list ? new Set(list.split(',').filter(Boolean)).size : 0
}

/** `allow(address, search)`: whether this request still fits the address's budget (and spends it). */
export function createManifestBudget(options: Partial<ManifestBudgetOptions> = {}) {
	const { paths, windowMs, addresses } = { ...DEFAULTS, ...options }
	const spent = new LRUCache<string, { paths: number; since: number }>({ max: addresses })
	return function allow(address: string, search: string, now = Date.now()): boolean {
		const asked = pathsAskedFor(search)
		if (asked <= SMALL) return true
		let entry = spent.get(address)
		if (!entry || now - entry.since >= windowMs) {
			entry = { paths: 0, since: now }
			spent.set(address, entry)
		}
		if (entry.paths + asked > paths) return false
		entry.paths += asked
		return true
	}
}
