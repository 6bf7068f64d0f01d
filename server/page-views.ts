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
		/** Counts a response already handed to the connection whole, whose status and type are known (a page cache hit). */
		count(req: http.IncomingMessage, status: number, contentType: string) {
			if (req.method === 'GET') count(req, status, contentType)
		},
	}
}
