import { createHash, timingSafeEqual } from 'node:crypto'

/*
 * The bearer of METRICS_TOKEN (monitoring: /metrics, and the details of /healthz and /readyz).
 * Both sides are hashed first and their SHA-256 digests compared in constant time: the comparison
 * takes as long whatever the given token's length, so that no timing tells how long the real
 * token is (a length check before timingSafeEqual would return early on a mismatch).
 */
const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest()

/** The token a request carries in `Authorization: Bearer …`, or an empty string. */
function bearerOf(request: Request): string {
	return /^Bearer\s+(.+)$/i.exec(request.headers.get('authorization') ?? '')?.[1]?.trim() ?? ''
}

/** Whether `given` is the configured token; never true when no token is configured. */
export function isMetricsToken(given: string, token: string | undefined): boolean {
	const same = timingSafeEqual(digest(given), digest(token ?? ''))
	return same && Boolean(token) && given.length > 0
}

/** Whether this request carries the configured METRICS_TOKEN as its bearer token. */
export function carriesMetricsToken(request: Request, token: string | undefined): boolean {
	return isMetricsToken(bearerOf(request), token)
}
