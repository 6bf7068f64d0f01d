import { LRUCache } from 'lru-cache'
import { getSessionUser } from '#app/features/accounts/session.server.ts'
import { getPlatform } from '#app/platform/platform.server.ts'
import { cachedPagePath, isCachedPageView, pageViewOf, referringDomain, type RequestFacts } from './page-view-rules.ts'
import { PageViewCounter, type PageSlot } from './page-views.server.ts'

/*
 * The hook the HTTP server calls once a response is finished (server/page-views.ts), for every
 * response, rendered or served from the anonymous page cache alike. It never delays the response:
 * the server does not wait for it, and it only updates a counter in memory.
 */
let counter: PageViewCounter | undefined
let siteHost: string | undefined

async function getCounter() {
	if (counter) return counter
	const platform = await getPlatform()
	siteHost = new URL(platform.env.SITE_URL).hostname
	counter = new PageViewCounter(platform.database.db, { logger: platform.logger, realtime: platform.realtime })
	return counter
}

export function countPageView(facts: RequestFacts & { cookie?: string }): Promise<void> {
	// Once the counter is open, an anonymous view is counted at once, without a promise's round trip.
	if (counter && !facts.cookie?.includes('session_token=')) {
		const view = pageViewOf(facts, siteHost!)
		if (view) counter.record(view)
		return DONE
	}
	return countSlowly(facts)
}
const DONE = Promise.resolve()

async function countSlowly(facts: RequestFacts & { cookie?: string }): Promise<void> {
	const current = await getCounter()
	const view = pageViewOf(facts, siteHost!)
	if (!view) return
	// The band's own visits do not count: a signed-in admin's views are left out.
	if (facts.cookie?.includes('session_token=')) {
		const user = await getSessionUser(new Request('http://site.invalid/', { headers: { cookie: facts.cookie } }))
		if (user?.role === 'admin') return
	}
	current.record(view)
}

/**
 * The slot a page of the anonymous cache (a path without a query, answered as HTML) counts its
 * views in, asked once per cached page: null when its views are not counted, undefined while the
 * counter is not open yet (ask again later).
 */
export function pageViewSlot(url: string): PageSlot | null | undefined {
	if (!counter) {
		void getCounter()
		return undefined
	}
	const path = cachedPagePath(url)
	return path === null ? null : counter.slot(path)
}

/**
 * A GET answered 200 or 304 from the anonymous cache (no cookie: never an admin's), counted if it is
 * a view (the rules of pageViewOf): one added to the page's slot, or, from another site, a view
 * with its referring site.
 */
export function countCachedView(slot: PageSlot, headers: RequestFacts['headers']): void {
	if (!isCachedPageView(headers)) return
	const referrer = headers.referer === undefined ? '' : domainOf(headers.referer)
	if (referrer === '') counter!.count(slot)
	else counter!.record({ path: slot.path, referrer, utmSource: '' })
}

/** referringDomain per Referer, kept: a site's own pages are most of them. */
const domains = new LRUCache<string, string>({ max: 1_000 })
function domainOf(referer: string): string {
	let domain = domains.get(referer)
	if (domain === undefined) {
		domain = referringDomain(referer, siteHost!)
		domains.set(referer, domain)
	}
	return domain
}

/** Writes the buffered counts (at shutdown). */
export async function flushPageViews(): Promise<void> {
	await counter?.flush()
}
