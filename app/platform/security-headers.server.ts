/** The Content-Security-Policy of every HTML document: scripts only from us, with this nonce. */
export function contentSecurityPolicy(nonce: string, options: { https: boolean; formActions?: string[] }): string {
	const directives = [
		"default-src 'self'",
		`script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
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
