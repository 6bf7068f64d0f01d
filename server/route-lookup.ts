import { LRUCache } from 'lru-cache'
import { matchRoutes, type ServerBuild } from 'react-router'
import { routeTree } from '../app/platform/route-tree.ts'

/*
 * Which route module answers a path, as React Router itself matches it, for what the server does
 * before React Router runs: the anonymous page cache (is this a page it may keep?) and the
 * metrics (their route label). React Router's public `matchRoutes` flattens and ranks the whole
 * route table on every call (some 0.4 ms of CPU with ours): paths seen lately are remembered.
 */

/** What is remembered of a path no route matches (lru-cache keeps no undefined). */
const NO_ROUTE = ''

/**
 * `lookup(pathname)`: the id of the deepest route matching it, or undefined. At most `remembered`
 * paths are kept, the least recently used going first (a crawler's stream of new paths costs what
 * it cost before, nothing more).
 */
export function createRouteLookup(routes: ServerBuild['routes'], remembered = 2_000) {
	const tree = routeTree(routes)
	const known = new LRUCache<string, string>({ max: remembered })
	return (pathname: string): string | undefined => {
		let id = known.get(pathname)
		if (id === undefined) {
			id = matchRoutes(tree, pathname)?.at(-1)?.route.id ?? NO_ROUTE
			known.set(pathname, id)
		}
		return id === NO_ROUTE ? undefined : id
	}
}
