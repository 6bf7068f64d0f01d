import { clsx } from 'clsx'
import { ArrowLeft, CalendarPlus, MapPin, Pencil, Ticket } from '#app/components/icons.tsx'
import type { ComponentProps } from 'react'
import { Link } from 'react-router'
import { PublicSetlistSection } from '#app/features/setlist/public-setlist.tsx'
import { EventCover } from '#app/components/event-cover.tsx'
import { ShareLink } from '#app/components/share-link.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { buttonClasses } from '#app/components/ui/button.tsx'
import { linkClasses } from '#app/components/ui/link.tsx'
import { useTranslation } from '#app/i18n/react.tsx'
import { EventStatusBadge } from './status.tsx'
import type { DateLabel, EventDetail } from './types.ts'

/** What the page's loader hands it (features/events/page.server.ts builds it). */
export interface EventPageData {
	/** The setlist, once published after the show. */
	setlist: ComponentProps<typeof PublicSetlistSection>['setlist']
	event: EventDetail
	isPast: boolean
	isDraft: boolean
	canEdit: boolean
	bandName: string
	seo: {
		title: string
		shareTitle: string
		description: string
		url: string
		siteName: string
		image: { url: string; width: number; height: number; alt: string } | null
		jsonLd: Record<string, unknown>
	}
}

/** An event's page: the poster (cover, title, date), where and when, tickets, the description, calendar and share. */
export function EventPage({ loaderData }: { loaderData: EventPageData }) {
	const { t } = useTranslation()
	const { event, isPast, isDraft, canEdit, bandName, seo, setlist } = loaderData
	const cancelled = event.status === 'cancelled'
	const showTickets = Boolean(event.ticketUrl) && !cancelled && !isPast
	const addressLine = [event.postalCode, event.city].filter(Boolean).join(' ')
	const sameDayEnd = event.end && event.end.parisDay === event.start.parisDay

	return (
		<article aria-labelledby="titre-evenement">
			<div className="relative isolate lg:grid lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)] lg:items-start">
				{/*
				 * The poster, whole: its own proportions (a title written on it stays readable), below the
				 * header bar so that the header's links never lie over it; the right half on wide screens.
				 */}
				<div className="pt-19 sm:pt-21 lg:order-2 lg:pt-28 lg:pr-[max(var(--spacing-gutter),calc((100vw-var(--container-page))/2+var(--spacing-gutter)))] lg:pb-16">
					<div className="sm:mx-auto sm:max-w-page sm:px-gutter lg:max-w-none lg:px-0">
						{/* A very tall poster is capped in height and shown whole, on the page's own ground. */}
						<div
							className={clsx('max-h-[80svh] w-full overflow-hidden bg-surface sm:rounded-card', !event.cover && 'aspect-[16/10]')}
							style={event.cover ? { aspectRatio: `${event.cover.width} / ${event.cover.height}` } : undefined}
						>
							<EventCover
								cover={event.cover}
								bandName={bandName}
								priority
								fit="contain"
								sizes="(min-width: 64rem) 50vw, 100vw"
								className={cancelled || isPast ? 'grayscale-[0.6]' : undefined}
							/>
						</div>
					</div>
				</div>

				<div className="relative mx-auto w-full max-w-page px-gutter pt-6 pb-12 lg:mx-0 lg:max-w-none lg:pt-32 lg:pr-14 lg:pb-16 lg:pl-[max(var(--spacing-gutter),calc((100vw-var(--container-page))/2+var(--spacing-gutter)))]">
					{isDraft ? (
						<div
							role="note"
							className="mb-6 flex flex-wrap items-center gap-x-4 gap-y-2 rounded-card border border-warning/50 bg-canvas px-4 py-3 text-warning"
						>
							<Badge tone="warning">{t('events.status.draft')}</Badge>
							<p className="min-w-0 flex-1 text-sm font-medium">{t('events.page.draftBanner')}</p>
						</div>
					) : null}

					<div className="flex flex-wrap items-center gap-2">
						<p className="eyebrow text-accent-fg">{t('events.page.eyebrow')}</p>
						<EventStatusBadge status={event.status} />
						{isPast ? <Badge>{t('events.status.past')}</Badge> : null}
					</div>

					<h1
						id="titre-evenement"
						className="mt-3 font-display text-display leading-[1.04] tracking-display uppercase [overflow-wrap:anywhere] lg:text-[clamp(3rem,4.6vw,4.5rem)]"
					>
						{event.title}
					</h1>

					<p className="mt-5 font-display text-[clamp(1.6rem,5.2vw,2.4rem)] leading-none tracking-display text-accent-fg uppercase">
						<time dateTime={event.start.iso}>
							<DateWords label={event.start} />
						</time>
					</p>
					<ul className="mt-3 space-y-1 text-lg text-fg">
						<li>
							{t('events.page.startsAt', { time: event.start.time })}
							{event.end ? (
								<span className="text-muted">
									{' · '}
									{sameDayEnd ? t('events.page.endsAt', { time: event.end.time }) : t('events.page.endsOn', { date: event.end.dateTime })}
								</span>
							) : null}
						</li>
						{event.doors ? <li className="text-muted">{t('events.page.doors', { time: event.doors.time })}</li> : null}
					</ul>

					{event.previousStart ? (
						<p className="mt-4 text-warning">{t('events.page.previously', { date: event.previousStart.date })}</p>
					) : null}

					{cancelled ? (
						<div role="note" className="mt-6 rounded-card border border-danger/50 bg-danger/10 px-4 py-3">
							<p className="font-semibold text-danger">{t('events.page.cancelledTitle')}</p>
							<p className="mt-1 text-fg">{t('events.page.cancelledBody')}</p>
						</div>
					) : null}
					{isPast && !cancelled ? <p className="mt-4 text-muted">{t('events.page.pastNote', { date: event.start.date })}</p> : null}

					<div className="mt-8 grid gap-6 border-t border-line pt-6 sm:grid-cols-2">
						<div>
							<h2 className="eyebrow text-muted">{t('events.page.where')}</h2>
							<address className="mt-2 not-italic">
								<span className="block text-xl font-semibold">{event.venueName}</span>
								{event.address ? <span className="block text-muted">{event.address}</span> : null}
								<span className="block text-muted">
									{addressLine}
									{event.countryName ? `, ${event.countryName}` : null}
								</span>
							</address>
							<a
								href={event.mapUrl}
								rel="noopener noreferrer"
								className={linkClasses('default', 'mt-2 inline-flex min-h-11 items-center gap-1.5')}
							>
								<MapPin aria-hidden="true" className="size-4 shrink-0" />
								{t('events.page.map')}
							</a>
						</div>
						{event.priceText ? (
							<div>
								<h2 className="eyebrow text-muted">{t('events.page.price')}</h2>
								<p className="mt-2 text-xl font-semibold">{event.priceText}</p>
							</div>
						) : null}
					</div>

					<div className="mt-8 flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-start">
						{showTickets ? (
							<a
								href={event.ticketUrl!}
								rel="noopener noreferrer"
								className={buttonClasses(event.status === 'sold_out' ? 'secondary' : 'primary', 'lg', 'w-full sm:w-auto')}
							>
								<Ticket aria-hidden="true" />
								{event.status === 'sold_out' ? t('events.page.ticketsSoldOut') : t('events.page.tickets')}
							</a>
						) : null}
						{!isPast ? (
							<a href={`/events/${event.id}/agenda.ics`} download className={buttonClasses('secondary', 'lg', 'w-full sm:w-auto')}>
								<CalendarPlus aria-hidden="true" />
								{t('events.page.addToCalendar')}
							</a>
						) : null}
						{!isDraft ? <ShareLink url={seo.url} title={seo.shareTitle} className="w-full sm:w-auto" /> : null}
						{canEdit ? (
							<Link to={`/dashboard/admin/events/${event.id}`} className={buttonClasses('ghost', 'lg', 'w-full sm:w-auto')}>
								<Pencil aria-hidden="true" />
								{t('events.page.edit')}
							</Link>
						) : null}
					</div>
				</div>
			</div>

			{event.descriptionHtml ? (
				<section aria-labelledby="a-propos" className="mx-auto max-w-page px-gutter pt-4 pb-16">
					<h2 id="a-propos" className="font-display text-headline tracking-display uppercase">
						{t('events.page.about')}
					</h2>
					{/* Rendered by the safe Markdown renderer: raw HTML escaped, unsafe links refused. */}
					<div className="prose-site mt-6" dangerouslySetInnerHTML={{ __html: event.descriptionHtml }} />
				</section>
			) : null}

			<PublicSetlistSection setlist={setlist} />

			<nav aria-label={t('events.page.backLabel')} className="mx-auto max-w-page px-gutter pb-20">
				<Link to="/events" className={linkClasses('default', 'inline-flex min-h-11 items-center gap-2')}>
					<ArrowLeft aria-hidden="true" className="size-4" />
					{t('events.page.back')}
				</Link>
			</nav>
		</article>
	)
}

/** « mardi 1er décembre 2026 », the ordinal set as French typography wants it, even in capitals. */
function DateWords(props: { label: DateLabel }) {
	const [before, after] = props.label.date.split(' 1er ')
	if (after === undefined) return props.label.date
	return (
		<>
			{before} 1<sup className="text-[0.55em] normal-case">er</sup> {after}
		</>
	)
}
