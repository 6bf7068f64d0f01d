import type { MouseEvent } from 'react'
import { Trash2 } from '#app/components/icons.tsx'
import { RouteLink } from '#app/components/route-link.tsx'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { linkClasses } from '#app/components/ui/link.tsx'
import { Table, TableBody, TableHead, TableHeader } from '#app/components/ui/table.tsx'
import type { EventListRow } from '#app/features/events/admin.server.ts'
import { EventStatusTag, useEventStatusLabels } from '#app/features/events/status-tag.tsx'
import { useTranslation } from '#app/i18n/react.tsx'
import { formatShortDate, formatTime } from '#app/platform/time-zone.ts'
import { EVENT_LIST_PATH } from './list-url.ts'

/*
 * One page of the admin's list as a table: date, event, venue, status, and a button that asks to
 * delete the row's event. Each row is written once: `event-table` (styles/dashboard.css) lays it
 * out as a table row from md up and as a card below (the title, then date, place and status under
 * it), so its cells carry no class. What is the same for every row is worked out once.
 */

const TITLE_LINK = linkClasses('default', 'decoration-accent/70')
const ANNOUNCE = buttonClasses('ghost', 'sm')

export function EventTable(props: { label: string; rows: EventListRow[]; onDelete: (row: { id: string; title: string }) => void }) {
	const { t } = useTranslation()
	const labels = useEventStatusLabels()
	const { rows, onDelete } = props
	const announce = t('newsletter.announce.row')
	// One handler for every row's delete button, which carries its event's id.
	const askDelete = (event: MouseEvent<HTMLButtonElement>) => {
		const row = rows.find((candidate) => candidate.id === event.currentTarget.value)
		if (row) onDelete({ id: row.id, title: row.title })
	}
	return (
		<Table label={props.label} className="event-table">
			<TableHead>
				<tr>
					<TableHeader>{t('admin.events.columns.date')}</TableHeader>
					<TableHeader>{t('admin.events.columns.event')}</TableHeader>
					<TableHeader>{t('admin.events.columns.venue')}</TableHeader>
					<TableHeader>{t('admin.events.columns.status')}</TableHeader>
					{/* relative: the hidden words stay inside the frame that scrolls sideways */}
					<TableHeader className="relative">
						<span className="sr-only">{t('admin.events.columns.actions')}</span>
					</TableHeader>
				</tr>
			</TableHead>
			<TableBody>
				{rows.map((row) => (
					<tr key={row.id}>
						<td>
							<time dateTime={row.startsAt}>{formatShortDate(row.startsAt)}</time>
							<span>{formatTime(row.startsAt)}</span>
						</td>
						<td>
							<RouteLink to={`${EVENT_LIST_PATH}/${row.id}`} className={TITLE_LINK}>
								{row.title}
							</RouteLink>
						</td>
						<td>
							<span>{row.venueName}</span>
							<span>{row.country !== 'FR' ? `${row.city} (${row.country})` : row.city}</span>
						</td>
						<td>
							<EventStatusTag status={row.status} labels={labels} />
						</td>
						<td>
							{row.published ? (
								<RouteLink
									to={`/dashboard/admin/newsletter/campaigns/new?event=${row.id}`}
									aria-label={t('newsletter.announce.rowLabel', { title: row.title })}
									className={ANNOUNCE}
								>
									{announce}
								</RouteLink>
							) : null}
							<Button
								variant="ghost"
								size="sm"
								value={row.id}
								aria-haspopup="dialog"
								aria-label={t('admin.events.delete.openLabel', { title: row.title })}
								onClick={askDelete}
								className="text-muted hover:text-danger"
							>
								<Trash2 aria-hidden="true" />
							</Button>
						</td>
					</tr>
				))}
			</TableBody>
		</Table>
	)
}
