import type { Route } from './+types/newsletter-export'
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import { exportSubscribersCsv, parseStatus } from '#app/features/newsletter/admin.server.ts'
import { getDb } from '#app/platform/platform.server.ts'

/** The subscriber list as CSV (optionally one status), streamed. */
export async function loader({ request }: Route.LoaderArgs) {
	await requireAdmin(request)
	const status = parseStatus(new URL(request.url).searchParams.get('status'))
	const day = new Date().toISOString().slice(0, 10)
	return new Response(exportSubscribersCsv(await getDb(), status), {
		headers: {
			'Content-Type': 'text/csv; charset=utf-8',
			'Content-Disposition': `attachment; filename="abonnes-newsletter-${status ?? 'tous'}-${day}.csv"`,
			'Cache-Control': 'private, no-store',
		},
	})
}
