/*
 * The largest body each path may receive, in bytes: read by the server, which counts every body as
 * it streams in and cuts it there (server/body-limit.ts), and by the form guard, which leaves the
 * upload routes' bodies to their routes (they read them as streams).
 */

const KB = 1024
const MB = 1024 * KB

/**
 * Uploads, each a little above what its route accepts (plus the multipart envelope), so that the
 * route's own French refusal shows first: cover 15 MB, avatar 5 MB, a code campaign's file 200 MB
 * (features/codes/rules.ts), CSV imports of codes 8 MB, of subscribers 20 MB, of songs 512 kB.
 */
const UPLOADS: [route: string | RegExp, limit: number][] = [
	['/dashboard/admin/media', 16 * MB],
	['/dashboard/settings/avatar', 6 * MB],
	[/^\/dashboard\/admin\/codes\/[^/]+\/files$/, 200 * MB + 64 * KB],
	[/^\/dashboard\/admin\/codes\/[^/]+\/import$/, 8 * MB + 64 * KB],
	['/dashboard/admin/newsletter/subscribers/import', 20 * MB + 64 * KB],
	['/dashboard/admin/setlist/songs/import', 512 * KB + 64 * KB],
]
/** Sign-in, sign-up, reset and Better Auth's endpoints: a few short fields. */
const SMALL_PREFIXES = ['/auth/', '/api/auth/', '/api/me']
export const SMALL_BODY_BYTES = 64 * KB
/** Every other form (the longest is an event's 10,000-character description, URL-encoded). */
export const FORM_BODY_BYTES = 256 * KB

const matches = (pathname: string, prefix: string) =>
	pathname === prefix || pathname.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`)

/** The largest body this path may receive, in bytes (a client navigation's `<path>.data` is its page's). */
export function bodyLimitFor(requested: string): number {
	const pathname = requested.endsWith('.data') ? requested.slice(0, -'.data'.length) : requested
	for (const [route, limit] of UPLOADS) if (typeof route === 'string' ? matches(pathname, route) : route.test(pathname)) return limit
	if (SMALL_PREFIXES.some((prefix) => matches(pathname, prefix) || pathname === prefix.replace(/\/$/, ''))) return SMALL_BODY_BYTES
	return FORM_BODY_BYTES
}

/** Whether this path takes uploads: a body larger than any form's, which its route reads itself as a stream. */
export function isUploadPath(pathname: string): boolean {
	return bodyLimitFor(pathname) > FORM_BODY_BYTES
}
