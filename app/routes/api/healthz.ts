import { getPlatform } from '#app/platform/platform.server.ts'

/** For load balancers and monitors: is the process up, and does the database answer? */
export async function loader() {
	const started = performance.now()
	try {
		const platform = await getPlatform()
		await platform.database.ping()
		return Response.json(
			{ status: 'ok', database: { kind: platform.database.kind, status: 'ok', latencyMs: Math.round(performance.now() - started) } },
			{ headers: { 'Cache-Control': 'no-store' } },
		)
	} catch {
		return Response.json(
			{ status: 'error', database: { status: 'unavailable' } },
			{ status: 503, headers: { 'Cache-Control': 'no-store' } },
		)
	}
}
