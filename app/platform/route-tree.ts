import type { RouteObject } from 'react-router'

/*
 * React Router hands the server its routes as a flat table (the build's `routes`, the browser's
 * manifest), each row naming its parent. Matching a path outside React Router's own handler needs
 * them as the tree it matches against, children in the table's order, as React Router builds it.
 */

type RouteRow = { id: string; parentId?: string; path?: string; index?: boolean; caseSensitive?: boolean }

/** The flat route table as the tree React Router matches against (ids, paths, index flags only). */
export function routeTree(routes: Record<string, RouteRow | undefined>): RouteObject[] {
	const children = new Map<string | undefined, RouteRow[]>()
	for (const route of Object.values(routes)) {
		if (!route) continue
		const siblings = children.get(route.parentId) ?? []
		siblings.push(route)
		children.set(route.parentId, siblings)
	}
	const nodes = (parentId: string | undefined): RouteObject[] =>
		(children.get(parentId) ?? []).map((route) => {
			const below = nodes(route.id)
			const node = { id: route.id, path: route.path, caseSensitive: route.caseSensitive }
			return route.index ? { ...node, index: true } : { ...node, ...(below.length > 0 ? { children: below } : {}) }
		})
	return nodes(undefined)
}
