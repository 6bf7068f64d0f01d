import type { Route } from './+types/newsletter-progress'
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import { CAMPAIGN_TOPIC, campaignProgress, type CampaignProgress } from '#app/features/newsletter/sender.server.ts'
import { getPlatform } from '#app/platform/platform.server.ts'
import { eventStream } from '#app/platform/realtime.server.ts'

/** A campaign's progress as server-sent events: its state now, then every step any instance publishes. */
export async function loader({ request, params }: Route.LoaderArgs) {
	await requireAdmin(request)
	const { database, realtime } = await getPlatform()
	const first = await campaignProgress(database.db, params.campaignId)
	if (!first) return new Response(null, { status: 404 })
	return eventStream(request, (send) => {
		send('progress', first)
		return realtime.subscribe(CAMPAIGN_TOPIC, (progress) => {
			if ((progress as CampaignProgress | null)?.id === params.campaignId) send('progress', progress)
		})
	})
}
