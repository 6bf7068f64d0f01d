import type { Route } from './+types/newsletter-import-progress'
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import { importProgress, importTopic } from '#app/features/newsletter/imports.server.ts'
import { getPlatform } from '#app/platform/platform.server.ts'
import { eventStream } from '#app/platform/realtime.server.ts'

/** GET …/newsletter/imports/:importId/progress: a subscriber import's progress as server-sent events. */
export async function loader({ request, params }: Route.LoaderArgs) {
	await requireAdmin(request)
	const { database, realtime } = await getPlatform()
	const first = await importProgress(database.db, params.importId)
	if (!first) return new Response(null, { status: 404 })
	return eventStream(request, (send) => {
		send('progress', first)
		return realtime.subscribe(importTopic(params.importId), (progress) => send('progress', progress))
	})
}
