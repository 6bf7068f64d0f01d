/**
 * How a document's inline scripts are allowed, never with 'unsafe-inline':
 * - `nonce`: a page rendered for one request carries a fresh nonce on each of its scripts; the
 *   scripts they load are trusted through 'strict-dynamic'.
 * - `hashes`: a page served as the same bytes to every anonymous visitor (server/page-cache.ts)
 *   cannot carry a secret nonce, so each inline script is allowed by its SHA-256 and our own
 *   files by 'self' (they are served with `nosniff` and their true type, so nothing a visitor
 *   uploads can pass for a script). A nonce would be worthless there: every visitor would see it.
 */
export type ScriptSources = { nonce: string } | { hashes: string[] }

/** The Content-Security-Policy of every HTML document: scripts only from us. */
export function contentSecurityPolicy(scripts: ScriptSources, options: { https: boolean; formActions?: string[] }): string {
	const scriptSrc =
		'nonce' in scripts
			? `script-src 'self' 'nonce-${scripts.nonce}' 'strict-dynamic'`
			: ["script-src 'self'", ...scripts.hashes.map((hash) => `'sha256-${hash}'`)].join(' ')
	const directives = [
		"default-src 'self'",
		scriptSrc,
		"style-src 'self' 'unsafe-inline'",
		"img-src 'self' data: blob:",
		"font-src 'self'",
		"connect-src 'self'",
		"media-src 'self'",
		"manifest-src 'self'",
		"worker-src 'self'",
		"object-src 'none'",
		"base-uri 'self'",
		// A sign-in form redirects to the provider: browsers check form-action on that redirect too.
		["form-action 'self'", ...(options.formActions ?? [])].join(' '),
		"frame-ancestors 'none'",
	]
	if (options.https) directives.push('upgrade-insecure-requests')
	return directives.join('; ')
}

/** Where a federated sign-in form may send the browser: the configured providers' origins. */
export function providerOrigins(env: {
	GOOGLE_CLIENT_ID?: string
	APPLE_CLIENT_ID?: string
	FACEBOOK_CLIENT_ID?: string
	OIDC_ISSUER?: string
}): string[] {
	const origins: string[] = []
	if (env.GOOGLE_CLIENT_ID) origins.push('https://accounts.google.com')
	if (env.APPLE_CLIENT_ID) origins.push('https://appleid.apple.com')
	if (env.FACEBOOK_CLIENT_ID) origins.push('https://www.facebook.com')
	if (env.OIDC_ISSUER) origins.push(new URL(env.OIDC_ISSUER).origin)
	return origins
}
