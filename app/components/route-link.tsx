import { useCallback, type ComponentProps, type MouseEvent } from 'react'
import { useLocation, useNavigate } from 'react-router'

/*
 * A link to a page of the site by its absolute path, for the links a screen repeats (a table's
 * rows, tabs, the navigation). React Router's <Link> resolves its path twice and makes a navigate
 * function in every link at every render: with some twenty of them, 5 % of the admin's list of
 * events' CPU per request. Here the link is a plain <a> marked `data-route-link`, and one click
 * handler of the whole page (useRouteLinks, on the root's <body>) turns a plain click on it into the
 * router's client-side navigation, as <Link> does. A page without React Router's scripts (app/hydration.ts)
 * follows it as a full navigation, as <Link> there.
 */

const MARK = 'data-route-link'

type RouteLinkProps = Omit<ComponentProps<'a'>, 'href'> & {
	/** An absolute path, with its query and hash if any (`/dashboard/admin/events?tab=past`). */
	to: string
}

export function RouteLink({ to, children, ...props }: RouteLinkProps) {
	return (
		<a {...props} href={to} data-route-link="">
			{children}
		</a>
	)
}

/** Whether a click is a plain one, which <Link> turns into a client-side navigation. */
function isPlainClick(event: MouseEvent<Element>): boolean {
	return event.button === 0 && !event.defaultPrevented && !event.metaKey && !event.altKey && !event.ctrlKey && !event.shiftKey
}

/**
 * The click handler of the whole page (the root's <body>), which follows a plain click on a
 * RouteLink with the router as <Link> would: the same path again replaces the history entry instead
 * of adding one. A React handler rather than a listener added once the page is hydrated: a click
 * made while React still hydrates the page is replayed once it is done, as a <Link>'s.
 */
export function useRouteLinks() {
	const navigate = useNavigate()
	const location = useLocation()
	const here = location.pathname + location.search + location.hash
	return useCallback(
		(event: MouseEvent<Element>) => {
			if (!isPlainClick(event) || !(event.target instanceof Element)) return
			const link = event.target.closest(`a[${MARK}]`)
			if (!(link instanceof HTMLAnchorElement) || (link.target && link.target !== '_self') || link.origin !== window.location.origin) return
			event.preventDefault()
			const to = link.pathname + link.search + link.hash
			void navigate(to, { replace: to === here })
		},
		[navigate, here],
	)
}
