import { clsx } from 'clsx'
import { CalendarPlus, Search, Trash2, X } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from '#app/i18n/react.tsx'
import { Form, Link, useNavigation } from 'react-router'
import type { Route } from './+types/events'
import { EventStatusTag } from '#app/features/events/status.tsx'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { Dialog } from '#app/components/ui/dialog.tsx'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { linkClasses } from '#app/components/ui/link.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import { deleteEvent, EVENT_SEARCH_MAX, EVENT_TABS, listEvents, type EventTab } from '#app/features/events/admin.server.ts'
import { pageTitle } from '#app/features/site/band.server.ts'
import { redirectWithFlash } from '#app/platform/flash.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { getDb } from '#app/platform/platform.server.ts'
import { SITE_TIME_ZONE } from '#app/platform/time-zone.ts'
import { httpError } from '#app/platform/http-error.ts'
import { withoutUnsafeCharacters } from '#app/platform/text-field.ts'

/*
 * The admin's list of events: upcoming, past and drafts as tabs with their counts, a search on
 * title, venue and city (on the server, ?q=), pages of 50, and deletion behind a confirmation.
 * « Nouvel événement » opens an empty editor; nothing is stored until it is saved.
 */

const LIST = '/dashboard/admin/events'

type Tab = EventTab

function readTab(value: string | null): Tab {
	return EVENT_TABS.includes(value as Tab) ? (value as Tab) : 'upcoming'
}

/** The list's address for a tab, a search and a page (defaults left out). */
function listUrl(options: { tab: Tab; q?: string; page?: number }): string {
	const params = new URLSearchParams()
	if (options.tab !== 'upcoming') params.set('tab', options.tab)
	if (options.q) params.set('q', options.q)
	if (options.page && options.page > 1) params.set('page', String(options.page))
	const search = params.toString()
	return search ? `${LIST}?${search}` : LIST
}

export function meta({ loaderData }: Route.MetaArgs) {
	return [{ title: loaderData?.title }, { name: 'robots', content: 'noindex' }]
}

export async function loader({ request }: Route.LoaderArgs) {
	await requireAdmin(request)
	const params = new URL(request.url).searchParams
	const tab = readTab(params.get('tab'))
	const q = withoutUnsafeCharacters(params.get('q') ?? '')
		.trim()
		.slice(0, EVENT_SEARCH_MAX)
	const page = Number.parseInt(params.get('page') ?? '1', 10)
	const list = await listEvents(await getDb(), { tab, query: q, page: Number.isFinite(page) ? page : 1 })
	return { title: pageTitle(getT()('admin.events.metaTitle')), list }
}

export async function action({ request }: Route.ActionArgs) {
	await requireAdmin(request)
	const formData = await request.formData()
	const intent = formData.get('intent')
	if (intent !== 'delete') throw httpError(400)
	const id = String(formData.get('eventId') ?? '')
	const params = new URL(request.url).searchParams
	const back = listUrl({
		tab: readTab(params.get('tab')),
		q: withoutUnsafeCharacters(params.get('q') ?? '')
			.trim()
			.slice(0, EVENT_SEARCH_MAX),
	})
	const deleted = await deleteEvent(await getDb(), id)
	if (!deleted) return redirectWithFlash(back, { type: 'info', key: 'admin.events.flash.alreadyDeleted' })
	return redirectWithFlash(back, { type: 'success', key: 'admin.events.flash.deleted', values: { title: deleted.title } })
}

const TIME_ZONE = SITE_TIME_ZONE
const shortDate = new Intl.DateTimeFormat('fr-FR', {
	weekday: 'short',
	day: 'numeric',
	month: 'short',
	year: 'numeric',
	timeZone: TIME_ZONE,
})
const shortTime = new Intl.DateTimeFormat('fr-FR', { hour: 'numeric', minute: '2-digit', timeZone: TIME_ZONE })

/** « sam. 14 mars 2026 » and « 20 h 30 ». */
function dateParts(iso: string) {
	const date = new Date(iso)
	const parts = shortTime.formatToParts(date)
	const hour = Number(parts.find((p) => p.type === 'hour')?.value ?? 0)
	const minute = parts.find((p) => p.type === 'minute')?.value ?? '00'
	return { date: shortDate.format(date), time: minute === '00' ? `${hour} h` : `${hour} h ${minute}` }
}

export default function AdminEvents({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation()
	const { list } = loaderData
	const [toDelete, setToDelete] = useState<{ id: string; title: string } | null>(null)
	const navigation = useNavigation()
	const deleting = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'delete'
	// Once the deletion went through (or failed), the dialog closes.
	const [wasDeleting, setWasDeleting] = useState(false)
	if (deleting !== wasDeleting) {
		setWasDeleting(deleting)
		if (!deleting) setToDelete(null)
	}
	const tabs: { id: Tab; label: string }[] = [
		{ id: 'upcoming', label: t('admin.events.tabs.upcoming') },
		{ id: 'past', label: t('admin.events.tabs.past') },
		{ id: 'drafts', label: t('admin.events.tabs.drafts') },
	]
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
						maxLength={EVENT_SEARCH_MAX_LENGTH}
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
					{tabs.find((tab) => tab.id === list.tab)?.label}
				</h2>
				{list.rows.length === 0 ? (
					<EmptyList tab={list.tab} query={list.query} action={newEvent} />
				) : (
					<>
						<Table label={t('admin.events.tableLabel', { tab: tabs.find((tab) => tab.id === list.tab)?.label ?? '' })}>
							<TableHead>
								<tr>
									<TableHeader className="hidden sm:table-cell">{t('admin.events.columns.date')}</TableHeader>
									<TableHeader>{t('admin.events.columns.event')}</TableHeader>
									<TableHeader className="hidden md:table-cell">{t('admin.events.columns.venue')}</TableHeader>
									<TableHeader className="hidden md:table-cell">{t('admin.events.columns.status')}</TableHeader>
									{/* relative: the hidden words stay inside the frame that scrolls sideways */}
									<TableHeader className="relative">
										<span className="sr-only">{t('admin.events.columns.actions')}</span>
									</TableHeader>
								</tr>
							</TableHead>
							<TableBody>
								{list.rows.map((row) => {
									const when = dateParts(row.startsAt)
									const badges = <EventStatusTag status={row.status} />
									return (
										<TableRow key={row.id}>
											<TableCell className="hidden align-top tabular-nums sm:table-cell">
												<time dateTime={row.startsAt} className="block font-medium">
													{when.date}
												</time>
												<span className="text-muted">{when.time}</span>
											</TableCell>
											{/* On a phone, the row is a card: title, then date, place and status under it. */}
											<TableCell wrap className="align-top sm:min-w-48">
												<Link to={`${LIST}/${row.id}`} className={linkClasses('default', 'decoration-1 decoration-accent/70')}>
													{row.title}
												</Link>
												<time dateTime={row.startsAt} className="mt-1 block text-muted tabular-nums sm:hidden">
													{when.date} · {when.time}
												</time>
												<span className="mt-0.5 block text-muted md:hidden">
													{row.venueName}, {row.city}
												</span>
												<span className="mt-2 flex flex-wrap gap-1.5 md:hidden">{badges}</span>
											</TableCell>
											<TableCell wrap className="hidden min-w-40 align-top md:table-cell">
												<span className="block">{row.venueName}</span>
												<span className="text-muted">
													{row.city}
													{row.country !== 'FR' ? ` (${row.country})` : null}
												</span>
											</TableCell>
											<TableCell className="hidden align-top md:table-cell">
												<span className="flex flex-wrap gap-1.5">{badges}</span>
											</TableCell>
											<TableCell className="w-px text-right align-top">
												<Button
													variant="ghost"
													size="sm"
													aria-haspopup="dialog"
													aria-label={t('admin.events.delete.openLabel', { title: row.title })}
													onClick={() => setToDelete({ id: row.id, title: row.title })}
													className="text-muted hover:text-danger"
												>
													<Trash2 aria-hidden="true" />
												</Button>
											</TableCell>
										</TableRow>
									)
								})}
							</TableBody>
						</Table>
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

			<Dialog
				open={toDelete !== null}
				onClose={() => setToDelete(null)}
				title={t('admin.events.delete.dialogTitle', { title: toDelete?.title ?? '' })}
				description={t('admin.events.delete.dialogBody')}
				size="sm"
				actions={
					<>
						<Button variant="secondary" onClick={() => setToDelete(null)}>
							{t('admin.events.delete.cancel')}
						</Button>
						<Button type="submit" variant="danger" form="form-suppression-evenement" disabled={deleting}>
							{deleting ? t('admin.events.delete.deleting') : t('admin.events.delete.confirm')}
						</Button>
					</>
				}
			/>
			{/* Outside the dialog (its button names it): an empty body would leave a gap in the dialog. */}
			<Form method="post" id="form-suppression-evenement" hidden>
				<input type="hidden" name="intent" value="delete" />
				<input type="hidden" name="eventId" value={toDelete?.id ?? ''} />
			</Form>
		</>
	)
}

/** Mirrors EVENT_SEARCH_MAX without importing server code into the page. */
const EVENT_SEARCH_MAX_LENGTH = 100

function EmptyList(props: { tab: Tab; query: string; action: React.ReactNode }) {
	const { t } = useTranslation()
	if (props.query) {
		return (
			<EmptyState
				icon={<Search aria-hidden="true" />}
				title={t('admin.events.empty.searchTitle', { query: props.query })}
				body={t('admin.events.empty.searchBody')}
				action={
					<Link to={listUrl({ tab: props.tab })} className={buttonClasses('secondary')}>
						{t('admin.events.search.clear')}
					</Link>
				}
			/>
		)
	}
	if (props.tab === 'past') {
		return <EmptyState title={t('admin.events.empty.pastTitle')} body={t('admin.events.empty.pastBody')} />
	}
	if (props.tab === 'drafts') {
		return <EmptyState title={t('admin.events.empty.draftsTitle')} body={t('admin.events.empty.draftsBody')} action={props.action} />
	}
	return (
		<EmptyState
			icon={<CalendarPlus aria-hidden="true" />}
			title={t('admin.events.empty.upcomingTitle')}
			body={t('admin.events.empty.upcomingBody')}
			action={props.action}
		/>
	)
}

function Pagination(props: { from: number; to: number; total: number; previous: string | null; next: string | null }) {
	const { t } = useTranslation()
	return (
		<nav aria-label={t('admin.events.pagination.label')} className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm">
			<p className="text-muted tabular-nums">
				{props.previous || props.next
					? t('admin.events.pagination.range', {
							from: props.from.toLocaleString('fr-FR'),
							to: props.to.toLocaleString('fr-FR'),
							total: props.total.toLocaleString('fr-FR'),
						})
					: t('admin.events.pagination.count', { count: props.total })}
			</p>
			{props.previous || props.next ? (
				<div className="flex gap-2">
					{props.previous ? (
						<Link to={props.previous} className={buttonClasses('secondary', 'sm')}>
							{t('admin.events.pagination.previous')}
						</Link>
					) : null}
					{props.next ? (
						<Link to={props.next} className={buttonClasses('secondary', 'sm')}>
							{t('admin.events.pagination.next')}
						</Link>
					) : null}
				</div>
			) : null}
		</nav>
	)
}
