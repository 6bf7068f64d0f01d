/*
 * The one rule of the browser's scripts: which pages get React Router's scripts (hydration,
 * client-side navigation, the route modules and their preloads) and which are HTML and CSS alone
 * (docs/decisions/0027-html-first-public-pages.md).
 *
 * A page hydrates when one of the routes it shows asks for it in its handle,
 *
 *     export const handle = hydrated(routeStrings('dashboard'))
 *
 * (the signed-in areas: the dashboard's layout covers every screen under it, and the admin's pages
 * outside that frame ask for themselves), or when it carries a flash message (the toast closes,
 * pauses and is read out by script). Every other page is sent without a single script of React
 * Router's: its links are full navigations (answered from the anonymous page cache), its forms post
 * as plain forms (the server validates them and renders its French messages next to the fields,
 * input kept), and what little is interactive there is a small island of its own
 * (app/islands/).
 *
 * The root applies the rule (app/root.tsx: `<Scripts>` and `<ScrollRestoration>` only then), and
 * so does app/entry.server.tsx (a page without scripts is always sent whole: a streamed one would
 * need React's inline scripts to put its late parts in place). tests/integration/html-first.test.ts
 * walks every route of app/routes.ts and checks what each page sends.
 */
import { useMatches, useRouteLoaderData } from 'react-router'

export interface HydrationHandle {
	hydrate: true
}

/** A route's handle that asks for React Router's scripts on every page the route shows. */
export function hydrated<Handle extends object>(handle: Handle): Handle & HydrationHandle {
	return { ...handle, hydrate: true }
}

/** Whether a page hydrates: the handles of the routes it shows, and whether it carries a flash message. */
export function pageHydrates(handles: readonly unknown[], options: { flash?: boolean } = {}): boolean {
	if (options.flash) return true
	return handles.some((handle) => (handle as Partial<HydrationHandle> | undefined)?.hydrate === true)
}

/** Whether the page being rendered hydrates (for the root, and for what a page without React replaces by an island). */
export function usePageHydrates(): boolean {
	const matches = useMatches()
	const root = useRouteLoaderData('root') as { flash?: unknown } | undefined
	return pageHydrates(
		matches.map((match) => match.handle),
		{ flash: Boolean(root?.flash) },
	)
}
