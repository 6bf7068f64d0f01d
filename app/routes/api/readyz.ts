import { readiness } from '#app/platform/readiness.server.ts'

/**
 * Readiness, for load balancers: may this instance take traffic now? The database answers, the
 * job queue runs, and the process is not shutting down. (`/healthz` is liveness: is it up at all.)
 */
export async function loader() {
	const report = await readiness()
	return Response.json(report, { status: report.status === 'ready' ? 200 : 503, headers: { 'Cache-Control': 'no-store' } })
}
