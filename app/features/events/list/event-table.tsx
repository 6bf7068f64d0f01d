import { Trash2 } from '#app/components/icons.tsx'
import { RouteLink } from '#app/components/route-link.tsx'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { linkClasses } from '#app/components/ui/link.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import type { EventListRow } from '#app/features/events/admin.server.ts'
import { EventStatusTag } from '#app/features/events/status-tag.tsx'
import { useTranslation } from '#app/i18n/react.tsx'
import { formatShortDate, formatTime } from '#app/platform/time-zone.ts'
import { EVENT_LIST_PATH } from './list-url.ts'

/*
 * One page of the admin's list as a table: date, event, venue, status, and a button that asks to
 * delete the row's event. On a phone a row is a card: the title, then date, place and status under it.
 */

/** « sam. 14 mars 2026 » and « 20 h 30 ». */
const dateParts = (iso: string) => ({ date: formatShortDate(iso), time: formatTime(iso) })

export function EventTable(props: { label: string; rows: EventListRow[]; onDelete: (row: { id: string; title: string }) => void }) {
	const { t } = useTranslation()
	return (
		<Table label={props.label}>
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
				{props.rows.map((row) => {
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
							<TableCell wrap className="align-top sm:min-w-48">
								<RouteLink to={`${EVENT_LIST_PATH}/${row.id}`} className={linkClasses('default', 'decoration-1 decoration-accent/70')}>
									{row.title}
								</RouteLink>
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
							<TableCell className="w-px text-right align-top whitespace-nowrap">
								{row.published ? (
									<RouteLink
										to={`/dashboard/admin/newsletter/campaigns/new?event=${row.id}`}
										aria-label={t('newsletter.announce.rowLabel', { title: row.title })}
										className={buttonClasses('ghost', 'sm')}
									>
										{t('newsletter.announce.row')}
									</RouteLink>
								) : null}
								<Button
									variant="ghost"
									size="sm"
									aria-haspopup="dialog"
									aria-label={t('admin.events.delete.openLabel', { title: row.title })}
									onClick={() => props.onDelete({ id: row.id, title: row.title })}
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
	)
}
