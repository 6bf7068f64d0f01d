import { getSessionUser } from '#app/features/accounts/session.server.ts'
import { getPlatform } from '#app/platform/platform.server.ts'
import { pageViewOf, type RequestFacts } from './page-view-rules.ts'
import { PageViewCounter } from './page-views.server.ts'

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

/** Writes the buffered counts (at shutdown). */
export async function flushPageViews(): Promise<void> {
	await counter?.flush()
}
