/** The Content-Security-Policy of every HTML document: scripts only from us, with this nonce. */
export function contentSecurityPolicy(nonce: string, options: { https: boolean }): string {
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
		"form-action 'self'",
		"frame-ancestors 'none'",
	]
	if (options.https) directives.push('upgrade-insecure-requests')
	return directives.join('; ')
}
