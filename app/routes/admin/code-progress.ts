import { eq } from 'drizzle-orm'
import { data } from 'react-router'
import type { Route } from './+types/code-progress'
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import { batchTopic } from '#app/features/codes/batches.server.ts'
import { codeBatch } from '#app/platform/db/schema.ts'
import { getPlatform } from '#app/platform/platform.server.ts'
import { eventStream } from '#app/platform/realtime.server.ts'

/** GET /dashboard/admin/codes/batches/:batchId/progress: a batch's progress as Server-Sent Events. */
export async function loader({ request, params }: Route.LoaderArgs) {
	await requireAdmin(request)
	const { database, realtime } = await getPlatform()
	const [batch] = await database.db
		.select({ created: codeBatch.created, requested: codeBatch.requested, status: codeBatch.status })
		.from(codeBatch)
		.where(eq(codeBatch.id, params.batchId))
	if (!batch) throw data(null, { status: 404 })
	return eventStream(request, (send) => {
		send('progress', { created: batch.created, requested: batch.requested, done: batch.status === 'done' || batch.status === 'failed' })
		return realtime.subscribe(batchTopic(params.batchId), (message) => send('progress', message))
	})
}
