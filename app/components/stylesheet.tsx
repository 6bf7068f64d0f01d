import { createContext, useContext } from 'react'
import { useMatches } from 'react-router'
import { CACHEABLE_ROUTE_IDS } from '#app/cacheable-pages.ts'

/*
 * The public stylesheet (styles/public.css), in the document or beside it; the dashboard adds its
 * own (routes/dashboard/layout.tsx). The public pages a visitor opens first (the cacheable ones:
 * app/cacheable-pages.ts) carry inline in <head>, for anonymous visitors, the rules of the sheet
 * that they use (platform/critical-css.server.ts): their first paint waits for no second request
 * (on a phone's network, a request costs a round trip or two before the first byte), and the
 * browser parses and matches 15–25 kB of CSS instead of 48 kB. Every other page links the whole
 * sheet: the file is cached once for the whole visit, and per-request pages (dashboard, admin,
 * anything signed in) stay light to render and compress.
 *
 * The rules are chosen once the whole document is written (entry.server.tsx replaces the mark this
 * writes), from the classes in its HTML: a page sent in parts (its shell first) links the sheet. An
 * island that gives an element a class must find it in the page's HTML (a `data-*` attribute:
 * islands/share.ts), or the rule would be missing.
 *
 * In the browser (a page that hydrates: one with a flash message, the dashboard) the context says
 * false, so the <link> is rendered: React leaves the server's <style> in place (another resource
 * key) and adds the whole sheet, which covers whatever the page renders from then on. Before this,
 * the landing, /events and the event page linked the sheet: the whole of it inline (8.6 kB
 * compressed) took their HTML past what a new connection sends in its first round trip; their part
 * (5–6 kB) does not (docs/decisions/0033-critical-css.md).
 */
const INLINE_ROUTE_IDS: ReadonlySet<string> = CACHEABLE_ROUTE_IDS

/** What the inline <style> holds until entry.server.tsx puts the page's rules in its place. */
export const CRITICAL_CSS_MARK = '/*critical-css*/'

const InlineContext = createContext(false)

/** Set by entry.server.tsx: whether the document is written whole (then its stylesheet may go inline). */
export const StylesheetInlineProvider = InlineContext.Provider

/**
 * Whether a page of this (leaf) route may carry its stylesheet inline: only then can its document
 * hold the mark, and only then does entry.server.tsx look for it.
 */
export function mayInlineStylesheet(routeId: string | undefined): boolean {
	return routeId !== undefined && INLINE_ROUTE_IDS.has(routeId)
}

/** `signedIn`: whether the page is rendered for a signed-in member (then always linked). */
export function Stylesheet({ href, signedIn }: { href: string; signedIn: boolean }) {
	const whole = useContext(InlineContext)
	const routeId = useMatches().at(-1)?.id
	if (whole && !signedIn && mayInlineStylesheet(routeId)) {
		return (
			<style href={href} precedence="default">
				{CRITICAL_CSS_MARK}
			</style>
		)
	}
	return <link rel="stylesheet" href={href} precedence="default" />
}
