import type { Route } from './+types/live'
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import { CONTACT_TOPIC } from '#app/features/contact/contact.server.ts'
import { STATS_TOPIC } from '#app/features/stats/topics.ts'
import { eventStream } from '#app/platform/realtime.server.ts'
import { getRealtime } from '#app/platform/platform.server.ts'
import { getT } from '#app/platform/i18n.server.ts'

/**
 * Server-sent events for the admin screens that update while open (stats, messages): one
 * `changed` event per signal on the topic, from any instance (LISTEN/NOTIFY). Admins only.
 */
const TOPICS = new Set([STATS_TOPIC, CONTACT_TOPIC])

export async function loader({ request }: Route.LoaderArgs) {
	await requireAdmin(request)
	const topic = new URL(request.url).searchParams.get('topic') ?? STATS_TOPIC
	if (!TOPICS.has(topic))
		return new Response(getT()('http.unknownTopic'), { status: 400, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
	const realtime = await getRealtime()
	return eventStream(request, (send) => {
		send('ready', { topic })
		return realtime.subscribe(topic, (data) => send('changed', data ?? {}))
	})
}
