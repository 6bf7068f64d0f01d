import { clsx } from 'clsx'
import { Inbox } from '#app/components/icons.tsx'
import { Link } from 'react-router'
import type { Route } from './+types/messages'
import { Badge, type BadgeTone } from '#app/components/ui/badge.tsx'
import { buttonClasses } from '#app/components/ui/button.tsx'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import { listMessages } from '#app/features/contact/contact.server.ts'
import { MESSAGE_FILTERS as FILTERS, MESSAGES_PAGE_SIZE, type MessageFilter } from '#app/features/contact/inbox.ts'
import { formatDateTime } from '#app/platform/time-zone.ts'
import { pageTitle } from '#app/features/site/band.server.ts'
import { privatePageMeta } from '#app/features/site/page-meta.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getT } from '#app/platform/i18n.server.ts'
import { getPlatform } from '#app/platform/platform.server.ts'
import { useLiveRevalidation } from '#app/features/stats/use-live.ts'
import { routeStrings } from '#app/i18n/route-strings.ts'

/** The strings this screen needs in the browser (app/i18n/route-strings.ts). */
export const handle = routeStrings('contact')

/* The admin's inbox of contact messages: to handle first, with the unread count; newest first, pages of 50. */

const LIST = '/dashboard/admin/messages'

function readFilter(value: string | null): MessageFilter {
	return FILTERS.includes(value as MessageFilter) ? (value as MessageFilter) : 'open'
}

function listUrl(filter: MessageFilter, page = 1) {
	const params = new URLSearchParams()
	if (filter !== 'open') params.set('filtre', filter)
	if (page > 1) params.set('page', String(page))
	const search = params.toString()
	return search ? `${LIST}?${search}` : LIST
}

export function meta({ loaderData }: Route.MetaArgs) {
	return privatePageMeta(loaderData?.title)
}

export async function loader({ request }: Route.LoaderArgs) {
	await requireAdmin(request)
	const params = new URL(request.url).searchParams
	const filter = readFilter(params.get('filtre'))
	const rawPage = Number.parseInt(params.get('page') ?? '1', 10)
	const page = Number.isFinite(rawPage) && rawPage >= 1 && rawPage <= 100_000 ? rawPage : 1
	const list = await listMessages(await getPlatform(), filter, page)
	return { title: pageTitle(getT()('contact.admin.metaTitle')), filter, page, ...list }
}

const STATUS_TONES: Record<string, BadgeTone> = { unread: 'accent', read: 'neutral', handled: 'success' }

export default function AdminMessages({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation()
	const { filter, page, messages, total, counts } = loaderData
	useLiveRevalidation('/dashboard/admin/live?topic=contact')
	const statusLabel: Record<string, string> = {
		unread: t('contact.admin.status.unread'),
		read: t('contact.admin.status.read'),
		handled: t('contact.admin.status.handled'),
	}
	const filterLabel: Record<MessageFilter, string> = {
		open: t('contact.admin.filters.open'),
		unread: t('contact.admin.filters.unread'),
		handled: t('contact.admin.filters.handled'),
		all: t('contact.admin.filters.all'),
	}
	const emptyTitle: Record<MessageFilter, string> = {
		open: t('contact.admin.empty.open'),
		unread: t('contact.admin.empty.unread'),
		handled: t('contact.admin.empty.handled'),
		all: t('contact.admin.empty.all'),
	}
	const pages = Math.max(1, Math.ceil(total / MESSAGES_PAGE_SIZE))
	return (
		<>
			<PageHeader
				title={t('contact.admin.title')}
				description={
					<>
						<span className={clsx('font-semibold', counts.unread > 0 ? 'text-accent-fg' : 'text-muted')}>
							{t('contact.admin.unreadCount', { count: counts.unread })}
						</span>
						{' · '}
						{t('contact.admin.intro')}
					</>
				}
			/>
			<nav aria-label={t('contact.admin.filtersLabel')} className="mt-6">
				<ul className="flex flex-wrap gap-x-1 border-b border-line">
					{FILTERS.map((id) => {
						const current = id === filter
						return (
							<li key={id} className="flex">
								<Link
									to={listUrl(id)}
									aria-current={current ? 'page' : undefined}
									className={clsx(
										'relative inline-flex min-h-11 shrink-0 items-center gap-2 px-3 text-sm font-medium whitespace-nowrap',
										'after:absolute after:inset-x-2 after:-bottom-px after:h-0.5 after:rounded-full',
										current ? 'text-fg after:bg-accent' : 'text-muted hover:text-fg',
									)}
								>
									{filterLabel[id]}
									<span className={clsx('rounded-badge px-1.5 text-xs tabular-nums', current ? 'bg-fg/10 text-fg' : 'bg-fg/6 text-muted')}>
										{counts[id].toLocaleString('fr-FR')}
									</span>
								</Link>
							</li>
						)
					})}
				</ul>
			</nav>
			{messages.length === 0 ? (
				<EmptyState className="mt-6" icon={<Inbox aria-hidden="true" />} title={emptyTitle[filter]} body={t('contact.admin.emptyBody')} />
			) : (
				<Table label={t('contact.admin.tableLabel', { filter: filterLabel[filter] })} className="mt-5">
					{/* On a phone each message is a small stacked block (sender, subject, date, status), read top to bottom. */}
					<TableHead className="max-sm:hidden">
						<tr>
							<TableHeader>{t('contact.admin.columns.from')}</TableHeader>
							<TableHeader>{t('contact.admin.columns.message')}</TableHeader>
							<TableHeader>{t('contact.admin.columns.received')}</TableHeader>
							<TableHeader>{t('contact.admin.columns.status')}</TableHeader>
						</tr>
					</TableHead>
					<TableBody>
						{messages.map((message) => (
							<TableRow key={message.id} className="max-sm:block max-sm:py-2">
								<TableCell
									wrap
									className={clsx(
										'align-top [overflow-wrap:anywhere] max-sm:block max-sm:py-1',
										message.status === 'unread' && 'font-semibold',
									)}
								>
									<Link to={`${LIST}/${message.id}`} className="underline-offset-4 hover:underline focus-visible:underline">
										{message.name}
									</Link>
									<span className="block text-sm font-normal text-muted">{message.email}</span>
								</TableCell>
								<TableCell wrap className="max-w-md align-top max-sm:block max-sm:py-1">
									<span className="font-medium">{t(`contact.subjects.${message.subject}`)}</span>
									<span className="line-clamp-2 text-sm text-muted">{message.excerpt}</span>
								</TableCell>
								<TableCell className="align-top text-sm whitespace-nowrap text-muted max-sm:block max-sm:py-1">
									{formatDateTime(message.createdAt)}
								</TableCell>
								<TableCell className="align-top max-sm:block max-sm:py-1">
									<Badge tone={STATUS_TONES[message.status]}>{statusLabel[message.status]}</Badge>
									{message.replies > 0 ? (
										<span className="mt-1 block text-xs text-muted">{t('contact.admin.replies', { count: message.replies })}</span>
									) : null}
								</TableCell>
							</TableRow>
						))}
					</TableBody>
				</Table>
			)}
			{pages > 1 ? (
				<nav className="mt-6 flex justify-between gap-3" aria-label={t('contact.admin.title')}>
					{page > 1 ? (
						<Link to={listUrl(filter, page - 1)} className={buttonClasses('secondary')}>
							{t('contact.admin.previous')}
						</Link>
					) : (
						<span />
					)}
					{page < pages ? (
						<Link to={listUrl(filter, page + 1)} className={buttonClasses('secondary')}>
							{t('contact.admin.next')}
						</Link>
					) : null}
				</nav>
			) : null}
		</>
	)
}
