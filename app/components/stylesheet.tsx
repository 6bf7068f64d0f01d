import { createContext, useContext } from 'react'
import { useMatches } from 'react-router'
import { CACHEABLE_ROUTE_IDS } from '#app/cacheable-pages.ts'

/*
 * The public stylesheet (styles/public.css), in the document or beside it; the dashboard adds its
 * own (routes/dashboard/layout.tsx). The public pages a visitor opens first (the cacheable ones:
 * app/cacheable-pages.ts) carry it inline in <head> for anonymous visitors, so that their first
 * paint waits for no second request (on a phone's network, a request costs a round
 * trip or two before the first byte). Every other page links it: the file is cached once for the
 * whole visit, and per-request pages (dashboard, admin, anything signed in) stay light to render
 * and compress.
 *
 * Not the landing, /events nor the event page: inline, the sheet (8.6 kB compressed) takes their
 * HTML past what a new connection sends in its first round trip, and everything the first paint
 * also needs (the fonts, the cover) is asked for only once the HTML has arrived. Linked, the sheet
 * comes beside the fonts and the cover. Measured with Lighthouse (mobile, paired runs, medians of
 * 4, with the font subsets): linked, the landing's largest paint came 0.15 s sooner and the event
 * page's 0.3 s sooner, /events' no later. The sign-in page's HTML and sheet fit in one round trip:
 * there, inline, its largest paint came 0.25–0.5 s sooner.
 *
 * In the browser the text is not known (the server alone holds it): React adopts the <style> the
 * server sent (same href key) instead of making a new one, and after a navigation to a linked page
 * it adds the <link>, which then covers everything.
 */
const INLINE_ROUTE_IDS: ReadonlySet<string> = new Set(
	[...CACHEABLE_ROUTE_IDS].filter((id) => !['routes/public/home', 'routes/public/events', 'routes/public/event'].includes(id)),
)

const StylesheetTextContext = createContext<string | undefined>(undefined)

/** Set by entry.server.tsx: the stylesheet's text, for the pages that inline it. */
export const StylesheetTextProvider = StylesheetTextContext.Provider

/** `signedIn`: whether the page is rendered for a signed-in member (then always linked). */
export function Stylesheet({ href, signedIn }: { href: string; signedIn: boolean }) {
	const text = useContext(StylesheetTextContext)
	const routeId = useMatches().at(-1)?.id
	if (!signedIn && routeId && INLINE_ROUTE_IDS.has(routeId)) {
		return (
			<style href={href} precedence="default">
				{text ?? ''}
			</style>
		)
	}
	return <link rel="stylesheet" href={href} precedence="default" />
}
