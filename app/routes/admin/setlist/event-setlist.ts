import { data } from 'react-router'
import type { Route } from './+types/event-setlist'
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import { attachSetlist, listSetlists, setlistOfEvent, setSetlistPublished } from '#app/features/setlist/setlists.server.ts'
import { formatDateTime } from '#app/platform/time-zone.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { getDb } from '#app/platform/platform.server.ts'

/*
 * The event editor's setlist panel talks to this endpoint: GET gives the event's setlist and the
 * setlists it could have; POST attaches one (or none), publishes or withdraws it. The same rules
 * as the setlist's own screen (features/setlist/setlists.server.ts), behind the same admin check.
 */

export interface EventSetlistState {
	current: { id: string; name: string; published: boolean } | null
	choices: Array<{ id: string; name: string; eventTitle: string | null }>
	error?: string
}

async function state(eventId: string): Promise<EventSetlistState> {
	const db = await getDb()
	const [current, all] = await Promise.all([setlistOfEvent(db, eventId), listSetlists(db)])
	return {
		current: current ? { id: current.id, name: current.name, published: current.published } : null,
		choices: all.map((s) => ({ id: s.id, name: s.name, eventTitle: s.event && s.event.id !== eventId ? s.event.title : null })),
	}
}

export async function loader({ request, params }: Route.LoaderArgs) {
	await requireAdmin(request)
	return state(params.eventId)
}

export async function action({ request, params }: Route.ActionArgs) {
	await requireAdmin(request)
	const db = await getDb()
	const formData = await request.formData()
	const intent = String(formData.get('intent') ?? '')
	const t = getT()
	if (intent === 'attach' || intent === 'detach') {
		const current = await setlistOfEvent(db, params.eventId)
		const setlistId = intent === 'attach' ? String(formData.get('setlistId') ?? '') : (current?.id ?? '')
		if (!setlistId) return data({ ...(await state(params.eventId)), error: t('setlist.event.choose') }, { status: 400 })
		if (intent === 'attach' && current && current.id !== setlistId) {
			return data({ ...(await state(params.eventId)), error: t('setlist.event.detachFirst', { name: current.name }) }, { status: 400 })
		}
		const result = await attachSetlist(db, setlistId, intent === 'attach' ? params.eventId : null)
		if (!result.ok) {
			const error =
				result.reason === 'event-taken'
					? t('setlist.event.taken', { name: result.takenBy ?? '' })
					: result.reason === 'not-found'
						? t('setlist.event.setlistGone')
						: t('setlist.event.unknown')
			return data({ ...(await state(params.eventId)), error }, { status: 400 })
		}
		return state(params.eventId)
	}
	if (intent === 'publish' || intent === 'unpublish') {
		const current = await setlistOfEvent(db, params.eventId)
		if (!current) return data({ ...(await state(params.eventId)), error: t('setlist.event.setlistGone') }, { status: 400 })
		const result = await setSetlistPublished(db, current.id, intent === 'publish')
		if (!result.ok) {
			const error =
				result.reason === 'not-started'
					? t('setlist.event.notStarted', { date: formatDateTime(result.startsAt) })
					: result.reason === 'stale'
						? t('setlist.event.stalePublish')
						: t('setlist.event.setlistGone')
			return data({ ...(await state(params.eventId)), error }, { status: 400 })
		}
		return state(params.eventId)
	}
	throw data(null, { status: 400 })
}
