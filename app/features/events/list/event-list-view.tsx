import { CalendarPlus, X } from '#app/components/icons.tsx'
import { useState } from 'react'
import { Form, Link, useNavigation } from 'react-router'
import { SearchField } from '#app/components/forms/search-field.tsx'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { CountTabs } from '#app/components/ui/tabs.tsx'
import type { EventList } from '#app/features/events/admin.server.ts'
import { DeleteDialog } from '#app/features/events/editor/delete-dialog.tsx'
import { useTranslation } from '#app/i18n/react.tsx'
import { EmptyList } from './empty-list.tsx'
import { EventTable } from './event-table.tsx'
import { EVENT_LIST_PATH as LIST, EVENT_SEARCH_MAX, type EventTab, listUrl } from './list-url.ts'
import { Pagination } from './pagination.tsx'

/*
 * The admin's list of events: upcoming, past and drafts as tabs with their counts, a search on
 * title, venue and city (sent to the server as ?q=), pages of 50, and deletion behind a confirmation.
 */

export function EventListView({ list }: { list: EventList }) {
	const { t } = useTranslation()
	const [toDelete, setToDelete] = useState<{ id: string; title: string } | null>(null)
	const navigation = useNavigation()
	const deleting = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'delete'
	// Once the deletion went through (or failed), the dialog closes.
	const [wasDeleting, setWasDeleting] = useState(false)
	if (deleting !== wasDeleting) {
		setWasDeleting(deleting)
		if (!deleting) setToDelete(null)
	}
	const tabs: { id: EventTab; label: string }[] = [
		{ id: 'upcoming', label: t('admin.events.tabs.upcoming') },
		{ id: 'past', label: t('admin.events.tabs.past') },
		{ id: 'drafts', label: t('admin.events.tabs.drafts') },
	]
	const tabLabel = tabs.find((tab) => tab.id === list.tab)?.label
	const total = list.counts[list.tab]
	const from = total === 0 ? 0 : (list.page - 1) * list.pageSize + 1
	const to = Math.min(total, list.page * list.pageSize)
	const newEvent = (
		<Link to={`${LIST}/new`} className={buttonClasses('primary')}>
			<CalendarPlus aria-hidden="true" />
			{t('admin.events.new')}
		</Link>
	)

	return (
		<>
			<PageHeader title={t('admin.events.title')} description={t('admin.events.intro')} actions={newEvent} />

			<Form method="get" action={LIST} role="search" className="mt-6 flex max-w-3xl flex-wrap items-end gap-2">
				{list.tab !== 'upcoming' ? <input type="hidden" name="tab" value={list.tab} /> : null}
				<SearchField
					id="recherche-evenements"
					label={t('admin.events.search.label')}
					placeholder={t('admin.events.search.placeholder')}
					value={list.query}
					maxLength={EVENT_SEARCH_MAX}
					className="sm:max-w-md"
				/>
				<Button type="submit" variant="secondary">
					{t('admin.events.search.submit')}
				</Button>
				{list.query ? (
					<Link to={listUrl({ tab: list.tab })} className={buttonClasses('ghost', 'md', 'text-muted hover:text-fg')}>
						<X aria-hidden="true" />
						{t('admin.events.search.clear')}
					</Link>
				) : null}
			</Form>

			<CountTabs
				label={t('admin.events.tabsLabel')}
				items={tabs.map((tab) => ({ ...tab, to: listUrl({ tab: tab.id, q: list.query }), count: list.counts[tab.id] }))}
				current={list.tab}
				className="mt-6"
			/>

			<section aria-labelledby="liste-evenements" className="mt-5">
				<h2 id="liste-evenements" className="sr-only">
					{tabLabel}
				</h2>
				{list.rows.length === 0 ? (
					<EmptyList tab={list.tab} query={list.query} action={newEvent} />
				) : (
					<>
						<EventTable label={t('admin.events.tableLabel', { tab: tabLabel ?? '' })} rows={list.rows} onDelete={setToDelete} />
						<Pagination
							from={from}
							to={to}
							total={total}
							previous={list.page > 1 ? listUrl({ tab: list.tab, q: list.query, page: list.page - 1 }) : null}
							next={to < total ? listUrl({ tab: list.tab, q: list.query, page: list.page + 1 }) : null}
						/>
					</>
				)}
			</section>

			<DeleteDialog open={toDelete !== null} onClose={() => setToDelete(null)} title={toDelete?.title ?? ''} eventId={toDelete?.id ?? ''} />
		</>
	)
}
