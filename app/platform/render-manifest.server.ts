import { matchRoutes, type EntryContext, type RouteObject } from 'react-router'
import { routeTree } from './route-tree.ts'

/*
 * What React Router's <ServerRouter> needs of the route table to render one page.
 *
 * On every render it turns `context.manifest.routes` into route objects and those into data routes:
 * with our table of 74 routes, some 5 % of the CPU of a signed-in page, whatever the page. Yet the
 * render reads only the routes of the page's matches and, for the manifest it writes for the
 * browser (lazy route discovery), those matching « / » and each parent path of the page; the
 * browser learns of the others through /__manifest, answered from the whole table. So the render
 * gets a manifest holding those routes alone (and their parents), worked out once per path: the
 * same page, the same manifest in the browser (tests/integration/render-manifest.test.ts).
 *
 * Only with lazy discovery: in the « initial » mode the browser gets the whole table in the page.
 * See docs/decisions/render-with-matched-routes.md.
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

/** Paths longer or deeper than any page of the site are left to React Router as they are. */
const LONGEST_KEPT_PATH = 512
const DEEPEST_KEPT_PATH = 16

/**
 * `forRender(context)`: the entry context to render with. A path is worked out the second time it
 * is rendered (the first is rendered from the whole table, as React Router does): a stream of
 * made-up addresses never costs the matching of their parent paths. At most `remembered` paths are
 * kept per build, and as many first sightings; past that each memory starts over.
 */
export function createRenderManifests(remembered = 2_000) {
	const perBuild = new WeakMap<Manifest, { tree: RouteObject[]; seen: Set<string>; known: Map<string, Manifest> }>()

	function trimmed(manifest: Manifest, pathname: string, matchIds: string[]): Manifest {
		let build = perBuild.get(manifest)
		if (!build) {
			build = { tree: routeTree(manifest.routes), seen: new Set(), known: new Map() }
			perBuild.set(manifest, build)
		}
		const key = `${matchIds.join(' ')} ${pathname}`
		const known = build.known.get(key)
		if (known) return known
		if (pathname.length > LONGEST_KEPT_PATH) return manifest
		const parents = parentPaths(pathname)
		if (parents.length > DEEPEST_KEPT_PATH) return manifest
		if (!build.seen.has(key)) {
			if (build.seen.size >= remembered) build.seen.clear()
			build.seen.add(key)
			return manifest
		}
		build.seen.delete(key)
		const ids = new Set(matchIds)
		for (const path of parents) for (const match of matchRoutes(build.tree, path) ?? []) ids.add(match.route.id!)
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

	/*
	 * The render also matches « / » and each parent path against the whole table, to list the
	 * routes of the manifest it writes (React Router's router.match(), which is the request
	 * handler's `_match`). For a given table those matches never change: they are kept, per path,
	 * for up to `remembered` paths. Only the routes' ids are read from them.
	 */
	const parentMatches = new WeakMap<Match, Map<string, ReturnType<Match>>>()

	function rememberingMatch(match: Match): Match {
		let known = parentMatches.get(match)
		if (!known) {
			known = new Map()
			parentMatches.set(match, known)
		}
		const memory = known
		return (location) => {
			if (typeof location !== 'string' || location.length > LONGEST_KEPT_PATH) return match(location)
			let matches = memory.get(location)
			if (matches === undefined) {
				matches = match(location)
				if (memory.size >= remembered) memory.clear()
				memory.set(location, matches)
			}
			return matches
		}
	}

	return function forRender(context: EntryContext): EntryContext {
		if (context.isSpaMode || context.routeDiscovery.mode !== 'lazy') return context
		const { location, matches, _match } = context.staticHandlerContext
		const manifest = trimmed(
			context.manifest,
			location.pathname,
			matches.map((match) => match.route.id),
		)
		if (manifest === context.manifest) return context
		return { ...context, manifest, staticHandlerContext: { ...context.staticHandlerContext, _match: rememberingMatch(_match) } }
	}
}

type Match = EntryContext['staticHandlerContext']['_match']
