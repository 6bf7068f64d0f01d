import { data } from 'react-router'
import { getEnv } from './env.server.ts'
import { getLogger } from './logger.server.ts'

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
		// One short line, no stack: a flood of these must not flood the log.
		getLogger().warn(
			{ method: request.method, path: new URL(request.url).pathname, origin: request.headers.get('origin')?.slice(0, 200) ?? null },
			'cross-site request refused',
		)
		throw data({ reason: 'cross-site', error: 'Requête refusée : elle ne vient pas de ce site.' }, { status: 403 })
	}
}
