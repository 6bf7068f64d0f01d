import type http from 'node:http'

/*
 * Audience figures: once a response is finished, the app's hook decides whether it was a page view
 * of the public site and counts it in memory (app/features/stats/count-page-view.server.ts). Every
 * response passes here, the ones the anonymous page cache serves included, as long as this is
 * attached at the top of the request handler. Nothing is awaited by the response. A response's
 * Content-Type is read with getHeader(): set it with setHeader() (a header given to writeHead()
 * alone cannot be read back, and the request's own headers then decide).
 */
export interface PageViewHook {
	countPageView(facts: {
		method: string
		url: string
		status: number
		contentType: string | undefined
		headers: Record<string, string | undefined>
		cookie?: string
	}): Promise<void>
	flushPageViews(): Promise<void>
	/** The counter of a cached page's views (asked once per page): null if not counted, undefined if not ready yet. */
	pageViewSlot(url: string): PageSlot | null | undefined
	/** One GET of a cached page answered 200 or 304: counted in its slot if it is a view. */
	countCachedView(slot: PageSlot, headers: http.IncomingHttpHeaders): void
}

/** A page's view counter, opaque here (app/features/stats/page-views.server.ts). */
export interface PageSlot {
	readonly path: string
}

const HEADERS = [
	'accept',
	'sec-fetch-dest',
	'sec-fetch-mode',
	'sec-fetch-site',
	'sec-purpose',
	'purpose',
	'x-moz',
	'user-agent',
	'referer',
] as const

export function createPageViewCounting(hook: PageViewHook, onError: (error: unknown) => void) {
	// Each cached page's slot (null: its views are not counted), for as long as the page is cached.
	const slots = new WeakMap<object, PageSlot | null>()
	const count = (req: http.IncomingMessage, status: number, contentType: string | undefined) => {
		const headers: Record<string, string | undefined> = {}
		for (const name of HEADERS) {
			const value = req.headers[name]
			headers[name] = Array.isArray(value) ? value[0] : value
		}
		hook
			.countPageView({ method: req.method ?? 'GET', url: req.url ?? '/', status, contentType, headers, cookie: req.headers.cookie })
			.catch(onError)
	}
	return {
		/** Counts the response once it is finished. */
		attach(req: http.IncomingMessage, res: http.ServerResponse) {
			if (req.method !== 'GET') return
			res.once('finish', () => {
				const type = res.getHeader('content-type')
				count(req, res.statusCode, typeof type === 'string' ? type : undefined)
			})
		},
		/**
		 * Counts a GET answered whole from the anonymous cache (an HTML page, 200 or 304, no cookie):
		 * in the page's slot, looked up once per cached page, with nothing made per request.
		 */
		countHit(req: http.IncomingMessage, status: number, page: object, url: string) {
			if (req.method !== 'GET') return
			let slot = slots.get(page)
			if (slot === undefined) {
				slot = hook.pageViewSlot(url)
				if (slot === undefined) return count(req, status, 'text/html')
				slots.set(page, slot)
			}
			if (slot !== null) hook.countCachedView(slot, req.headers)
		},
	}
}
