import type http from 'node:http'

/*
 * Every request body is counted while it streams in, whatever its framing (Content-Length or
 * chunked, which declares nothing), and cut at the limit of its route with a 413. Nothing above
 * this layer (React Router, the form guard's `request.clone().formData()`, Better Auth's `.json()`)
 * can then hold more than that limit in memory.
 */

const KB = 1024
const MB = 1024 * KB

/** Image uploads: a little above what their routes accept (cover 15 MB, avatar 5 MB, plus the multipart envelope), so that the route's own French refusal shows first. */
const UPLOADS: [prefix: string, limit: number][] = [
	['/dashboard/admin/media', 16 * MB],
	['/dashboard/settings/avatar', 6 * MB],
]
/** Sign-in, sign-up, reset and Better Auth's endpoints: a few short fields. */
const SMALL_PREFIXES = ['/auth/', '/api/auth/', '/api/me']
export const SMALL_BODY_BYTES = 64 * KB
/** Every other form (the longest is an event's 10,000-character description, URL-encoded). */
export const FORM_BODY_BYTES = 256 * KB

const matches = (pathname: string, prefix: string) =>
	pathname === prefix || pathname.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`)

/** The largest body this path may receive, in bytes. */
export function bodyLimitFor(pathname: string): number {
	for (const [prefix, limit] of UPLOADS) if (matches(pathname, prefix)) return limit
	if (SMALL_PREFIXES.some((prefix) => matches(pathname, prefix) || pathname === prefix.replace(/\/$/, ''))) return SMALL_BODY_BYTES
	return FORM_BODY_BYTES
}

class BodyTooLarge extends Error {
	constructor() {
		super('request body too large')
		this.name = 'AbortError' // read by the request listener as the client going away: it answers nothing itself
	}
}

function tooLarge(res: http.ServerResponse) {
	if (res.headersSent) {
		res.destroy()
		return
	}
	res.writeHead(413, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' })
	res.end('Envoi trop volumineux.')
}

/**
 * Puts the limit of its route on this request's body. Returns false when the request was already
 * answered (a declared length over the limit); otherwise counts each chunk as it arrives and, at
 * the first byte past the limit, aborts the body for whoever reads it (their Request's signal
 * fires, so React Router answers nothing itself), answers 413 and closes the connection.
 */
export function limitBody(req: http.IncomingMessage, res: http.ServerResponse, pathname: string): boolean {
	if (req.method === 'GET' || req.method === 'HEAD') return true
	const limit = bodyLimitFor(pathname)
	const declared = req.headers['content-length']
	if (declared !== undefined && !(Number(declared) <= limit)) {
		tooLarge(res)
		return false
	}
	let received = 0
	const count = (chunk: Buffer) => {
		received += chunk.byteLength
		if (received <= limit) return
		req.off('data', count)
		req.pause()
		// After this chunk has reached every listener (the body's reader enqueues it right after us):
		// whoever reads the body sees it fail as an aborted request, and stops.
		process.nextTick(() => {
			req.emit('error', new BodyTooLarge())
			tooLarge(res)
			// Stop reading what the client still sends once the answer is out.
			res.once('finish', () => req.socket.destroySoon())
		})
	}
	req.on('data', count)
	// An error we raised (or a broken connection) must never be an unhandled 'error' event.
	req.on('error', () => {})
	return true
}
