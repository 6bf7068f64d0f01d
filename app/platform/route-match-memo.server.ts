/*
 * Matching a path against the route table, once per path. React Router matches a signed-in page's
 * path three times per request (its request handler twice, the render once), each time through a
 * tree of patterns and a regular expression per level: under load, with React's rendering between
 * the calls, some 10 % of the dashboard's CPU. The answer depends on the path alone (the route
 * table of a build does not change while the server runs; when the matcher is given routes again,
 * what it remembered is dropped), so each answer is kept per matcher and path.
 *
 * - Only the path is the key: a query string or fragment does not change the match.
 * - At most 500 paths per matcher; a path that was never seen costs one match as before, and the
 *   oldest one kept makes room (paths made up by a bot cannot grow the memory).
 * - Every caller gets its own array; the match objects and their parameters are shared between
 *   requests, so they are frozen: code that would write in them fails loudly instead of changing
 *   another visitor's request.
 */

export interface PathMatcher {
	match(location: unknown, allowPartial?: boolean): object[] | null
	update(routes: unknown): unknown
}

const LIMIT = 500
const remembered = new WeakMap<object, Map<string, readonly object[] | null>>()
const patched = new WeakSet<object>()

/** The path part of what React Router gives its matcher (a path string or a location). */
function pathOf(location: unknown): string | undefined {
	if (typeof location === 'string') {
		const end = location.search(/[?#]/)
		return end === -1 ? location : location.slice(0, end)
	}
	if (location && typeof location === 'object') {
		const { pathname } = location as { pathname?: unknown }
		return typeof pathname === 'string' ? pathname : pathname === undefined ? '' : undefined
	}
	return undefined
}

function freezeMatch(match: object): object {
	const { params } = match as { params?: object }
	if (params) Object.freeze(params)
	return Object.freeze(match)
}

/** Makes every matcher of this class remember its answers; false if it already did. */
export function rememberMatches(prototype: PathMatcher): boolean {
	if (patched.has(prototype)) return true
	patched.add(prototype)
	const { match, update } = prototype
	prototype.update = function (this: PathMatcher, routes) {
		remembered.delete(this)
		return update.call(this, routes)
	}
	prototype.match = function (this: PathMatcher, location, allowPartial = false) {
		const path = pathOf(location)
		if (path === undefined) return match.call(this, location, allowPartial)
		let byPath = remembered.get(this)
		if (!byPath) remembered.set(this, (byPath = new Map()))
		const key = allowPartial ? `partial ${path}` : path
		let found = byPath.get(key)
		if (found === undefined) {
			const matches = match.call(this, location, allowPartial)
			found = matches && Object.freeze(matches.map(freezeMatch))
			if (byPath.size >= LIMIT) byPath.delete(byPath.keys().next().value!)
			byPath.set(key, found)
		}
		return found && [...found]
	}
	return true
}
