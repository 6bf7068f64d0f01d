import type { RouteConfigEntry } from '@react-router/dev/routes'
import { createStaticHandler, type RouteObject } from 'react-router'
import { unstable_preloadRoutePattern } from 'react-router/route-pattern'
import { describe, expect, test } from 'vitest'
import routes from '../routes.ts'
import { matchesRemembered } from './route-matching.server.ts'

/*
 * The server matches paths with React Router's route-pattern matcher (route-matching.server.ts),
 * the browser with its default one. Both must give the same answer for every path of our table:
 * the same routes, the same parameters, the same matched path. Checked here on every route (each
 * parameter filled with several values, with and without a trailing slash, in capitals, encoded)
 * and on paths no route answers. A route added later with a pattern the two read differently
 * fails here.
 *
 * One difference is known, on paths that end in two slashes or more (`/events//`): the default
 * matcher reads them as the path without them, the route-pattern one sends them to the catch-all.
 * No link of the site makes such a path; a GET or HEAD of it is redirected to the path without the
 * slashes before any loader runs (trailing-slash.server.ts), and a form sent there gets the
 * catch-all's 404 (docs/decisions/server-route-matching.md).
 */

unstable_preloadRoutePattern()

function toRouteObjects(entries: RouteConfigEntry[]): RouteObject[] {
	return entries.map((entry) => {
		const id = entry.id ?? entry.file
		if (entry.index) return { id, index: true, path: entry.path }
		return { id, path: entry.path, ...(entry.children ? { children: toRouteObjects(entry.children) } : {}) }
	})
}

const tree = toRouteObjects(routes)
const byDefault = createStaticHandler(tree)
const byPattern = createStaticHandler(tree, { future: { unstable_routePatternMatching: true } })

/** Every full path of the table (`dashboard/admin/events/:eventId`…), optional segments as written. */
function fullPaths(entries: RouteConfigEntry[], parent = ''): string[] {
	return entries.flatMap((entry) => {
		const own = entry.path ? `${parent}/${entry.path}`.replace(/\/+/g, '/') : parent
		return [...(entry.path || entry.index ? [own || '/'] : []), ...fullPaths(entry.children ?? [], own)]
	})
}

const PARAMETER_VALUES = ['abc123XYZ789', 'new', 'CODE-2026', '%C3%A9t%C3%A9', 'a%2Fb', 'x.y']
const SPLAT_VALUES = ['a', 'a/b/c.webp', 'photo%20de%20sc%C3%A8ne.jpg']

/** Concrete paths for one pattern: each parameter and splat filled in turn with sample values. */
function samplesOf(pattern: string): string[] {
	let paths = [pattern.replace(/\/:[\w-]+\?/g, '')]
	if (pattern.includes('?')) paths.push(pattern.replace(/\?/g, ''))
	for (const [re, values] of [
		[/:[\w-]+/, PARAMETER_VALUES],
		[/\*/, SPLAT_VALUES],
	] as const)
		while (paths.some((path) => re.test(path)))
			paths = paths.flatMap((path) => (re.test(path) ? values.map((value) => path.replace(re, value)) : [path]))
	return paths.flatMap((path) => [path, `${path}/`, `${path}//`, path.toUpperCase(), `${path}/en-trop`])
}

const madeUp = [
	'/',
	'//',
	'/nope',
	'/dashboard//admin',
	'/events/a/b/c',
	'/a%20b',
	'/%E2%82%AC',
	'/dashboard/admin/setlist/x/y/z',
	'/api',
	'/api/',
	'/media',
	'/files/',
	'/.data',
	'/index',
]

function described(matches: ReturnType<typeof byDefault.match>) {
	return matches?.map((match) => ({ id: match.route.id, params: match.params, pathname: match.pathname, base: match.pathnameBase })) ?? null
}

describe('route matching on the server', () => {
	const paths = [...new Set([...fullPaths(routes).flatMap(samplesOf), ...madeUp])]

	test('covers every route of the table', () => {
		const reached = new Set(paths.flatMap((path) => byDefault.match(path)?.map((match) => match.route.id) ?? []))
		const leaves = (entries: RouteConfigEntry[]): string[] =>
			entries.flatMap((e) => (e.children?.length ? leaves(e.children) : [e.id ?? e.file]))
		expect(leaves(routes).filter((id) => !reached.has(id))).toEqual([])
		expect(paths.length).toBeGreaterThan(500)
	})

	test('the route-pattern matcher gives the same matches as the default one, path by path', () => {
		const differing = paths.filter(
			(path) => JSON.stringify(described(byPattern.match(path))) !== JSON.stringify(described(byDefault.match(path))),
		)
		expect(differing.filter((path) => !path.endsWith('//'))).toEqual([])
	})

	test('remembered answers are the answers: asked twice, and with a query string, the same matches', () => {
		expect(matchesRemembered).toBe(true)
		// The handler's matcher is the class that was patched: its matches come back frozen.
		expect(Object.isFrozen(byPattern.match('/dashboard')?.[0])).toBe(true)
		expect(Object.isFrozen(byDefault.match('/dashboard')?.[0])).toBe(false)
		for (const path of paths) {
			const first = JSON.stringify(described(byPattern.match(path)))
			expect(JSON.stringify(described(byPattern.match(path))), path).toBe(first)
			expect(JSON.stringify(described(byPattern.match(`${path}?q=1#x`))), path).toBe(first)
		}
	})

	test('paths ending in two slashes go to the catch-all (a GET of them is redirected by the root middleware first)', () => {
		for (const path of ['//', '/events//', '/dashboard/admin//'])
			expect(byPattern.match(path)?.at(-1)?.route.id, path).toBe('routes/public/catch-all.tsx')
	})
})
