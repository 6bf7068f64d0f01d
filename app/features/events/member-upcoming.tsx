import { clsx } from 'clsx'
import { CalendarDays } from '#app/components/icons.tsx'
import { RouteLink } from '#app/components/route-link.tsx'
import { EventDateStub, TicketButton } from '#app/components/event-card.tsx'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { linkClasses } from '#app/components/ui/link.tsx'
import { useTranslation } from '#app/i18n/react.tsx'
import { EventStatusBadge } from './status.tsx'
import type { MemberEvent } from './member-event.ts'

/*
 * The next shows on a member's dashboard: calmer and denser than the public poster list, one row
 * each — the date (French, Paris time), the city and the venue, a badge when the show is not going
 * ahead as planned, and the ticket link while tickets can be bought.
 */
export function MemberUpcoming(props: { events: MemberEvent[]; hasPast: boolean; className?: string }) {
	const { t } = useTranslation()
	return (
		<section aria-labelledby="prochains-concerts" className={props.className}>
			<div className="flex flex-wrap items-baseline justify-between gap-x-6 gap-y-1">
				<h2 id="prochains-concerts" className="text-lg font-semibold tracking-tight">
					{t('dashboard.home.eventsTitle')}
				</h2>
				{props.events.length > 0 ? (
					<RouteLink to="/events" className={linkClasses('default', 'inline-flex min-h-11 items-center text-sm')}>
						{t('dashboard.home.eventsAll')}
					</RouteLink>
				) : null}
			</div>
			{props.events.length === 0 ? (
				<EmptyState
					className="mt-4"
					icon={<CalendarDays aria-hidden="true" />}
					title={t('dashboard.home.eventsEmptyTitle')}
					body={t('dashboard.home.eventsEmptyBody')}
					action={
						props.hasPast ? (
							<RouteLink to="/events" className={linkClasses()}>
								{t('dashboard.home.eventsPast')}
							</RouteLink>
						) : undefined
					}
				/>
			) : (
				<MemberEventRows events={props.events} />
			)}
		</section>
	)
}

/** One row per show, in a framed list. */
function MemberEventRows(props: { events: MemberEvent[] }) {
	return (
		<ul className="mt-4 divide-y divide-line rounded-card border border-line bg-surface">
			{props.events.map((event) => (
				<li key={event.id}>
					<MemberEventRow event={event} />
				</li>
			))}
		</ul>
	)
}

/**
 * « Près de chez vous »: the upcoming shows within reach of the member's town, nearest first, above
 * all of them; without a town, where to give one.
 */
export function NearYou(props: { town: string | null; radiusKm: number; events: MemberEvent[]; className?: string }) {
	const { t } = useTranslation()
	return (
		<section aria-labelledby="pres-de-chez-vous" className={props.className}>
			<h2 id="pres-de-chez-vous" className="text-lg font-semibold tracking-tight">
				{t('dashboard.home.nearTitle')}
			</h2>
			{props.town === null ? (
				<p className="mt-2 text-sm text-muted">
					{t('dashboard.home.nearNoTown')}{' '}
					<RouteLink to="/dashboard/settings#ville" className={linkClasses()}>
						{t('dashboard.home.nearGiveTown')}
					</RouteLink>
				</p>
			) : props.events.length === 0 ? (
				<p className="mt-2 text-sm text-muted">{t('dashboard.home.nearNone', { km: props.radiusKm, town: props.town })}</p>
			) : (
				<>
					<p className="mt-1 text-sm text-muted">{t('dashboard.home.nearIntro', { km: props.radiusKm, town: props.town })}</p>
					<MemberEventRows events={props.events} />
				</>
			)}
		</section>
	)
}

function MemberEventRow(props: { event: MemberEvent }) {
	const { t } = useTranslation()
	const { event } = props
	const cancelled = event.status === 'cancelled'
	const showTickets = Boolean(event.ticketUrl) && !cancelled && !event.isPast
	const place = event.countryName ? `${event.city} (${event.countryName})` : event.city
	return (
		<article className="grid grid-cols-[3.5rem_minmax(0,1fr)] items-center gap-x-4 gap-y-3 px-4 py-4 sm:grid-cols-[3.75rem_minmax(0,1fr)_auto] sm:px-5">
			<EventDateStub start={event.start} muted={cancelled} compact className="py-2" />
			<div className="min-w-0">
				<h3 className="font-semibold text-balance">
					<RouteLink to={`/events/${event.id}`} className={clsx(linkClasses('default'), cancelled && 'text-muted')}>
						{event.title}
					</RouteLink>
				</h3>
				<p className="mt-0.5 text-sm text-muted">
					{t('dashboard.home.eventWhere', { time: event.start.time, city: place, venue: event.venueName })}
					{event.distanceKm != null
						? ` · ${event.distanceKm < 2 ? t('events.card.distanceHere') : t('events.card.distance', { km: event.distanceKm })}`
						: null}
				</p>
				{event.status !== 'scheduled' ? <EventStatusBadge status={event.status} className="mt-2" /> : null}
			</div>
			{showTickets ? <TicketButton event={event} size="sm" /> : null}
		</article>
	)
}
