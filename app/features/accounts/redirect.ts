/**
 * A same-site path to go to after signing in, or the fallback. Anything that could leave the site
 * (absolute URLs, protocol-relative `//host`, backslash tricks, control characters) is refused.
 */
export function safeRedirect(target: unknown, fallback = '/dashboard'): string {
	if (typeof target !== 'string' || target.length === 0 || target.length > 2048) return fallback
	if (!target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return fallback
	// eslint-free check for control characters and whitespace, which browsers may strip.
	for (const ch of target) {
		const code = ch.charCodeAt(0)
		if (code <= 0x20 || code === 0x7f || ch === '\\') return fallback
	}
	try {
		const url = new URL(target, 'http://site.invalid')
		if (url.origin !== 'http://site.invalid') return fallback
		const path = url.pathname + url.search + url.hash
		// Dot segments can collapse into a protocol-relative `//host` ("/.//evil", "/a/..//evil").
		if (path.startsWith('//')) return fallback
		return path
	} catch {
		return fallback
	}
}
