import { clsx } from 'clsx'
import { CalendarPlus, Search, X } from 'lucide-react'
import { useState } from 'react'
import { Form, Link, useNavigation } from 'react-router'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
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
				<div className="relative min-w-0 flex-1 basis-56 sm:max-w-md">
					<label htmlFor="recherche-evenements" className="sr-only">
						{t('admin.events.search.label')}
					</label>
					<Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted" />
					<Input
						id="recherche-evenements"
						type="search"
						name="q"
						defaultValue={list.query}
						key={list.query}
						maxLength={EVENT_SEARCH_MAX}
						placeholder={t('admin.events.search.placeholder')}
						className="pl-9"
						autoComplete="off"
					/>
				</div>
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

			<nav aria-label={t('admin.events.tabsLabel')} className="mt-6">
				<ul className="flex gap-1 overflow-x-auto border-b border-line [scrollbar-width:none]">
					{tabs.map((tab) => {
						const current = tab.id === list.tab
						return (
							<li key={tab.id} className="flex">
								<Link
									to={listUrl({ tab: tab.id, q: list.query })}
									aria-current={current ? 'page' : undefined}
									className={clsx(
										'relative inline-flex min-h-11 shrink-0 items-center gap-2 px-3 text-sm font-medium whitespace-nowrap transition-colors duration-150',
										'after:absolute after:inset-x-2 after:-bottom-px after:h-0.5 after:rounded-full',
										current ? 'text-fg after:bg-accent' : 'text-muted hover:text-fg',
									)}
								>
									{tab.label}
									<span className={clsx('rounded-badge px-1.5 text-xs tabular-nums', current ? 'bg-fg/10 text-fg' : 'bg-fg/6 text-muted')}>
										{list.counts[tab.id].toLocaleString('fr-FR')}
									</span>
								</Link>
							</li>
						)
					})}
				</ul>
			</nav>

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
