import { clsx } from 'clsx'
import { Link } from 'react-router'
import { buttonClasses } from '#app/components/ui/button.tsx'
import type { DateLabel, EventSummary } from '#app/features/events/types.ts'
import { EventStatusBadge } from '#app/features/events/status.tsx'
import { useTranslation } from '#app/i18n/react.tsx'

/** What the date stub reads of a date. */
export type StubDate = Pick<DateLabel, 'iso' | 'weekdayShort' | 'day' | 'monthShort' | 'year' | 'dateTime'>

/** The date as a ticket stub: weekday, a big day, month (and year). Read aloud as the full date. */
export function EventDateStub(props: { start: StubDate; showYear?: boolean; muted?: boolean; compact?: boolean; className?: string }) {
	const { start } = props
	return (
		<time
			dateTime={start.iso}
			className={clsx(
				'flex flex-col items-center justify-center rounded-card border bg-surface px-2 py-2.5 text-center leading-none',
				props.muted ? 'border-line' : 'border-line-strong/70',
				props.className,
			)}
		>
			<span aria-hidden="true" className="text-[0.6875rem] font-bold tracking-label text-muted uppercase">
				{start.weekdayShort.replace(/\.$/, '')}
			</span>
			<span
				aria-hidden="true"
				className={clsx(
					'mt-1 font-display leading-[0.9]',
					props.compact ? 'text-3xl' : 'text-[2.5rem] sm:text-5xl',
					props.muted ? 'text-muted' : 'text-fg',
				)}
			>
				{start.day}
			</span>
			<span
				aria-hidden="true"
				className={clsx('mt-1.5 text-xs font-bold tracking-label uppercase', props.muted ? 'text-muted' : 'text-accent-fg')}
			>
				{start.monthShort.replace(/\.$/, '')}
			</span>
			{props.showYear ? (
				<span aria-hidden="true" className="mt-1 text-[0.6875rem] font-semibold text-muted tabular-nums">
					{start.year}
				</span>
			) : null}
			<span className="sr-only">{start.dateTime}</span>
		</time>
	)
}

/**
 * One show in a list (the landing, /events): date, title, venue and city, status, and the ticket
 * button while tickets can still be bought. The whole row opens the event's page.
 */
export function EventCard(props: { event: EventSummary; headingLevel?: 2 | 3; className?: string }) {
	const { t } = useTranslation()
	const { event } = props
	const Heading = props.headingLevel === 2 ? 'h2' : 'h3'
	const cancelled = event.status === 'cancelled'
	const showTickets = Boolean(event.ticketUrl) && !cancelled && !event.isPast
	const place = event.countryName ? `${event.city} (${event.countryName})` : event.city
	return (
		<article
			className={clsx(
				'group relative grid grid-cols-[4.25rem_minmax(0,1fr)] items-center gap-x-4 gap-y-4 py-5 sm:grid-cols-[5.25rem_minmax(0,1fr)_auto] sm:gap-x-6',
				props.className,
			)}
		>
			<EventDateStub start={event.start} showYear={event.isPast} muted={event.isPast || cancelled} />
			<div className="min-w-0">
				{/* The separator is drawn, never read: « Paris 20 h 30 », not « Paris · , 20 h 30 ». */}
				<p className="eyebrow text-muted">
					{place}
					<span aria-hidden="true" className="px-[0.35em]">
						·
					</span>{' '}
					<span>{event.start.time}</span>
				</p>
				<Heading className="mt-1.5 text-xl leading-tight font-bold text-balance sm:text-2xl">
					<Link
						to={`/events/${event.id}`}
						className={clsx(
							'rounded-[2px] underline-offset-[0.2em] group-hover:underline after:absolute after:inset-0 after:content-[""]',
							cancelled && 'text-muted',
						)}
					>
						{event.title}
					</Link>
				</Heading>
				<p className="mt-1 text-muted">
					{event.venueName}
					{event.distanceKm != null
						? ` · ${event.distanceKm < 2 ? t('events.card.distanceHere') : t('events.card.distance', { km: event.distanceKm })}`
						: null}
				</p>
				{event.status !== 'scheduled' ? (
					<div className="mt-2.5 flex flex-wrap gap-2">
						<EventStatusBadge status={event.status} />
					</div>
				) : null}
			</div>
			{showTickets ? <TicketButton event={event} size="md" className="relative z-10" /> : null}
		</article>
	)
}

/** The ticket link of an event card (« Billets », or « Billetterie » once sold out), named for screen readers. */
export function TicketButton({
	event,
	size,
	className,
}: {
	event: Pick<EventSummary, 'ticketUrl' | 'status' | 'title'> & { start: Pick<DateLabel, 'date'> }
	size: 'sm' | 'md'
	className?: string
}) {
	const { t } = useTranslation()
	return (
		<div className={clsx('col-span-2 flex sm:col-span-1 sm:justify-end', className)}>
			<a
				href={event.ticketUrl!}
				rel="noopener noreferrer"
				className={buttonClasses(event.status === 'sold_out' ? 'secondary' : 'primary', size, 'w-full sm:w-auto')}
			>
				{event.status === 'sold_out' ? t('events.card.ticketsSoldOut') : t('events.card.tickets')}
				<span className="sr-only"> {t('events.card.ticketsFor', { title: event.title, date: event.start.date })}</span>
			</a>
		</div>
	)
}

/** A list of shows, one per row, separated by rules. */
export function EventList(props: { events: EventSummary[]; headingLevel?: 2 | 3; labelledBy?: string }) {
	return (
		<ul aria-labelledby={props.labelledBy} className="divide-y divide-line border-y border-line">
			{props.events.map((event) => (
				<li key={event.id}>
					<EventCard event={event} headingLevel={props.headingLevel} />
				</li>
			))}
		</ul>
	)
}
