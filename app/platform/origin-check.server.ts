import { getEnv } from './env.server.ts'
import { httpError } from './http-error.ts'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Refuses state-changing requests sent by another site: a browser always says where a POST,
 * PATCH or DELETE comes from (Origin, Sec-Fetch-Site). Clients that are not browsers send
 * neither and carry no one else's cookies.
 */
export function isCrossSite(request: Request, siteUrl = getEnv().SITE_URL): boolean {
	if (SAFE_METHODS.has(request.method)) return false
	const fetchSite = request.headers.get('sec-fetch-site')
	if (fetchSite === 'cross-site' || fetchSite === 'same-site') return true
	const origin = request.headers.get('origin')
	if (origin === null) return false
	if (origin === 'null') return true
	return origin !== new URL(siteUrl).origin && origin !== new URL(request.url).origin
}

export const originCheckMiddleware = ({ request }: { request: Request }) => {
	if (isCrossSite(request)) {
		throw httpError(403, { error: 'Requête refusée : elle ne vient pas de ce site.' })
	}
}
