import { sameSecret } from './random-token.server.ts'

/*
 * The bearer of METRICS_TOKEN (monitoring: /metrics, and the details of /healthz and /readyz),
 * compared in constant time (sameSecret).
 */

/** The token a request carries in `Authorization: Bearer …`, or an empty string. */
function bearerOf(request: Request): string {
	return /^Bearer\s+(.+)$/i.exec(request.headers.get('authorization') ?? '')?.[1]?.trim() ?? ''
}

/** Whether `given` is the configured token; never true when no token is configured. */
export function isMetricsToken(given: string, token: string | undefined): boolean {
	return sameSecret(given, token ?? '') && given.length > 0
}

/** Whether this request carries the configured METRICS_TOKEN as its bearer token. */
export function carriesMetricsToken(request: Request, token: string | undefined): boolean {
	return isMetricsToken(bearerOf(request), token)
}
