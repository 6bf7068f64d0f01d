/*
 * The admin's list of events as an address: its tabs, its search and its pages, read the same way
 * by the server (loader, action) and written by the page's links. Nothing here touches the server.
 */

export const EVENT_LIST_PATH = '/dashboard/admin/events'

export const EVENT_TABS = ['upcoming', 'past', 'drafts'] as const
export type EventTab = (typeof EVENT_TABS)[number]

/** The longest search the list accepts (longer is cut). */
export const EVENT_SEARCH_MAX = 100

/** A tab named in the address, or the upcoming events for anything else. */
export function readTab(value: string | null): EventTab {
	return EVENT_TABS.includes(value as EventTab) ? (value as EventTab) : 'upcoming'
}

/** The list's address for a tab, a search and a page (defaults left out). */
export function listUrl(options: { tab: EventTab; q?: string; page?: number }): string {
	const params = new URLSearchParams()
	if (options.tab !== 'upcoming') params.set('tab', options.tab)
	if (options.q) params.set('q', options.q)
	if (options.page && options.page > 1) params.set('page', String(options.page))
	const search = params.toString()
	return search ? `${EVENT_LIST_PATH}?${search}` : EVENT_LIST_PATH
}
