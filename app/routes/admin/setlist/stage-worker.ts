import type { Route } from './+types/stage-worker'
import workerSource from '#app/features/setlist/stage-worker.js?raw'
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import { SESSION_TTL_SECONDS } from '#app/platform/auth.server.ts'
import { getT } from '#app/platform/i18n.server.ts'

/*
 * GET /dashboard/admin/setlist/stage-worker.js: the stage views' service worker
 * (app/features/setlist/stage-worker.js), with its French strings. Served from this folder, its
 * scope can be no wider than /dashboard/admin/setlist/ (no Service-Worker-Allowed header), and it
 * answers only the stage views in it (docs/decisions/0021-stage-view-offline.md). Never kept by a cache
 * (no-cache at least; the admin's cookie makes it no-store), so that a new version applies at the
 * next visit; not a page, so the anonymous page cache never holds it (app/cacheable-pages.ts).
 */
export async function loader({ request }: Route.LoaderArgs) {
	await requireAdmin(request)
	const t = getT()
	const config = {
		// A kept copy is never shown past what a session lasts unused (app/platform/auth.server.ts).
		keepMs: SESSION_TTL_SECONDS * 1000,
		strings: {
			title: t('setlist.stage.offline.title'),
			body: t('setlist.stage.offline.body'),
			available: t('setlist.stage.offline.available'),
			noneKept: t('setlist.stage.offline.noneKept'),
			unnamed: t('setlist.stage.offline.unnamed'),
			retry: t('setlist.stage.offline.retry'),
		},
	}
	// JSON inside a script: `<` escaped, so a string can never close anything.
	const script = `const STAGE = ${JSON.stringify(config).replaceAll('<', '\\u003c')};\n${workerSource}`
	return new Response(script, {
		headers: {
			'Content-Type': 'text/javascript; charset=utf-8',
			'Cache-Control': 'no-cache',
			// The worker itself fetches only from this site.
			'Content-Security-Policy': "default-src 'self'",
		},
	})
}
