import type { Route } from './+types/stats-csv'
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import { statsCsv } from '#app/features/stats/csv.ts'
import { readRange } from '#app/features/stats/range.ts'
import { loadStats } from '#app/features/stats/sources/index.server.ts'
import { getDb } from '#app/platform/platform.server.ts'
import { getT } from '#app/platform/i18n.server.ts'

/** The stats screen's numbers for the same period, as a CSV file. Admins only. */
export async function loader({ request }: Route.LoaderArgs) {
	await requireAdmin(request)
	const { range } = readRange(new URL(request.url).searchParams, getT())
	const csv = statsCsv(range, await loadStats(await getDb(), range))
	return new Response(csv, {
		headers: {
			'Content-Type': 'text/csv; charset=utf-8',
			'Content-Disposition': `attachment; filename="statistiques-${range.from}-${range.to}.csv"`,
			'Cache-Control': 'no-store',
		},
	})
}
