import { matchRoutes, type EntryContext, type RouteObject } from 'react-router'
import { routeTree } from './route-tree.ts'

/*
 * What React Router's <ServerRouter> needs of the route table to render one page.
 *
 * On every render it turns `context.manifest.routes` into route objects, builds a router from them
 * (flattening and ranking every branch) and, for the browser's manifest (lazy route discovery),
 * matches « / » and each parent path of the page against them: with our route table, some 8 % of
 * the CPU of a signed-in page, whatever the page. Yet all it reads are the routes of the page's
 * matches and of those parent paths' matches; the browser learns of the others through
 * /__manifest, answered from the whole table. So the render gets a manifest holding those routes
 * alone (and their parents), worked out once per path: the same page, the same manifest in the
 * browser (tests/integration/render-manifest.test.ts), without the table's other 70 routes.
 *
 * Only with lazy discovery: in the « initial » mode the browser gets the whole table in the page.
 */

type Manifest = EntryContext['manifest']

/** The paths <Scripts> matches for the browser's manifest besides the page's own: « / » and each parent. */
function parentPaths(pathname: string): string[] {
	const segments = pathname.split('/').filter(Boolean)
	const paths = ['/']
	segments.pop()
	while (segments.length > 0) {
		paths.push(`/${segments.join('/')}`)
		segments.pop()
	}
	return paths
}

/**
 * `forRender(context)`: the entry context to render with. At most `remembered` pages are kept
 * per build; past that the memory starts over (a crawler's stream of new paths costs one match of
 * the whole table per page, as React Router's own render does).
 */
export function createRenderManifests(remembered = 2_000) {
	const perBuild = new WeakMap<Manifest, { tree: RouteObject[]; known: Map<string, Manifest> }>()

	function trimmed(manifest: Manifest, pathname: string, matchIds: string[]): Manifest {
		let build = perBuild.get(manifest)
		if (!build) {
			build = { tree: routeTree(manifest.routes), known: new Map() }
			perBuild.set(manifest, build)
		}
		const key = `${matchIds.join(' ')} ${pathname}`
		const known = build.known.get(key)
		if (known) return known
		const ids = new Set(matchIds)
		for (const path of parentPaths(pathname)) for (const match of matchRoutes(build.tree, path) ?? []) ids.add(match.route.id!)
		// Every route's parents too: React Router builds the routes it is given as a tree from the root.
		// (A parent added here is visited in turn; its own parents are already in.)
		for (const id of ids) {
			for (let parent = manifest.routes[id]?.parentId; parent && !ids.has(parent); parent = manifest.routes[parent]?.parentId)
				ids.add(parent)
		}
		const routes: Manifest['routes'] = {}
		for (const [id, route] of Object.entries(manifest.routes)) if (ids.has(id)) routes[id] = route
		const result = { ...manifest, routes }
		if (build.known.size >= remembered) build.known.clear()
		build.known.set(key, result)
		return result
	}

	return function forRender(context: EntryContext): EntryContext {
		if (context.isSpaMode || context.routeDiscovery.mode !== 'lazy') return context
		const { location, matches } = context.staticHandlerContext
		const manifest = trimmed(
			context.manifest,
			location.pathname,
			matches.map((match) => match.route.id),
		)
		return { ...context, manifest }
	}
}
