import type { Db } from '#app/platform/db/client.server.ts'
import { redirectWithFlash } from '#app/platform/flash.server.ts'
import { withoutUnsafeCharacters } from '#app/platform/text-field.ts'
import { cachedUntilChanged } from '#app/platform/table-memory.server.ts'
import { deleteEvent, readEventList, type EventList } from './admin.server.ts'
import { EVENT_SEARCH_MAX, listUrl, readTab } from './list/list-url.ts'

/*
 * The admin's list of events, its server side apart from the route: what the address asks for
 * (a tab, a search cleaned and cut to its limit, a page) and the deletion made from a row, which
 * comes back to the same tab and search with a word of what happened.
 */

/** The search as the address gives it: unsafe characters dropped, trimmed, cut to the limit. */
const readSearch = (params: URLSearchParams) =>
	withoutUnsafeCharacters(params.get('q') ?? '')
		.trim()
		.slice(0, EVENT_SEARCH_MAX)

/**
 * The page of the list that the address asks for. Kept in memory until a statement writes the
 * events' table (the database's signal, app/platform/table-memory.server.ts) or an event of it
 * passes from upcoming to past, whichever comes first.
 */
export async function eventListPage(db: Db, url: URL): Promise<EventList> {
	const params = url.searchParams
	const parsed = Number.parseInt(params.get('page') ?? '1', 10)
	const options = { tab: readTab(params.get('tab')), query: readSearch(params), page: Number.isFinite(parsed) ? parsed : 1 }
	const key = `${options.tab}\u0000${options.page}\u0000${options.query}`
	const read = await cachedUntilChanged(
		'event',
		key,
		() => readEventList(db, options),
		(answer) => answer.changesAt,
	)
	return read.list
}

/** Deletes the event of a row and goes back to the list as it was (its first page), saying so. */
export async function deleteFromList(db: Db, eventId: string, url: URL) {
	const params = url.searchParams
	const back = listUrl({ tab: readTab(params.get('tab')), q: readSearch(params) })
	const deleted = await deleteEvent(db, eventId)
	if (!deleted) return redirectWithFlash(back, { type: 'info', key: 'admin.events.flash.alreadyDeleted' })
	return redirectWithFlash(back, { type: 'success', key: 'admin.events.flash.deleted', values: { title: deleted.title } })
}
