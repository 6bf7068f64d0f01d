import type { UIMatch } from 'react-router'
import { requestStrings } from './browser.ts'

/*
 * Which strings a route's screen needs in the browser: its module says so in its `handle`,
 *
 *     export const handle = routeStrings('events', 'newsletter.signup')
 *
 * naming units of translation.json (./units.ts). A page gets the units of every route it shows,
 * the root's included (the ones every page needs). app/i18n.test.ts checks that each route
 * declares every unit its code (and the code it imports) uses.
 *
 * In the browser the declaration also starts the download, as soon as React Router has loaded the
 * module: on the first load before hydration (which waits for it, app/entry.client.tsx), and on a
 * client-side navigation alongside the route's data (the root waits for it before showing the new
 * screen, <RouteStrings> in ./react.tsx). On the server it does nothing.
 */
export interface StringsHandle {
	strings: readonly string[]
}

export function routeStrings(...units: string[]): StringsHandle {
	if (typeof document !== 'undefined') requestStrings(units)
	return { strings: units }
}

/** The units the routes on screen declare. */
export function unitsOfMatches(matches: readonly UIMatch[]): string[] {
	return matches.flatMap((match) => (match.handle as Partial<StringsHandle> | undefined)?.strings ?? [])
}
