import type http from 'node:http'

/*
 * What no browser sends is refused before anything else reads the request, with a short French
 * answer and never a stack trace: a method the site does not serve (TRACE, CONNECT, anything
 * invented) is a 405, a Host that is not a host name with a valid port is a 400.
 */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])
export const ALLOWED_METHODS = [...METHODS].join(', ')

/** A Host header a URL can be built on: a name or an address, and a port in 1–65535 if any. */
export function isValidHost(host: string | undefined): boolean {
	if (!host || host.length > 255) return false
	if (!/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/.test(host)) return false
	const url = URL.parse(`http://${host}/`)
	if (!url) return false
	const port = /:(\d+)$/.exec(host)?.[1]
	return port === undefined || (Number(port) >= 1 && Number(port) <= 65_535)
}

function refuse(res: http.ServerResponse, status: number, message: string, headers: Record<string, string> = {}) {
	res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...headers })
	res.end(message)
}

/** Answers a malformed request itself; returns true when it did. */
export function refuseMalformed(req: http.IncomingMessage, res: http.ServerResponse): boolean {
	if (!METHODS.has(req.method ?? '')) {
		refuse(res, 405, 'Méthode non autorisée.', { Allow: ALLOWED_METHODS })
		return true
	}
	if (!isValidHost(req.headers.host)) {
		refuse(res, 400, 'Requête invalide : hôte incorrect.')
		return true
	}
	return false
}
