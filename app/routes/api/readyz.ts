import type { Route } from './+types/readyz'
import { carriesMetricsToken } from '#app/platform/metrics-token.server.ts'
import { getEnv } from '#app/platform/env.server.ts'
import { readiness } from '#app/platform/readiness.server.ts'

/**
 * Readiness, for load balancers: may this instance take traffic now? The database answers, the
 * job queue runs, and the process is not shutting down. (`/healthz` is liveness: is it up at all.)
 * Everyone gets the status; which check failed, and how long they took, only the bearer of METRICS_TOKEN.
 */
export async function loader({ request }: Route.LoaderArgs) {
	const report = await readiness()
	const body = carriesMetricsToken(request, getEnv().METRICS_TOKEN) ? report : { status: report.status }
	return Response.json(body, { status: report.status === 'ready' ? 200 : 503, headers: { 'Cache-Control': 'no-store' } })
}
