/*
 * One-time secrets travel in links (`?token=` of a reset, a set-up, a verification, an unsubscribe;
 * `?code=` and `?state=` of a provider's return, a redeemed code): a log line must never hold
 * them, or whoever reads the log could use them. No dependency: the Node server imports it too.
 */
const SECRET_PARAMS = /([?&](?:token|code|state)=)[^&#]*/gi

/** The request's path and query with the values of secret parameters replaced by « [redacted] ». */
export function redactUrl(url: string): string {
	return url.replace(SECRET_PARAMS, '$1[redacted]')
}
