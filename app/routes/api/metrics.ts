import type { Route } from './+types/metrics'
import { METRICS_CONTENT_TYPE, renderMetrics } from '#app/platform/metrics.server.ts'
import { carriesMetricsToken } from '#app/platform/metrics-token.server.ts'
import { getPlatform } from '#app/platform/platform.server.ts'
import { getT } from '#app/platform/i18n.server.ts'

/** Prometheus metrics, for the bearer of METRICS_TOKEN only; without a token configured, there is no such page. */
export async function loader({ request }: Route.LoaderArgs) {
	const platform = await getPlatform()
	const token = platform.env.METRICS_TOKEN
	if (!token) throw new Response(null, { status: 404 })
	if (!carriesMetricsToken(request, token)) {
		return new Response(`${getT()('http.metricsToken')}\n`, {
			status: 401,
			headers: { 'WWW-Authenticate': 'Bearer realm="metrics"', 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
		})
	}
	return new Response(await renderMetrics(platform), {
		headers: { 'Content-Type': METRICS_CONTENT_TYPE, 'Cache-Control': 'no-store' },
	})
}
