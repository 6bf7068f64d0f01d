/*
 * What the server adds to every request for operations: an id (X-Request-Id, in every log line
 * written while serving it, and on the error page), and its count and duration in /metrics,
 * labelled by the route module that answers it. The id and the metrics registry live in the app
 * (app/platform/request-context.server.ts, metrics.server.ts); the build hands them over.
 */
import type http from 'node:http'
import type { ServerBuild } from 'react-router'
import { createRouteLookup } from './route-lookup.ts'

export interface ObserveHooks {
	recordRequest(route: string, method: string, status: number, seconds: number): void
	requestRecorder(route: string, method: string, status: number): (seconds: number) => void
	newRequestId(): string
	isAcceptableRequestId(value: unknown): value is string
	runWithRequestId<T>(requestId: string, run: () => T): T
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

export function createObserver(build: ServerBuild, hooks: ObserveHooks) {
	const lookup = createRouteLookup(build.routes)

	/** The route module that answers a path (client navigations ask for `<path>.data`). */
	const routeOf = (pathname: string): string => {
		let path = pathname
		if (path === '/_root.data') path = '/'
		else if (path.endsWith('.data')) path = path.slice(0, -'.data'.length)
		return lookup(path) ?? 'unmatched'
	}

	/** The id a request gets: a trusted proxy's own, else a new one (set nowhere: assignId sets it, a cache hit writes it). */
	const idOf = (req: http.IncomingMessage, fromTrustedProxy: boolean): string => {
		const offered = req.headers['x-request-id']
		return fromTrustedProxy && hooks.isAcceptableRequestId(offered) ? offered : hooks.newRequestId()
	}

	// Per cached page, its recorders by method and status (forgotten with the page).
	const hitRecorders = new WeakMap<object, Map<number, (seconds: number) => void>>()

	return {
		/**
		 * Gives the request its id: a trusted proxy's own (to follow one request through both logs),
		 * else a new one. Whatever a client sent is replaced: the app reads the header we set.
		 */
		assignId(req: http.IncomingMessage, res: http.ServerResponse, fromTrustedProxy: boolean): string {
			const id = idOf(req, fromTrustedProxy)
			req.headers['x-request-id'] = id
			res.setHeader('X-Request-Id', id)
			return id
		},
		/** Runs the app's handler with the id as the context of every log line it writes. */
		run<T>(requestId: string, handler: () => T): T {
			return hooks.runWithRequestId(requestId, handler)
		},
		record(req: http.IncomingMessage, status: number, pathname: string, seconds: number, kind: 'static' | 'app' | 'refused') {
			const route = kind === 'static' ? 'static' : kind === 'refused' ? 'refused' : routeOf(pathname)
			const method = METHODS.has(req.method ?? '') ? req.method! : 'OTHER'
			hooks.recordRequest(route, method, status, seconds)
		},
		/**
		 * The same for the answers of one cached page (a page cache hit: GET or HEAD, 200 or 304), with
		 * the recorder of each made once for the page: a hit adds one to a number and observes its time.
		 */
		recordHit(page: object, route: string, method: 'GET' | 'HEAD', status: 200 | 304, seconds: number) {
			let recorders = hitRecorders.get(page)
			if (!recorders) {
				recorders = new Map()
				hitRecorders.set(page, recorders)
			}
			const key = method === 'GET' ? status : -status
			let record = recorders.get(key)
			if (!record) {
				record = hooks.requestRecorder(route, method, status)
				recorders.set(key, record)
			}
			record(seconds)
		},
		idOf,
	}
}
