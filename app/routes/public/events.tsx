import { ArrowLeft, ArrowRight, CalendarDays } from '#app/components/icons.tsx'
import { Link, redirect } from 'react-router'
import type { Route } from './+types/events'
import { EventList } from '#app/components/event-card.tsx'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { buttonClasses } from '#app/components/ui/button.tsx'
import { linkClasses } from '#app/components/ui/link.tsx'
import { cachedEventsPage } from '#app/features/events/cache.server.ts'
import { SortByTown } from '#app/features/events/sort-by-town.tsx'
import { sortedForTown } from '#app/features/events/sort-by-town.server.ts'
import { getBand, pageTitle } from '#app/features/site/band.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getEnv } from '#app/platform/env.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { getDb } from '#app/platform/platform.server.ts'
import { routeStrings } from '#app/i18n/route-strings.ts'

/** The strings this screen needs in the browser (app/i18n/route-strings.ts). */
export const handle = routeStrings('events', 'towns.field')

export function meta({ loaderData }: Route.MetaArgs) {
	if (!loaderData) return []
	return [
		{ title: loaderData.title },
		{ name: 'description', content: loaderData.description },
		{ tagName: 'link', rel: 'canonical', href: loaderData.canonical },
		{ property: 'og:type', content: 'website' },
		{ property: 'og:title', content: loaderData.title },
		{ property: 'og:description', content: loaderData.description },
		{ property: 'og:url', content: loaderData.canonical },
		{ tagName: 'link', rel: 'alternate', type: 'text/calendar', title: loaderData.calendarTitle, href: '/events.ics' },
	]
}

/** ?page= as a whole number from 1; anything else is null. */
function parsePage(value: string | null): number | null {
	if (value === null) return 1
	if (!/^\d{1,6}$/.test(value)) return null
	const page = Number(value)
	return page >= 1 ? page : null
}

export async function loader({ request }: Route.LoaderArgs) {
	const url = new URL(request.url)
	const raw = url.searchParams.get('page')
	const page = parsePage(raw)
	// /events?page=1 and nonsense pages lead to the list itself; past the end, to its last page.
	if (page === null || (raw !== null && page === 1)) throw redirect('/events')
	const list = await cachedEventsPage(await getDb(), page)
	// ?ville=: the upcoming shows sorted by distance from a town the visitor typed (nothing kept).
	const nearTown = await sortedForTown(await getDb(), url.searchParams)
	if (page > list.pageCount) throw redirect(list.pageCount > 1 ? `/events?page=${list.pageCount}` : '/events')
	const t = getT()
	const band = getBand()
	const siteUrl = getEnv().SITE_URL
	return {
		...list,
		title: pageTitle(page > 1 ? t('events.list.metaTitlePage', { page }) : t('events.list.metaTitle')),
		description: t('events.list.metaDescription', { band: band.name }),
		calendarTitle: t('events.calendar.name', { band: band.name }),
		canonical: page > 1 ? `${siteUrl}/events?page=${page}` : `${siteUrl}/events`,
		calendarUrl: `${siteUrl}/events.ics`,
		nearTown,
	}
}

export default function Events({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation()
	const { upcoming, past, page, pageCount, totals, calendarUrl } = loaderData
	const nothingAtAll = totals.upcoming + totals.past === 0
	const webcal = calendarUrl.replace(/^https?:/, 'webcal:')
	return (
		<div className="mx-auto max-w-page px-gutter pt-28 pb-20 sm:pt-32">
			<header className="flex flex-col gap-6 lg:flex-row lg:items-end lg:justify-between">
				<div>
					<h1 className="font-display text-display tracking-display uppercase">{t('events.list.title')}</h1>
					<p className="mt-4 max-w-prose text-lg text-muted">{t('events.list.intro')}</p>
				</div>
				{totals.upcoming > 0 ? (
					<div className="flex flex-col items-start gap-2 lg:items-end">
						<a href={webcal} className={buttonClasses('secondary', 'md')}>
							<CalendarDays aria-hidden="true" />
							{t('events.list.subscribe')}
						</a>
						<p className="max-w-xs text-sm text-muted lg:text-right">
							{t('events.list.subscribeHint')}{' '}
							<a href="/events.ics" className={linkClasses('quiet')}>
								{t('events.list.subscribeFile')}
							</a>
						</p>
					</div>
				) : null}
			</header>

			{totals.upcoming > 0 && page === 1 ? <SortByTown nearTown={loaderData.nearTown} /> : null}

			{nothingAtAll ? (
				<EmptyState
					className="mt-12"
					icon={<CalendarDays aria-hidden="true" />}
					title={t('events.list.emptyTitle')}
					body={t('events.list.emptyBody')}
					action={
						<Link to="/" className={linkClasses()}>
							{t('events.list.backHome')}
						</Link>
					}
				/>
			) : null}

			{page === 1 && totals.upcoming === 0 && !nothingAtAll ? (
				<section aria-labelledby="a-venir" className="mt-12">
					<h2 id="a-venir" className="font-display text-headline tracking-display uppercase">
						{t('events.list.upcoming')}
					</h2>
					<EmptyState className="mt-6" title={t('events.list.noUpcomingTitle')} body={t('events.list.noUpcomingBody')} />
				</section>
			) : null}

			{loaderData.nearTown?.events ? (
				<section aria-labelledby="a-venir" className="mt-12">
					<h2 id="a-venir" className="font-display text-headline tracking-display uppercase">
						{t('events.near.title', { town: loaderData.nearTown.town })}
					</h2>
					<div className="mt-6">
						<EventList events={loaderData.nearTown.events} headingLevel={3} />
					</div>
				</section>
			) : upcoming.length > 0 ? (
				<section aria-labelledby="a-venir" className="mt-12">
					<h2 id="a-venir" className="font-display text-headline tracking-display uppercase">
						{page > 1 ? t('events.list.upcomingContinued') : t('events.list.upcoming')}
					</h2>
					<div className="mt-6">
						<EventList events={upcoming} headingLevel={3} />
					</div>
				</section>
			) : null}

			{past.length > 0 ? (
				<section aria-labelledby="passes" className="mt-16">
					<h2 id="passes" className="font-display text-headline tracking-display text-muted uppercase">
						{t('events.list.past')}
					</h2>
					<div className="mt-6">
						<EventList events={past} headingLevel={3} />
					</div>
				</section>
			) : null}

			{pageCount > 1 ? (
				<nav aria-label={t('events.list.pagination')} className="mt-12 flex flex-wrap items-center justify-between gap-4">
					{page > 1 ? (
						<Link to={page === 2 ? '/events' : `/events?page=${page - 1}`} className={buttonClasses('secondary', 'md')} rel="prev">
							<ArrowLeft aria-hidden="true" />
							{t('events.list.previous')}
						</Link>
					) : (
						<span />
					)}
					<p className="text-muted">{t('events.list.pageOf', { page, total: pageCount })}</p>
					{page < pageCount ? (
						<Link to={`/events?page=${page + 1}`} className={buttonClasses('secondary', 'md')} rel="next">
							{t('events.list.next')}
							<ArrowRight aria-hidden="true" />
						</Link>
					) : (
						<span />
					)}
				</nav>
			) : null}
		</div>
	)
}
