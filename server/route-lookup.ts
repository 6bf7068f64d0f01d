import { matchRoutes, type RouteObject, type ServerBuild } from 'react-router'

/*
 * Which route module answers a path, as React Router itself matches it, for what the server does
 * before React Router runs: the anonymous page cache (is this a page it may keep?) and the
 * metrics (their route label). React Router's public `matchRoutes` flattens and ranks the whole
 * route table on every call (some 0.4 ms of CPU with ours): paths seen lately are remembered.
 */

type RouteNode = { id: string; path?: string; index?: boolean; caseSensitive?: boolean; children?: RouteNode[] }

/** The build's flat route table as the tree React Router matches against. */
function routeTree(routes: ServerBuild['routes']): RouteNode[] {
	const children = new Map<string | undefined, NonNullable<ServerBuild['routes'][string]>[]>()
	for (const route of Object.values(routes)) {
		if (!route) continue
		const siblings = children.get(route.parentId) ?? []
		siblings.push(route)
		children.set(route.parentId, siblings)
	}
	const nodes = (parentId: string | undefined): RouteNode[] =>
		(children.get(parentId) ?? []).map((route) => {
			const below = nodes(route.id)
			return {
				id: route.id,
				path: route.path,
				index: route.index,
				caseSensitive: route.caseSensitive,
				...(below.length > 0 ? { children: below } : {}),
			}
		})
	return nodes(undefined)
}

/**
 * `lookup(pathname)`: the id of the deepest route matching it, or undefined. At most `remembered`
 * paths are kept; past that the memory starts over (a crawler's stream of new paths costs what it
 * cost before, nothing more).
 */
export function createRouteLookup(routes: ServerBuild['routes'], remembered = 2_000) {
	const tree = routeTree(routes) as RouteObject[]
	const known = new Map<string, string | undefined>()
	return (pathname: string): string | undefined => {
		if (known.has(pathname)) return known.get(pathname)
		const id = matchRoutes(tree, pathname)?.at(-1)?.route.id
		if (known.size >= remembered) known.clear()
		known.set(pathname, id)
		return id
	}
}
