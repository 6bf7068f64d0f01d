import type { Route } from './+types/newsletter-export'
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import { exportSubscribersCsv, parseStatus } from '#app/features/newsletter/admin.server.ts'
import { parseSegment } from '#app/features/newsletter/segment.server.ts'
import { getDb } from '#app/platform/platform.server.ts'
import { parisDay } from '#app/platform/time-zone.ts'

/** The subscriber list as CSV (optionally one status and one segment), streamed. */
export async function loader({ request }: Route.LoaderArgs) {
	await requireAdmin(request)
	const params = new URL(request.url).searchParams
	const status = parseStatus(params.get('status'))
	// The same segment as the list on screen (source, dates, distance to a town).
	const { segment } = parseSegment(params)
	const day = parisDay()
	return new Response(exportSubscribersCsv(await getDb(), status, segment), {
		headers: {
			'Content-Type': 'text/csv; charset=utf-8',
			'Content-Disposition': `attachment; filename="abonnes-newsletter-${status ?? 'tous'}-${day}.csv"`,
			'Cache-Control': 'private, no-store',
		},
	})
}
