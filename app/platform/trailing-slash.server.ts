import { redirect } from 'react-router'

/**
 * `/events/` and `/dashboard/admin/events/` (a missing id) go to the list without the slash:
 * every path that ends in a slash is sent to the same path without it, query kept.
 */
export const trailingSlashMiddleware = ({ request }: { request: Request }) => {
	const url = new URL(request.url)
	if (url.pathname.length > 1 && url.pathname.endsWith('/') && (request.method === 'GET' || request.method === 'HEAD')) {
		// Leading slashes collapsed too: `//evil.example/` must never become `Location: //evil.example`.
		const pathname = url.pathname.replace(/\/+$/, '').replace(/^\/{2,}/, '/') || '/'
		throw redirect(pathname + url.search, 302)
	}
}
