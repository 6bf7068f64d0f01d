import { createHash } from 'node:crypto'
import type { Route } from './+types/events-ics'
import { upcomingCalendar } from '#app/features/events/calendar.server.ts'
import { isNotModified, lastModified, weakEtag } from '#app/features/events/cache.server.ts'
import { getDb } from '#app/platform/platform.server.ts'

/**
 * /events.ics: every upcoming show, as a calendar an agenda can subscribe to (it fetches it again
 * every few hours). Its validator is the content's own hash: calendar clients revalidate cheaply.
 */
export async function loader({ request }: Route.LoaderArgs) {
	const { body, lastModified: changedAt } = await upcomingCalendar(await getDb())
	const headers = new Headers({
		'Content-Type': 'text/calendar; charset=utf-8',
		'Content-Disposition': 'inline; filename="concerts.ics"',
		'Cache-Control': 'public, max-age=300, stale-while-revalidate=3600',
		ETag: weakEtag('calendar', createHash('sha256').update(body).digest('base64url')),
		'Last-Modified': lastModified(changedAt ?? new Date(0)),
		'X-Robots-Tag': 'noindex',
	})
	// The list also changes when a show ends, which no modification time records: the hash alone decides.
	if (isNotModified(request, { etag: headers.get('ETag')! })) {
		return new Response(null, { status: 304, headers })
	}
	return new Response(body, { headers })
}
