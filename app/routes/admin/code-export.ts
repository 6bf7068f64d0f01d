import { eq } from 'drizzle-orm'
import { data } from 'react-router'
import type { Route } from './+types/code-export'
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import { batchCsv } from '#app/features/codes/batches.server.ts'
import { codeBatch, codeCampaign } from '#app/platform/db/schema.ts'
import { getPlatform } from '#app/platform/platform.server.ts'
import { contentDisposition } from '#app/platform/storage/storage.server.ts'

/** GET /dashboard/admin/codes/batches/:batchId/export.csv: the batch's codes, streamed. */
export async function loader({ request, params }: Route.LoaderArgs) {
	await requireAdmin(request)
	const { database, env } = await getPlatform()
	const [batch] = await database.db
		.select({ id: codeBatch.id, label: codeBatch.label, campaign: codeCampaign.name })
		.from(codeBatch)
		.innerJoin(codeCampaign, eq(codeCampaign.id, codeBatch.campaignId))
		.where(eq(codeBatch.id, params.batchId))
	if (!batch) throw data(null, { status: 404 })
	const name = `codes-${batch.campaign}${batch.label ? `-${batch.label}` : ''}.csv`.replace(/\s+/g, '-')
	return new Response(batchCsv(database.db, batch.id, env.SITE_URL), {
		headers: {
			'Content-Type': 'text/csv; charset=utf-8',
			'Content-Disposition': contentDisposition(name),
			'Cache-Control': 'private, no-store',
		},
	})
}
