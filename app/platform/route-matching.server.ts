import type { EntryContext, ServerBuild } from 'react-router'
import { unstable_preloadRoutePattern } from 'react-router/route-pattern'
import { rememberMatches, type PathMatcher } from './route-match-memo.server.ts'

/*
 * How the server matches a path against the route table. React Router matches a signed-in page's
 * path three times (its request handler twice, then the render for the manifest it writes in the
 * page). Its default matcher tries the ranked branches of the whole table one by one, each with a
 * regular expression per level: some 50 µs per match with our 74 routes, 8 % of the CPU of the
 * dashboard. Its route-pattern matcher (`future.unstable_routePatternMatching`) finds the
 * candidates in a tree of the patterns: some 13 µs, with the same matches for every path of our
 * table (app/platform/route-matching.server.test.ts compares the two on each route and on paths
 * no route answers).
 *
 * The flag is the server's alone. The browser keeps React Router's default matcher (it matches a
 * handful of routes, and the other one would add its code to every page), so the flag is taken out
 * of what the page tells the browser (`forBrowser`), including the pages the page cache keeps. The
 * server (server/main.ts) gets `withServerRouteMatching` from the build's entry, so that a build
 * and the flag it hides always go together.
 *
 * Each answer of that matcher is kept for its path (route-match-memo.server.ts): the same few paths
 * come again and again, and a kept answer costs a map lookup instead of a match.
 * See docs/decisions/server-route-matching.md.
 */

/*
 * React Router does not export the matcher's class; its module sits next to the entry that
 * preloads it (the same file, so the same class React Router instantiates). When it is not there (a
 * React Router whose files moved), matching goes on unremembered, as correct as before; a test
 * fails so that the loss is seen.
 */
const matcherModule = new URL('./lib/router/matcher-route-pattern.js', import.meta.resolve('react-router/route-pattern'))
const matcherClass = await import(/* @vite-ignore */ matcherModule.href).then(
	(module: { RoutePatternDataRouteMatcher?: { prototype: PathMatcher } }) => module.RoutePatternDataRouteMatcher,
	() => undefined,
)
/** Whether the server's matches are remembered (false only if React Router's files moved). */
export const matchesRemembered = matcherClass ? rememberMatches(matcherClass.prototype) : false

const FLAG = 'unstable_routePatternMatching'

/** The build as the server's request handler should get it: matching with route patterns. */
export function withServerRouteMatching(build: ServerBuild): ServerBuild {
	unstable_preloadRoutePattern()
	// Last of the flags, so that its member in the page's JSON is always `,"…":true}` (forBrowser).
	const { [FLAG]: _given, ...future } = build.future as ServerBuild['future'] & { [FLAG]?: boolean }
	return {
		...build,
		// React Router's type of the framework's flags does not list this data-router flag.
		future: { ...future, [FLAG]: true } as unknown as ServerBuild['future'],
	}
}

/** The member React Router writes for the flag in the page's `__reactRouterContext` (JSON). */
const HANDOFF_MEMBER = `,"${FLAG}":true}`

/**
 * The render's context without the server's own flag: React Router writes `future` in the page
 * (`window.__reactRouterContext`), from the context and from a JSON string made beforehand.
 */
export function forBrowser(context: EntryContext): EntryContext {
	if (!(FLAG in context.future)) return context
	const { [FLAG]: _serverOnly, ...future } = context.future as EntryContext['future'] & { [FLAG]?: boolean }
	return { ...context, future, serverHandoffString: context.serverHandoffString?.replace(HANDOFF_MEMBER, '}') }
}
