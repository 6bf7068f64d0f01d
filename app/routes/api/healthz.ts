import type { Route } from './+types/healthz'
import { getEnv } from '#app/platform/env.server.ts'
import { carriesMetricsToken } from '#app/platform/metrics-token.server.ts'
import { getPlatform } from '#app/platform/platform.server.ts'

const NO_STORE = { 'Cache-Control': 'no-store' }

/**
 * For load balancers and monitors: is the process up, and does the database answer? Everyone gets
 * the status; the database's kind and latency only go to the bearer of METRICS_TOKEN.
 */
export async function loader({ request }: Route.LoaderArgs) {
	const started = performance.now()
	const detailed = carriesMetricsToken(request, getEnv().METRICS_TOKEN)
	try {
		const platform = await getPlatform()
		await platform.database.ping()
		const database = { kind: platform.database.kind, status: 'ok', latencyMs: Math.round(performance.now() - started) }
		return Response.json(detailed ? { status: 'ok', database } : { status: 'ok' }, { headers: NO_STORE })
	} catch {
		return Response.json(detailed ? { status: 'error', database: { status: 'unavailable' } } : { status: 'error' }, {
			status: 503,
			headers: NO_STORE,
		})
	}
}
