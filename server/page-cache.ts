/*
 * The anonymous page cache: public pages, as a visitor without any cookie gets them, answered from
 * memory before React Router runs. A rendered page is kept as bytes (plain, gzip and brotli, made
 * once), with a strong ETag per encoding, and served to every such visitor until public content
 * changes (app/platform/public-content.server.ts: every admin write, on every instance) or
 * ENTRY_TTL_MS passes (then still for STALE_GRACE_MS while one render refreshes it).
 *
 * Which requests: the rule is in app/cacheable-pages.ts (the route ids) and `cacheKey` below (the
 * request); which responses: `isStorable`. Everything else goes to React Router untouched.
 *
 * The same bytes go to every visitor, so they cannot carry a secret nonce: the render's nonce is
 * taken out and the page's inline scripts are allowed by their SHA-256 instead
 * (app/platform/security-headers.server.ts says why that is as strict).
 */
import { createHash } from 'node:crypto'
import type http from 'node:http'
import { promisify } from 'node:util'
import zlib from 'node:zlib'
import { LRUCache } from 'lru-cache'
import type { ServerBuild } from 'react-router'
import { preferredEncoding, type Encoding } from './compression.ts'
import { createRouteLookup } from './route-lookup.ts'
import { nodeHeaders } from './respond.ts'
import { getT } from '../app/platform/i18n.server.ts'

/** What the app hands the cache (the build's `pageCache` export, app/entry.server.tsx). */
export interface PageCacheApp {
	routeIds: ReadonlySet<string>
	/** A request header that asks the app for the whole document at once (never taken from a visitor). */
	fillHeader: string
	/** The Content-Security-Policy of a page whose inline scripts have these SHA-256 hashes. */
	policy(hashes: string[]): string
	generation(): number
	onChange(listener: () => void): () => void
	/** Announces a change of public content to every instance. */
	changed(): Promise<void>
}

/** An entry is served at most this long after it was rendered (what depends on the clock: a show that ended). */
const ENTRY_TTL_MS = 60_000
/**
 * Past its TTL, an entry is still served for this long while one render refreshes it, so that
 * visitors never wait for that render (under load a miss took up to 2.7 s). A change of public
 * content empties the cache outright: only the clock's effects may show late, by one render.
 */
const STALE_GRACE_MS = 60_000
/** What an entry of this age may still do: answer as it is, answer while one render refreshes it, or nothing. */
function freshness(storedAt: number, at: number): 'hit' | 'stale' | 'expired' {
	const age = at - storedAt
	return age <= ENTRY_TTL_MS ? 'hit' : age <= ENTRY_TTL_MS + STALE_GRACE_MS ? 'stale' : 'expired'
}
/** Memory for cached pages, all encodings counted. */
const MAX_BYTES = 32 * 1024 * 1024

interface Entry {
	/** Base64url SHA-256 of the plain bytes: the ETag's core. */
	hash: string
	bodies: Record<Encoding, Buffer>
	/** The headers of a 200 and of a 304, per encoding, made once. */
	responseHeaders: Record<Encoding, Record<string, string>>
	notModified: Record<Encoding, Record<string, string>>
	/**
	 * The same as one flat list of names and values, the server's own headers first, for
	 * `writeHead(status, list)` on a hit (`serveHit`): made once, only the last value (the request's
	 * id) is written per request.
	 */
	rawHit: Record<Encoding, string[]>
	rawNotModified: Record<Encoding, string[]>
	/** The same for an answer from the entry past its TTL, while one render refreshes it (`x-page-cache: stale`). */
	rawStale: Record<Encoding, string[]>
	rawStaleNotModified: Record<Encoding, string[]>
	/** The route module that rendered it (the metrics' label). */
	route: string
	storedAt: number
}

/**
 * A page a hit was answered from (`serveHit`; its status is the response's): the same object for
 * every hit on it until it is replaced, so that a caller can keep what it works out once per page.
 */
export interface CachedPage {
	/** The route module that rendered it. */
	readonly route: string
}

/** The name of the one per-request header of a hit, last in its list. */
const REQUEST_ID_HEADER = 'X-Request-Id'

/**
 * A flat header list: `first` (the server's own headers), then `then` where it names the same header
 * (as writeHead with an object would have it after setHeader), then the request id's slot.
 */
function rawHeaderList(first: Record<string, string>, then: Record<string, string>): string[] {
	const merged = new Map<string, [string, string]>()
	for (const [name, value] of Object.entries(first)) merged.set(name.toLowerCase(), [name, value])
	for (const [name, value] of Object.entries(then)) merged.set(name.toLowerCase(), [name, value])
	merged.delete(REQUEST_ID_HEADER.toLowerCase())
	return [...[...merged.values()].flat(), REQUEST_ID_HEADER, '']
}

const ENCODINGS: Encoding[] = ['br', 'gzip', 'identity']

/** The status of a response to what a visitor sent, as the header says it (for tests and logs). */
const CACHE_STATUS_HEADER = 'x-page-cache'

const gzip = promisify(zlib.gzip)
const brotli = promisify(zlib.brotliCompress)

/** Headers of the rendered response that the cache sets itself, or that belong to one response only. */
const DROPPED_HEADERS = new Set([
	'content-length',
	'content-encoding',
	'content-security-policy',
	'date',
	'etag',
	'set-cookie',
	'transfer-encoding',
	'connection',
	'keep-alive',
	'vary',
	CACHE_STATUS_HEADER,
])

/** React Router's `<link rel="modulepreload">` tags (React hoists them into <head>). */
const MODULE_PRELOAD = /<link rel="modulepreload"[^>]*\/>/g

/** React Router's inline module script: it imports the matched routes' modules, then the entry. */
const ROUTE_MODULES_SCRIPT =
	/(<script type="module" async="">)((?:(?!<\/script>)[\s\S])*?window\.__reactRouterRouteModules(?:(?!<\/script>)[\s\S])*?)(<\/script>)/
/** One of its static imports: `import "x";` or `import * as name from "x";`, on a line of its own. */
const STATIC_IMPORT = /^[ \t]*import\s+(?:\*\s+as\s+([A-Za-z_$][\w$]*)\s+from\s+)?("[^"\n]+")\s*;[ \t]*$/gm
/** Past this, the modules are fetched whatever the page is doing (a slow image, a hidden tab). */
const HYDRATION_WAIT_CAP_MS = 3_000

/**
 * What the module script waits for before its imports: the `load` event, then the first contentful
 * paint on screen (Paint Timing reports it once presented), then two more frames; or
 * HYDRATION_WAIT_CAP_MS, whichever comes first.
 */
const WAIT_FOR_FIRST_PAINT = `await new Promise((go) => {
setTimeout(go, ${HYDRATION_WAIT_CAP_MS});
const frames = () => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(go)));
const painted = () => {
if (typeof PerformanceObserver === 'undefined' || performance.getEntriesByName('first-contentful-paint').length > 0) return frames();
const observer = new PerformanceObserver(() => { observer.disconnect(); frames() });
observer.observe({ type: 'paint' });
};
if (document.readyState === 'complete') painted(); else addEventListener('load', painted, { once: true });
});`

/**
 * The module script of a cached page, made to start once the page has loaded and is on screen: its
 * static imports become dynamic ones that wait for WAIT_FOR_FIRST_PAINT. A first visit on a phone's
 * network thus spends its bandwidth on what the first paint needs (the stylesheet, the display
 * face, the cover) before some 150 kB of modules, instead of sharing it with them; the page is
 * whole and usable meanwhile (links and forms work without JavaScript) and hydrates right after.
 * Returns the page unchanged if the script is not there or does not read as expected.
 */
export function deferHydration(html: string): string {
	const found = ROUTE_MODULES_SCRIPT.exec(html)
	if (!found) return html
	const [whole, open, code, close] = found as unknown as [string, string, string, string]
	const imports: { name: string | undefined; specifier: string }[] = []
	const rest = code.replace(STATIC_IMPORT, (_line, name: string | undefined, specifier: string) => {
		imports.push({ name, specifier })
		return ''
	})
	// Anything else that imports statically (a form this does not know): leave the page as it is.
	if (imports.length === 0 || /^\s*import\s+[^(]/m.test(rest)) return html
	const names = imports.map((entry, index) => entry.name ?? `_unused${index}`)
	const deferred = [
		WAIT_FOR_FIRST_PAINT,
		`const [${names.join(', ')}] = await Promise.all([${imports.map((entry) => `import(${entry.specifier})`).join(', ')}]);`,
		rest,
	].join('\n')
	return html.replace(whole, () => open + deferred + close)
}

/** The SHA-256 (base64) of every inline script of a document, as CSP hash sources want them. */
export function inlineScriptHashes(html: string): string[] {
	const hashes = new Set<string>()
	for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
		if (/\ssrc\s*=/i.test(match[1]!)) continue
		hashes.add(createHash('sha256').update(match[2]!, 'utf8').digest('base64'))
	}
	return [...hashes]
}

/** Whether a visitor's If-None-Match names this entry (any of its encodings), or is `*`. */
function matchesEtag(ifNoneMatch: string, hash: string): boolean {
	if (ifNoneMatch.trim() === '*') return true
	return ifNoneMatch.split(',').some((tag) => {
		const opaque = /^\s*(?:W\/)?"([^"]*)"\s*$/.exec(tag)?.[1]
		return opaque !== undefined && opaque.replace(/-(?:br|gz)$/, '') === hash
	})
}

function etagOf(hash: string, encoding: Encoding): string {
	return encoding === 'br' ? `"${hash}-br"` : encoding === 'gzip' ? `"${hash}-gz"` : `"${hash}"`
}

export function createPageCache(options: {
	build: ServerBuild
	app: PageCacheApp
	/** React Router's own fetch handler. */
	render: (request: Request) => Promise<Response>
	/** The site's address: cached pages never depend on the Host a visitor sends. */
	siteUrl: string
	/** What the server sends with every answer (security headers), built into a hit's header list. */
	serverHeaders?: Record<string, string>
	/** A request's client address, for the render that refreshes a stale entry from `serveHit`. */
	clientAddress?: (req: http.IncomingMessage) => string
	onError?: (error: unknown) => void
	now?: () => number
}) {
	const serverHeaders = options.serverHeaders ?? {}
	const { app, render, siteUrl } = options
	const now = options.now ?? Date.now
	const routeOf = createRouteLookup(options.build.routes)
	const entries = new LRUCache<string, Entry>({
		maxSize: MAX_BYTES,
		sizeCalculation: (entry) => entry.bodies.identity.length + entry.bodies.gzip.length + entry.bodies.br.length + 1024,
	})
	const filling = new Map<string, Promise<{ entry?: Entry; response?: Response }>>()
	const stopListening = app.onChange(() => entries.clear())

	/** The cache key of a request the cache may answer (its path), or null: React Router renders it for this visitor. */
	function cacheKey(req: http.IncomingMessage): string | null {
		if (req.method !== 'GET' && req.method !== 'HEAD') return null
		// Any cookie may be a session or a flash message; Authorization is a signed-in client.
		if (req.headers.cookie !== undefined || req.headers.authorization !== undefined) return null
		// ?code=, ?redirectTo=, ?page=, ?token=, a data request's ?_routes=: rendered per request.
		const path = req.url ?? ''
		if (!path.startsWith('/') || path.includes('?') || path.includes('#')) return null
		// A path already kept passed the rule below when it was stored.
		if (entries.has(path)) return path
		if (path.endsWith('.data') || path.startsWith('/__')) return null
		const leaf = routeOf(path)
		return leaf && app.routeIds.has(leaf) ? path : null
	}

	function isStorable(response: Response): boolean {
		if (response.status !== 200 || !response.body) return false
		if (!(response.headers.get('content-type') ?? '').startsWith('text/html')) return false
		if (response.headers.has('set-cookie')) return false
		// A route may still say, for one response, that it is nobody else's.
		return !/\b(?:private|no-store)\b/i.test(response.headers.get('cache-control') ?? '')
	}

	/**
	 * The entry of a rendered page. `previous`: the entry it replaces; when the page's bytes are the
	 * same (most refreshes past the TTL: only what depends on the clock changes, seldom), its compressed
	 * copies and hash are reused instead of being made again (brotli at its best costs some 50 ms of CPU
	 * per page, a refresh's largest part).
	 */
	async function toEntry(response: Response, route: string, previous?: Entry): Promise<Entry> {
		let html = await response.text()
		// The render's nonce is worthless once the bytes are shared: take it out, allow scripts by hash.
		const nonce = /'nonce-([^']+)'/.exec(response.headers.get('content-security-policy') ?? '')?.[1]
		if (nonce) html = html.replaceAll(` nonce="${nonce}"`, '')
		// The first paint needs no script: a first visit's bandwidth goes to the stylesheet, the
		// fonts and the images; the modules are fetched once the page has loaded (deferHydration).
		html = deferHydration(html.replace(MODULE_PRELOAD, ''))
		const fresh = Buffer.from(html, 'utf8')
		const same = previous !== undefined && previous.bodies.identity.equals(fresh)
		const identity = same ? previous.bodies.identity : fresh
		const [gzipped, brotlied] = same
			? [previous.bodies.gzip, previous.bodies.br]
			: await Promise.all([
					gzip(identity, { level: 9 }),
					brotli(identity, {
						params: {
							[zlib.constants.BROTLI_PARAM_QUALITY]: 11,
							[zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
							[zlib.constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
						},
					}),
				])
		const headers: Record<string, string> = {}
		for (const [name, value] of response.headers) if (!DROPPED_HEADERS.has(name)) headers[name] = value
		headers['cache-control'] ??= 'no-cache'
		if (process.env.NODE_ENV === 'production') headers['content-security-policy'] = app.policy(inlineScriptHashes(html))
		headers['vary'] = 'Accept-Encoding, Cookie'
		const hash = same ? previous.hash : createHash('sha256').update(identity).digest('base64url').slice(0, 27)
		const bodies = { identity, gzip: gzipped, br: brotlied }
		const responseHeaders = {} as Entry['responseHeaders']
		const notModified = {} as Entry['notModified']
		const rawHit = {} as Entry['rawHit']
		const rawNotModified = {} as Entry['rawNotModified']
		const rawStale = {} as Entry['rawStale']
		const rawStaleNotModified = {} as Entry['rawStaleNotModified']
		for (const encoding of ENCODINGS) {
			const etag = etagOf(hash, encoding)
			responseHeaders[encoding] = {
				...headers,
				...(encoding === 'identity' ? {} : { 'content-encoding': encoding }),
				'content-length': String(bodies[encoding].length),
				etag,
				[CACHE_STATUS_HEADER]: 'hit',
			}
			notModified[encoding] = { etag, 'cache-control': headers['cache-control'], vary: headers['vary'] }
			rawHit[encoding] = rawHeaderList(serverHeaders, responseHeaders[encoding])
			rawNotModified[encoding] = rawHeaderList(serverHeaders, { ...notModified[encoding], [CACHE_STATUS_HEADER]: 'hit' })
			rawStale[encoding] = rawHeaderList(serverHeaders, { ...responseHeaders[encoding], [CACHE_STATUS_HEADER]: 'stale' })
			rawStaleNotModified[encoding] = rawHeaderList(serverHeaders, { ...notModified[encoding], [CACHE_STATUS_HEADER]: 'stale' })
		}
		return {
			hash,
			bodies,
			responseHeaders,
			notModified,
			rawHit,
			rawNotModified,
			rawStale,
			rawStaleNotModified,
			route,
			storedAt: now(),
		}
	}

	/** The client's address as the server set it for the app (server/main.ts), for the render's request. */
	function addressOf(req: http.IncomingMessage): string | undefined {
		const address = req.headers['x-client-address']
		return typeof address === 'string' ? address : undefined
	}

	/** Renders the page once for everyone asking at the same time; keeps it unless content changed meanwhile. */
	function fill(key: string, address: string | undefined) {
		const running = filling.get(key)
		if (running) return { leader: false, result: running }
		const result = (async () => {
			const generation = app.generation()
			const headers = new Headers({ accept: 'text/html', [app.fillHeader]: '1' })
			if (address !== undefined) headers.set('x-client-address', address)
			const response = await render(new Request(new URL(key, siteUrl), { method: 'GET', headers }))
			if (!isStorable(response)) return { response }
			const entry = await toEntry(response, routeOf(key) ?? 'unmatched', entries.peek(key))
			if (generation === app.generation()) entries.set(key, entry)
			return { entry }
		})()
		filling.set(key, result)
		void result.finally(() => filling.delete(key)).catch(() => {})
		return { leader: true, result }
	}

	/**
	 * Renders a stale entry's page again in the background (once, however many ask meanwhile). When
	 * the page is no longer one to keep, the stale copy goes: the next visitor gets the render.
	 */
	function refresh(key: string, address: string | undefined, stale: Entry) {
		if (filling.has(key)) return
		const { leader, result } = fill(key, address)
		if (!leader) return
		const forget = () => {
			if (entries.peek(key) === stale) entries.delete(key)
		}
		result
			.then(async (outcome) => {
				if (outcome.entry) return
				forget()
				await outcome.response?.body?.cancel()
			})
			.catch((error: unknown) => {
				forget()
				options.onError?.(error)
			})
	}

	function send(req: http.IncomingMessage, res: http.ServerResponse, entry: Entry, status: 'hit' | 'miss' | 'stale') {
		const encoding = preferredEncoding(req.headers['accept-encoding'])
		const ifNoneMatch = req.headers['if-none-match']
		if (ifNoneMatch !== undefined && matchesEtag(ifNoneMatch, entry.hash)) {
			res.writeHead(304, { ...entry.notModified[encoding], [CACHE_STATUS_HEADER]: status })
			res.end()
			return
		}
		// A Range is ignored (allowed for any resource): the whole page, 200, every time.
		res.writeHead(
			200,
			status === 'hit' ? entry.responseHeaders[encoding] : { ...entry.responseHeaders[encoding], [CACHE_STATUS_HEADER]: status },
		)
		if (req.method === 'HEAD') res.end()
		else res.end(entry.bodies[encoding])
	}

	/** A response the render gave that is not for keeping: sent as is to the visitor who asked. */
	async function sendRendered(req: http.IncomingMessage, res: http.ServerResponse, response: Response) {
		res.writeHead(response.status, nodeHeaders(response.headers))
		if (req.method === 'HEAD' || !response.body) {
			await response.body?.cancel()
			res.end()
			return
		}
		for await (const chunk of response.body) res.write(chunk)
		res.end()
	}

	async function answer(req: http.IncomingMessage, res: http.ServerResponse, key: string, fallback: () => void) {
		const entry = entries.get(key)
		if (entry) {
			const state = freshness(entry.storedAt, now())
			if (state === 'stale') refresh(key, addressOf(req), entry)
			if (state !== 'expired') return send(req, res, entry, state)
			entries.delete(key)
		}
		const { leader, result } = fill(key, addressOf(req))
		let outcome: { entry?: Entry; response?: Response }
		try {
			outcome = await result
		} catch (error) {
			if (leader) throw error
			return fallback()
		}
		if (outcome.entry) return send(req, res, outcome.entry, 'miss')
		// Not a page to keep (a redirect, a 404…): the one who rendered it gets it, the others their own render.
		if (leader && outcome.response) return sendRendered(req, res, outcome.response)
		fallback()
	}

	/** The stored entry of a request the cache may answer at once (fresh or not), if there is one. */
	function storedEntry(req: http.IncomingMessage): Entry | undefined {
		if (req.method !== 'GET' && req.method !== 'HEAD') return undefined
		if (req.headers.cookie !== undefined || req.headers.authorization !== undefined) return undefined
		// Only a path already stored passes (a key with ? or # never is): the rule of cacheKey held when it was.
		return entries.get(req.url ?? '')
	}

	return {
		/**
		 * A hit answered first, before anything else the server does per request: when an entry answers
		 * this request (fresh, or stale within its grace: then one render refreshes it in the background),
		 * its prepared header list (with `requestId`) and bytes are
		 * written in one `writeHead` and one `end`, and the page is returned (the status is
		 * `res.statusCode`); else null, and nothing was written. Nothing may have been set on `res` before (writeHead with a list is then
		 * the plain, cheap path); the server's own headers are in the list.
		 */
		serveHit(req: http.IncomingMessage, res: http.ServerResponse, requestId: string): CachedPage | null {
			const entry = storedEntry(req)
			if (!entry) return null
			// Past its TTL, within its grace: still the prepared answer (`stale`), while one render
			// refreshes it in the background, as `answer` does; under load a refresh takes a second or
			// more, and every answer the full way meanwhile cost several hits.
			const state = freshness(entry.storedAt, now())
			if (state === 'expired') return null
			const stale = state === 'stale'
			if (stale) refresh(req.url!, options.clientAddress?.(req), entry)
			const encoding = preferredEncoding(req.headers['accept-encoding'])
			const ifNoneMatch = req.headers['if-none-match']
			const notModified = ifNoneMatch !== undefined && matchesEtag(ifNoneMatch, entry.hash)
			const list = stale
				? (notModified ? entry.rawStaleNotModified : entry.rawStale)[encoding]
				: (notModified ? entry.rawNotModified : entry.rawHit)[encoding]
			// writeHead turns the list into the header block at once: the slot is free again right after.
			list[list.length - 1] = requestId
			res.writeHead(notModified ? 304 : 200, list)
			res.end(notModified || req.method === 'HEAD' ? undefined : entry.bodies[encoding])
			return entry
		},
		/**
		 * Answers the request from the cache (rendering the page once if needed) and returns true, or
		 * returns false at once: React Router renders it for this visitor. `fallback` renders it too,
		 * for a visitor who waited on a page that turned out not to be for keeping.
		 */
		take(req: http.IncomingMessage, res: http.ServerResponse, fallback: () => void): boolean {
			delete req.headers[app.fillHeader]
			const key = cacheKey(req)
			if (key === null) {
				noteAdminWrite(req, res)
				return false
			}
			answer(req, res, key, fallback).catch((error: unknown) => {
				options.onError?.(error)
				if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' })
				res.end(res.headersSent ? undefined : getT()('http.serverError'))
			})
			return true
		},
		/** For tests and the bench: how much is kept. */
		stats: () => ({ entries: entries.size, bytes: entries.calculatedSize }),
		/** Forgets every page and stops listening for changes (a development build replaced by the next). */
		close() {
			stopListening()
			entries.clear()
		},
	}

	/**
	 * Whatever an admin screen changes, public pages may show: a write under /dashboard/admin that
	 * succeeded clears every instance's cache, even from a feature that forgot to say so itself.
	 */
	function noteAdminWrite(req: http.IncomingMessage, res: http.ServerResponse) {
		if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return
		let pathname: string
		try {
			pathname = new URL(req.url ?? '/', 'http://x').pathname
		} catch {
			return
		}
		if (pathname !== '/dashboard/admin' && !pathname.startsWith('/dashboard/admin/')) return
		res.once('finish', () => {
			if (res.statusCode < 400) app.changed().catch((error: unknown) => options.onError?.(error))
		})
	}
}
