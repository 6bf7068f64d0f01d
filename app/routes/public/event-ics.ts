import type { Route } from './+types/event-ics'
import { eventCalendar } from '#app/features/events/calendar.server.ts'
import { icsFileName } from '#app/features/events/ics.ts'
import { cachingHeaders, notModifiedResponse, resolveEvent } from '#app/features/events/page.server.ts'
import { getT } from '#app/platform/i18n.server.ts'

/**
 * « Ajouter à mon agenda »: the show as an iCalendar file to open in any agenda. The same rules as
 * its page: published for everyone, a draft for an admin only, otherwise a 404.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
	const resolved = await resolveEvent(request, params.eventId)
	if (!resolved) {
		return new Response(getT()('events.calendar.notFound'), {
			status: 404,
			headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
		})
	}
	const headers = cachingHeaders(resolved, 'ics')
	const notModified = notModifiedResponse(request, headers)
	if (notModified) return notModified
	const { detail } = resolved
	const fileName = icsFileName(detail.start.parisDay, detail.title)
	headers.set('Content-Type', 'text/calendar; charset=utf-8')
	headers.set('Content-Disposition', `attachment; filename="${fileName}"`)
	headers.set('X-Robots-Tag', 'noindex')
	return new Response(eventCalendar(detail), { headers })
}
