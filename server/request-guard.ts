import type http from 'node:http'
import { LRUCache } from 'lru-cache'
import { getT } from '../app/platform/i18n.server.ts'

/*
 * What no browser sends is refused before anything else reads the request, with a short French
 * answer and never a stack trace: a method the site does not serve (TRACE, CONNECT, anything
 * invented) is a 405, a Host that is not a host name with a valid port is a 400, a path far longer
 * or deeper than any address of the site is a 414.
 */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])
export const ALLOWED_METHODS = [...METHODS].join(', ')

/** Host headers found valid lately: a site answers to a handful, every request names one. */
const validHosts = new LRUCache<string, true>({ max: 64 })

/** A Host header a URL can be built on: a name or an address, and a port in 1–65535 if any. */
export function isValidHost(host: string | undefined): boolean {
	if (host !== undefined && validHosts.has(host)) return true
	if (!checkHost(host)) return false
	validHosts.set(host!, true)
	return true
}

function checkHost(host: string | undefined): boolean {
	if (!host || host.length > 255) return false
	if (!/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/.test(host)) return false
	const url = URL.parse(`http://${host}/`)
	if (!url) return false
	const port = /:(\d+)$/.exec(host)?.[1]
	return port === undefined || (Number(port) >= 1 && Number(port) <= 65_535)
}

/**
 * The site's longest addresses (a code batch's export, an image rendition) are under 100
 * characters and 7 segments; the query string is not counted. React Router matches every parent
 * path of a page it renders: a form sent to a made-up path of 4,000 segments cost a second of CPU.
 */
const LONGEST_PATH = 1_024
const DEEPEST_PATH = 32

/** Whether a request path (without its query string) is one the site could have made. */
export function isPlausiblePath(pathname: string): boolean {
	if (pathname.length > LONGEST_PATH) return false
	let segments = 0
	for (let at = pathname.indexOf('/'); at !== -1; at = pathname.indexOf('/', at + 1)) if (++segments > DEEPEST_PATH) return false
	return true
}

/** A short plain French answer that no cache keeps. */
export function refuse(res: http.ServerResponse, status: number, message: string, headers: Record<string, string> = {}) {
	res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...headers })
	res.end(message)
}

/** Answers an absurd path itself (414); returns true when it did. */
export function refuseAbsurdPath(pathname: string, res: http.ServerResponse): boolean {
	if (isPlausiblePath(pathname)) return false
	refuse(res, 414, getT()('http.urlTooLong'))
	return true
}

/** A method some browser sends (the others get a 405). */
export const isAllowedMethod = (method: string | undefined) => METHODS.has(method ?? '')

/** Answers a malformed request itself; returns true when it did. */
export function refuseMalformed(req: http.IncomingMessage, res: http.ServerResponse): boolean {
	if (!isAllowedMethod(req.method)) {
		refuse(res, 405, getT()('errors.methodNotAllowed'), { Allow: ALLOWED_METHODS })
		return true
	}
	if (!isValidHost(req.headers.host)) {
		refuse(res, 400, getT()('http.badHost'))
		return true
	}
	return false
}
