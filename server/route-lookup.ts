import { matchRoutes, type ServerBuild } from 'react-router'
import { routeTree } from '../app/platform/route-tree.ts'

/*
 * Which route module answers a path, as React Router itself matches it, for what the server does
 * before React Router runs: the anonymous page cache (is this a page it may keep?) and the
 * metrics (their route label). React Router's public `matchRoutes` flattens and ranks the whole
 * route table on every call (some 0.4 ms of CPU with ours): paths seen lately are remembered.
 */

/**
 * `lookup(pathname)`: the id of the deepest route matching it, or undefined. At most `remembered`
 * paths are kept; past that the memory starts over (a crawler's stream of new paths costs what it
 * cost before, nothing more).
 */
export function createRouteLookup(routes: ServerBuild['routes'], remembered = 2_000) {
	const tree = routeTree(routes)
	const known = new Map<string, string | undefined>()
	return (pathname: string): string | undefined => {
		if (known.has(pathname)) return known.get(pathname)
		const id = matchRoutes(tree, pathname)?.at(-1)?.route.id
		if (known.size >= remembered) known.clear()
		known.set(pathname, id)
		return id
	}
}
