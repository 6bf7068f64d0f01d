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
 * Not the landing nor the event page. Their HTML is already the largest (28–30 kB), and the sheet
 * takes it past what a new connection sends in its first round trip. Measured with Lighthouse
 * (mobile, paired runs): with the whole sheet (12 kB compressed) the landing's first paint came
 * later, and the event page's cover (its largest paint) about 0.4 s later; with the public sheet
 * alone (public.css, 8.6 kB) the landing's first paint came about 0.1 s sooner but its largest
 * paint (the monogram, which waits for the display face) no sooner, and the cover still later.
 * The sign-in page and /events gained 0.25–0.5 s of LCP.
 *
 * In the browser the text is not known (the server alone holds it): React adopts the <style> the
 * server sent (same href key) instead of making a new one, and after a navigation to a linked page
 * it adds the <link>, which then covers everything.
 */
const INLINE_ROUTE_IDS: ReadonlySet<string> = new Set(
	[...CACHEABLE_ROUTE_IDS].filter((id) => id !== 'routes/public/event' && id !== 'routes/public/home'),
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
