import { isbot } from 'isbot'
import { LRUCache } from 'lru-cache'

/*
 * Which requests are page views, and what is kept of them: the page's path, the referring site's
 * domain (not its address) and the UTM source. Nothing that identifies a visitor: no cookie is
 * read or set, no address or user agent is kept.
 */
export interface ViewedPage {
	path: string
	referrer: string
	utmSource: string
}

export interface RequestFacts {
	method: string
	/** The request target as received (path and query). */
	url: string
	status: number
	contentType: string | undefined
	headers: {
		accept?: string
		'sec-fetch-dest'?: string
		'sec-fetch-mode'?: string
		'sec-fetch-site'?: string
		'sec-purpose'?: string
		purpose?: string
		'x-moz'?: string
		'user-agent'?: string
		referer?: string
	}
}

/**
 * isbot's verdict per user agent, kept: its pattern is long, and a site sees a few hundred distinct
 * user agents an hour, each on many requests. Bounded: the least recently seen go first.
 */
const botVerdicts = new LRUCache<string, boolean>({ max: 1_000 })
function isBot(userAgent: string): boolean {
	let verdict = botVerdicts.get(userAgent)
	if (verdict === undefined) {
		verdict = isbot(userAgent)
		botVerdicts.set(userAgent, verdict)
	}
	return verdict
}

/** Areas that are not the public site (accounts, admin, API, files). */
const PRIVATE_PREFIXES = ['/dashboard', '/auth', '/api', '/files', '/media', '/healthz']
const PATH_MAX = 200
const DOMAIN_MAX = 100
const UTM_MAX = 50

export function isPublicPath(path: string): boolean {
	return !PRIVATE_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`)) && !path.endsWith('.data')
}

/**
 * The page view this response is, or null when it is not one to count. `siteHost` is the site's own host.
 *
 * One view is one public page shown to a person: the document a browser loads (a first visit, a
 * reload, a link opened in a new tab), or, once the page's script runs, the page's data React
 * Router fetches from the same site when a link is followed or the visitor goes back (`/events.data`
 * for `/events`). The data fetched again after a form is sent on a public page counts too (the
 * page is shown again); a prefetch never does.
 */
export function pageViewOf(facts: RequestFacts, siteHost: string): ViewedPage | null {
	if (facts.method !== 'GET') return null
	if (facts.status !== 200 && facts.status !== 304) return null
	const { headers } = facts
	if (!isPersonsRequest(headers)) return null

	let url: URL
	try {
		url = new URL(facts.url, 'http://site.invalid')
	} catch {
		return null
	}
	let path = url.pathname
	if (path.endsWith('.data')) {
		// A client-side navigation: the page's own script, from the site itself (never another site's fetch()).
		if (headers['sec-fetch-site'] !== 'same-origin' || headers['sec-fetch-mode'] !== 'cors' || headers['sec-fetch-dest'] !== 'empty')
			return null
		path = path === '/_root.data' ? '/' : path.slice(0, -'.data'.length)
	} else {
		if (!isDocumentNavigation(headers)) return null
		// Not a page when the answer says it is something else (a header passed to writeHead() alone is not readable: then the request decides).
		if (facts.contentType !== undefined && !facts.contentType.startsWith('text/html')) return null
	}
	const counted = countedPath(path)
	if (counted === null) return null
	return { path: counted, referrer: referringDomain(headers.referer, siteHost), utmSource: utmSourceOf(url.searchParams.get('utm_source')) }
}

/** A person's browser, not a bot, and not a prefetch or a prerender (which are not views). */
function isPersonsRequest(headers: RequestFacts['headers']): boolean {
	const userAgent = headers['user-agent']
	if (!userAgent || isBot(userAgent)) return false
	const { 'sec-purpose': secPurpose, purpose, 'x-moz': xMoz } = headers
	if (secPurpose === undefined && purpose === undefined && xMoz === undefined) return true
	return !/prefetch|prerender/i.test(`${secPurpose ?? ''} ${purpose ?? ''} ${xMoz ?? ''}`)
}

/**
 * A person's navigation to a document: the browser says so (Sec-Fetch-Mode and Sec-Fetch-Dest, sent
 * by every current browser to a secure or local site), or, where they are not sent (older browsers,
 * a plain-http site), a request that accepts HTML. A fetch() or an iframe with a browser's user agent
 * is not a view.
 */
function isDocumentNavigation(headers: RequestFacts['headers']): boolean {
	const dest = headers['sec-fetch-dest']
	const mode = headers['sec-fetch-mode']
	if (dest !== undefined && dest !== 'document') return false
	if (mode !== undefined && mode !== 'navigate') return false
	if (dest === undefined && !headers.accept?.includes('text/html')) return false
	return true
}

/** The path a view of this request path is counted under (no trailing slash), or null when it is not a public page. */
function countedPath(pathname: string): string | null {
	const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname
	return isPublicPath(path) && path.length <= PATH_MAX ? path : null
}

/**
 * The page a document answered as HTML to a GET of `url` (a path without a query: a page the
 * anonymous cache holds) is counted under, worked out once per page; null when its views are not
 * counted. Which requests for it are views: `isCachedPageView`.
 */
export function cachedPagePath(url: string): string | null {
	const parsed = URL.parse(url, 'http://site.invalid')
	if (!parsed || parsed.search !== '' || parsed.pathname.endsWith('.data')) return null
	return countedPath(parsed.pathname)
}

/**
 * Whether a GET answered 200 or 304 with an HTML page from `cachedPagePath` is a view: the same
 * rules as pageViewOf, where the path, the status and the type are already known.
 */
export function isCachedPageView(headers: RequestFacts['headers']): boolean {
	return isPersonsRequest(headers) && isDocumentNavigation(headers)
}

/** The referring site's domain without « www. », or '' (none, our own site, or unreadable). */
export function referringDomain(referer: string | undefined, siteHost: string): string {
	if (!referer) return ''
	try {
		const url = new URL(referer)
		if (url.protocol !== 'http:' && url.protocol !== 'https:') return ''
		const host = url.hostname.toLowerCase().replace(/^www\./, '')
		if (host === siteHost.toLowerCase().replace(/^www\./, '')) return ''
		return host.slice(0, DOMAIN_MAX)
	} catch {
		return ''
	}
}

/** `utm_source`, lower-cased, letters, digits and . _ - only, or '' */
export function utmSourceOf(value: string | null): string {
	if (!value) return ''
	const clean = value.trim().toLowerCase().slice(0, UTM_MAX)
	return /^[a-z0-9._-]+$/.test(clean) ? clean : ''
}
