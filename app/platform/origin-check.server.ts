import { getEnv } from './env.server.ts'
import { httpError } from './http-error.ts'
import { getLogger } from './logger.server.ts'
import { getT } from './i18n.server.ts'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])
/**
 * Endpoints that other sites' clients are meant to POST to, and that read no cookie: RFC 8058's
 * one-click unsubscribe (a mail client, or a webmail's page, sends it; its token is its authority).
 */
export const CROSS_SITE_ENDPOINTS = new Set(['/unsubscribe/one-click'])

/**
 * Refuses state-changing requests sent by another site: a browser always says where a POST,
 * PATCH or DELETE comes from (Origin, Sec-Fetch-Site). Clients that are not browsers send
 * neither and carry no one else's cookies.
 */
export function isCrossSite(request: Request, siteUrl = getEnv().SITE_URL): boolean {
	if (SAFE_METHODS.has(request.method)) return false
	if (CROSS_SITE_ENDPOINTS.has(new URL(request.url).pathname)) return false
	const fetchSite = request.headers.get('sec-fetch-site')
	if (fetchSite === 'cross-site' || fetchSite === 'same-site') return true
	const origin = request.headers.get('origin')
	if (origin === null) return false
	// A plain form posted from one of our pages that asks for no referrer (a claim link, /redeem,
	// /unsubscribe: their addresses carry tokens) says « null » for its origin; the browser still
	// says the request comes from this very origin (Sec-Fetch-Site, which no page can set).
	if (origin === 'null') return fetchSite !== 'same-origin'
	return origin !== new URL(siteUrl).origin && origin !== new URL(request.url).origin
}

export const originCheckMiddleware = ({ request }: { request: Request }) => {
	if (isCrossSite(request)) {
		// One short line, no stack: a flood of these must not flood the log.
		getLogger().warn(
			{ method: request.method, path: new URL(request.url).pathname, origin: request.headers.get('origin')?.slice(0, 200) ?? null },
			'cross-site request refused',
		)
		throw httpError(403, { reason: 'cross-site', error: getT()('errors.crossSite.short') })
	}
}
