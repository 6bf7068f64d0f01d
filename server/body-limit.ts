import type http from 'node:http'
import { bodyLimitFor } from '../app/platform/body-limits.ts'
import { getT } from '../app/platform/i18n.server.ts'

/*
 * Every request body is counted while it streams in, whatever its framing (Content-Length or
 * chunked, which declares nothing), and cut at the limit of its route with a 413. Nothing above
 * this layer (React Router, the form guard's `request.clone().formData()`, Better Auth's `.json()`)
 * can then hold more than that limit in memory.
 */

const MB = 1024 * 1024

/** How much of a refused body is thrown away, and for how long, before the connection is cut. */
const DRAIN_BYTES = 64 * MB
// Long enough for a slow client (a phone on a poor network, a loaded machine) to read the 413 before the cut.
const DRAIN_MS = 10_000

/**
 * Closes our side of the connection once the 413 is out (the client reads it, then sees the end),
 * and meanwhile throws away what the client still sends: a socket destroyed on unread data is
 * reset, and a reset can wipe the 413 from the client's buffers before it reads it. A client that
 * keeps sending is cut after DRAIN_BYTES or DRAIN_MS. Nothing is kept in memory.
 */
function drainThenClose(req: http.IncomingMessage) {
	let drained = 0
	const cut = () => {
		clearTimeout(timer)
		req.off('data', discard)
		req.socket.destroy()
	}
	const discard = (chunk: Buffer) => {
		drained += chunk.byteLength
		if (drained > DRAIN_BYTES) cut()
	}
	const timer = setTimeout(cut, DRAIN_MS)
	timer.unref()
	req.on('data', discard)
	req.socket.once('close', () => clearTimeout(timer))
	req.socket.end()
	req.resume()
}

/** How long a connection whose body is left unread stays open after the answer, for the client to read it. */
const LINGER_MS = 2_000

/**
 * For an answer given without reading the body (a declared length over the limit, a sender not
 * allowed to send it: server/body-gate.ts). Once the answer is out, our side of the connection is
 * closed (the client reads the answer, then the end) and nothing more is read: what the client
 * still sends fills the socket buffers and stops there. The connection goes when the client
 * closes it, or after LINGER_MS.
 *
 * Not with `Connection: close`, and not destroyed at once: Node would close the socket on unread
 * data, and the reset that follows can reach a client that is still writing before it has read
 * the answer (seen with Node's own client, which then reports a reset and no answer).
 */
export function closeWithoutReading(req: http.IncomingMessage, res: http.ServerResponse) {
	req.on('error', () => {})
	// Takes in hand what the stream holds already (at most its small buffer): Node then counts the
	// body as being read by us, and does not set it flowing to throw the rest away once the answer
	// is out (its parser would drop it without ever pausing the socket). The stream refills its
	// small buffer from the socket, then the socket stops being read.
	while (req.read() !== null);
	res.once('finish', () => {
		const socket = req.socket
		const timer = setTimeout(() => socket.destroy(), LINGER_MS)
		timer.unref()
		socket.once('close', () => clearTimeout(timer))
		socket.end()
	})
}

class BodyTooLarge extends Error {
	constructor() {
		super('request body too large')
		this.name = 'AbortError' // read by the request listener as the client going away: it answers nothing itself
	}
}

/**
 * Answers 413, then closes the connection through drainThenClose. Not with `Connection: close`:
 * Node would destroy the socket as soon as the answer is flushed, on unread data, and the reset
 * that follows can wipe the answer from the client's buffers before it reads it.
 */
function tooLarge(req: http.IncomingMessage, res: http.ServerResponse) {
	if (res.headersSent) {
		res.destroy()
		return
	}
	res.once('finish', () => drainThenClose(req))
	res.writeHead(413, { 'Content-Type': 'text/plain; charset=utf-8' })
	res.end(getT()('http.bodyTooLarge'))
}

/**
 * Puts the limit of its route on this request's body. Returns false when the request was already
 * answered (a declared length over the limit: a 413 without reading any of it); otherwise counts each chunk as it arrives and, at
 * the first byte past the limit, aborts the body for whoever reads it (their Request's signal
 * fires, so React Router answers nothing itself), answers 413 and closes the connection.
 */
export function limitBody(req: http.IncomingMessage, res: http.ServerResponse, pathname: string): boolean {
	if (req.method === 'GET' || req.method === 'HEAD') return true
	const limit = bodyLimitFor(pathname)
	const declared = req.headers['content-length']
	if (declared !== undefined && !(Number(declared) <= limit)) {
		// Nothing of it has been read, and nothing will be.
		closeWithoutReading(req, res)
		res.writeHead(413, { 'Content-Type': 'text/plain; charset=utf-8' })
		res.end(getT()('http.bodyTooLarge'))
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
			tooLarge(req, res)
		})
	}
	req.on('data', count)
	// An error we raised (or a broken connection) must never be an unhandled 'error' event.
	req.on('error', () => {})
	return true
}
