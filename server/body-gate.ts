import type http from 'node:http'
import { createHeaders } from '@remix-run/node-fetch-server'
import { LRUCache } from 'lru-cache'
import { matchRoutes, type ServerBuild } from 'react-router'
import { routeTree } from '../app/platform/route-tree.ts'
import { closeWithoutReading } from './body-limit.ts'

/*
 * A request body is read only once its sender is known to be allowed to send it. Before a single
 * byte of a body reaches anything (the body limit's counter, React Router, the form guard, an
 * action), the server asks who sent it (the session cookie alone) and what the route it goes to
 * requires: the admin's screens (route modules under routes/admin/, or any path under
 * /dashboard/admin) an admin, the member's (routes/dashboard/, /dashboard) a signed-in member.
 *
 * A caller who may not send it never has its body read: React Router gets the same request with an
 * empty form instead, so that the route's own guard answers as it always does (the sign-in
 * redirect, the 403 page, a client navigation's `.data` redirect). Once that answer is out, our
 * side of the connection is closed and nothing more is read (closeWithoutReading in
 * server/body-limit.ts): what the client pushed meanwhile stays in the socket buffers and is
 * dropped with the connection.
 */

export type CallerRole = 'admin' | 'member' | null
type Required = 'admin' | 'member' | null

/** What the app tells the server: who sent these headers (their session cookie), as a role. */
export interface BodyGateHooks {
	callerRole(headers: Headers): Promise<CallerRole>
}

const ADMIN_MODULES = /^routes\/admin\//
const MEMBER_MODULES = /^routes\/dashboard\//

/** A path as React Router will match it: percent-decoded, without `.data`; null when it cannot be decoded. */
function routerPath(pathname: string): string | null {
	let path = pathname
	if (path === '/_root.data') path = '/'
	else if (path.endsWith('.data')) path = path.slice(0, -'.data'.length)
	try {
		return decodeURIComponent(path)
	} catch {
		return null
	}
}

/** The role the path's own address asks for, whatever module answers it (case, repeated slashes aside). */
function requiredByPath(path: string): Required {
	const normal = path.toLowerCase().replace(/\/{2,}/g, '/')
	if (normal === '/dashboard/admin' || normal.startsWith('/dashboard/admin/')) return 'admin'
	if (normal === '/dashboard' || normal.startsWith('/dashboard/')) return 'member'
	return null
}

const stricter = (a: Required, b: Required): Required => (a === 'admin' || b === 'admin' ? 'admin' : (a ?? b))

/**
 * `requiredRole(pathname)`: who may send a body to this path (the path as the request line has it,
 * `.data` included), from the route modules React Router matches and from the address itself,
 * whichever asks more. A path that cannot be decoded asks for an admin (nothing serves it anyway).
 * The last `remembered` paths asked about are remembered (least recently used go first).
 */
export function createRequiredRole(routes: ServerBuild['routes'], remembered = 2_000) {
	const tree = routeTree(routes)
	// lru-cache keeps no null: « anyone » stands for it.
	const known = new LRUCache<string, NonNullable<Required> | 'anyone'>({ max: remembered })
	return (pathname: string): Required => {
		const cached = known.get(pathname)
		if (cached !== undefined) return cached === 'anyone' ? null : cached
		const path = routerPath(pathname)
		let role: Required = path === null ? 'admin' : requiredByPath(path)
		if (path !== null) {
			for (const match of matchRoutes(tree, path) ?? []) {
				const id = match.route.id ?? ''
				role = stricter(role, ADMIN_MODULES.test(id) ? 'admin' : MEMBER_MODULES.test(id) ? 'member' : null)
			}
		}
		known.set(pathname, role ?? 'anyone')
		return role
	}
}

/** Whether this request may carry a body at all (GET and HEAD never do; a declared empty body is none). */
function carriesBody(req: http.IncomingMessage): boolean {
	if (req.method === 'GET' || req.method === 'HEAD') return false
	return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) !== 0
}

/**
 * The gate: `admit(req, pathname)` is true at once when nothing needs checking (no body, or a route
 * anyone may post to), else a promise of whether the caller's role is enough. Until it settles,
 * nothing reads the body (Node holds back the socket once its small buffer is full).
 */
export function createBodyGate(routes: ServerBuild['routes'], hooks: BodyGateHooks) {
	const requiredRole = createRequiredRole(routes)
	return (req: http.IncomingMessage, pathname: string): true | Promise<boolean> => {
		if (!carriesBody(req)) return true
		const required = requiredRole(pathname)
		if (required === null) return true
		// A client that goes away meanwhile must not be an unhandled 'error' event.
		req.on('error', () => {})
		// The cookie is all that is looked at: the body is still in the socket.
		const headers = new Headers()
		if (typeof req.headers.cookie === 'string') headers.set('cookie', req.headers.cookie)
		return hooks.callerRole(headers).then(
			(role) => role === 'admin' || (role === 'member' && required === 'member'),
			() => false,
		)
	}
}

/**
 * The request React Router gets when the body may not be read: the same method, address and
 * headers, with an empty form as its body (so that an action reading its form before its guard
 * finds an empty one, never a broken one). The connection closes after its answer.
 */
export function withheldBodyRequest(req: http.IncomingMessage, res: http.ServerResponse): Request {
	closeWithoutReading(req, res)
	const headers = createHeaders(req)
	headers.delete('content-length')
	headers.delete('transfer-encoding')
	headers.set('content-type', 'application/x-www-form-urlencoded')
	const controller = new AbortController()
	res.once('close', () => {
		if (!res.writableFinished) controller.abort()
	})
	const protocol = 'encrypted' in req.socket && req.socket.encrypted ? 'https:' : 'http:'
	return new Request(`${protocol}//${req.headers.host}${req.url}`, {
		method: req.method,
		headers,
		body: '',
		signal: controller.signal,
	})
}
