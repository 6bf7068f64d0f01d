import type { Route } from './+types/events'
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import { deleteFromList, eventListPage } from '#app/features/events/list.server.ts'
import { EventListView } from '#app/features/events/list/event-list-view.tsx'
import { pageTitle } from '#app/features/site/band.server.ts'
import { privatePageMeta } from '#app/features/site/page-meta.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { getDb } from '#app/platform/platform.server.ts'
import { httpError } from '#app/platform/http-error.ts'
import { routeStrings } from '#app/i18n/route-strings.ts'

/** The strings this screen needs in the browser (app/i18n/route-strings.ts). */
export const handle = routeStrings('admin.events', 'events.status', 'newsletter.announce')

/*
 * The admin's list of events, /dashboard/admin/events (?tab=, ?q=, ?page=): the page is
 * features/events/list, the reading of the address and the deletion features/events/list.server.
 * « Nouvel événement » opens an empty editor; nothing is stored until it is saved.
 */

export function meta({ loaderData }: Route.MetaArgs) {
	return privatePageMeta(loaderData?.title)
}

export async function loader({ request }: Route.LoaderArgs) {
	await requireAdmin(request)
	const list = await eventListPage(await getDb(), new URL(request.url))
	return { title: pageTitle(getT()('admin.events.metaTitle')), list }
}

export async function action({ request }: Route.ActionArgs) {
	await requireAdmin(request)
	const formData = await request.formData()
	if (formData.get('intent') !== 'delete') throw httpError(400)
	return deleteFromList(await getDb(), String(formData.get('eventId') ?? ''), new URL(request.url))
}

export default function AdminEvents({ loaderData }: Route.ComponentProps) {
	return <EventListView list={loaderData.list} />
}
