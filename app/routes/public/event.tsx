import { ArrowLeft, CalendarPlus, MapPin, Pencil, Ticket } from 'lucide-react'
import { createContext, data, Link } from 'react-router'
import type { Route } from './+types/event'
import { EventStatusBadge } from '#app/components/event-card.tsx'
import { EventCover } from '#app/components/event-cover.tsx'
import { ShareLink } from '#app/components/share-link.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { buttonClasses } from '#app/components/ui/button.tsx'
import { linkClasses } from '#app/components/ui/link.tsx'
import { eventPageUrl } from '#app/features/events/calendar.server.ts'
import { excerpt, type DateLabel } from '#app/features/events/events.server.ts'
import { musicEventJsonLd } from '#app/features/events/json-ld.ts'
import { cachingHeaders, notModifiedResponse, resolveEvent, type ResolvedEvent } from '#app/features/events/page.server.ts'
import type { PublicImage } from '#app/features/media/public-image.ts'
import { getBand, pageTitle } from '#app/features/site/band.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { PublicSetlistSection } from '#app/features/setlist/public-setlist.tsx'
import { publishedSetlistOfEvent, setlistWorksJsonLd } from '#app/features/setlist/setlists.server.ts'
import { getEnv } from '#app/platform/env.server.ts'
import { getDb } from '#app/platform/platform.server.ts'
import { getT } from '#app/platform/i18n.server.ts'

/*
 * An event's page: the poster (cover, title, date), where and when, tickets, the description, a
 * calendar file and a share link. Server-rendered with its share preview and JSON-LD. Anonymous
 * visitors share one cached copy with validators (server/page-cache.ts, features/events/cache.server.ts); an admin
 * may preview a draft, which nobody else can tell from an unknown id (404).
 */

/** What the middleware resolved, handed to the loader so that the event is looked up once. */
const resolvedEvent = createContext<{ resolved: ResolvedEvent | null } | null>(null)

export const middleware: Route.MiddlewareFunction[] = [
	async ({ request, params, context }, next) => {
		if (request.method !== 'GET' && request.method !== 'HEAD') return next()
		const resolved = await resolveEvent(request, params.eventId)
		context.set(resolvedEvent, { resolved })
		// Client-side navigations fetch the data alone (…/eventId.data): no validators for those.
		if (!resolved || new URL(request.url).pathname.endsWith('.data')) return next()
		const headers = cachingHeaders(resolved, 'page')
		const notModified = notModifiedResponse(request, headers)
		if (notModified) return notModified
		// Cookie-less visitors get the page from the anonymous page cache (server/page-cache.ts) before this runs.
		const response = await next()
		if (response.status !== 200) return response
		for (const [name, value] of headers) response.headers.set(name, value)
		// A response that sets a cookie is nobody else's to keep.
		if (response.headers.has('Set-Cookie')) {
			response.headers.delete('ETag')
			response.headers.delete('Last-Modified')
			response.headers.set('Cache-Control', 'private, no-store')
			return response
		}
		return response
	},
]

export function meta({ loaderData }: Route.MetaArgs) {
	if (!loaderData) return []
	const { seo } = loaderData
	const tags: Route.MetaDescriptors = [
		{ title: seo.title },
		{ name: 'description', content: seo.description },
		{ tagName: 'link', rel: 'canonical', href: seo.url },
		{ property: 'og:type', content: 'website' },
		{ property: 'og:site_name', content: seo.siteName },
		{ property: 'og:locale', content: 'fr_FR' },
		{ property: 'og:title', content: seo.shareTitle },
		{ property: 'og:description', content: seo.description },
		{ property: 'og:url', content: seo.url },
		{ name: 'twitter:card', content: seo.image ? 'summary_large_image' : 'summary' },
		{ name: 'twitter:title', content: seo.shareTitle },
		{ name: 'twitter:description', content: seo.description },
	]
	if (seo.image) {
		tags.push(
			{ property: 'og:image', content: seo.image.url },
			{ property: 'og:image:type', content: 'image/jpeg' },
			{ property: 'og:image:width', content: String(seo.image.width) },
			{ property: 'og:image:height', content: String(seo.image.height) },
			{ name: 'twitter:image', content: seo.image.url },
		)
		if (seo.image.alt)
			tags.push({ property: 'og:image:alt', content: seo.image.alt }, { name: 'twitter:image:alt', content: seo.image.alt })
	}
	if (loaderData.isDraft) tags.push({ name: 'robots', content: 'noindex, nofollow' })
	else tags.push({ 'script:ld+json': seo.jsonLd })
	return tags
}

/** The JPEG rendition closest above 1200 px wide (what share previews ask for), as an absolute URL. */
function shareImage(cover: PublicImage | null, siteUrl: string) {
	if (!cover) return null
	const jpegs = cover.variants.filter((v) => v.format === 'jpeg').sort((a, b) => a.width - b.width)
	const chosen = jpegs.find((v) => v.width >= 1200) ?? jpegs.at(-1)
	if (!chosen) return null
	const largest = jpegs.at(-1)!
	return {
		url: new URL(chosen.url, siteUrl).href,
		width: chosen.width,
		height: chosen.height,
		alt: cover.alt,
		all: [...new Set([largest, chosen].map((v) => new URL(v.url, siteUrl).href))],
	}
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
	const handed = context.get(resolvedEvent)
	const resolved = handed ? handed.resolved : await resolveEvent(request, params.eventId)
	if (!resolved) throw data(null, { status: 404 })
	const { detail: event, viewer, isPast } = resolved
	const t = getT()
	const band = getBand()
	const siteUrl = getEnv().SITE_URL
	const url = eventPageUrl(event.id)
	const image = shareImage(event.cover, siteUrl)
	const place = event.countryName ? `${event.city} (${event.countryName})` : event.city
	const description =
		excerpt(event.descriptionText, 160) ||
		t('events.page.fallbackDescription', { band: band.name, date: event.start.dateTime, venue: event.venueName, city: place })
	const shareTitle = t('events.page.shareTitle', { title: event.title, city: place, date: event.start.dayMonthYear })
	const jsonLd = musicEventJsonLd(
		{
			title: event.title,
			status: event.status,
			startsAt: event.start.iso,
			endsAt: event.end?.iso ?? null,
			doorsAt: event.doors?.iso ?? null,
			previousStartsAt: event.previousStart?.iso ?? null,
			venueName: event.venueName,
			address: event.address,
			postalCode: event.postalCode,
			city: event.city,
			country: event.country,
			latitude: event.latitude,
			longitude: event.longitude,
			ticketUrl: event.ticketUrl,
			priceText: event.priceText,
			description: excerpt(event.descriptionText, 5000) || description,
			images: image?.all ?? [],
			url,
		},
		{ band: { name: band.name, url: siteUrl } },
	)
	// The setlist, once published after the show: on the page and in the JSON-LD (workPerformed).
	const setlist = await publishedSetlistOfEvent(await getDb(), event.id, event.version)
	if (setlist) jsonLd.workPerformed = setlistWorksJsonLd(setlist)
	return {
		setlist,
		event,
		isPast,
		isDraft: !event.published,
		canEdit: viewer?.role === 'admin',
		bandName: band.name,
		seo: {
			title: pageTitle(shareTitle),
			shareTitle,
			description,
			url,
			siteName: band.name,
			image: image ? { url: image.url, width: image.width, height: image.height, alt: image.alt } : null,
			jsonLd,
		},
	}
}

export default function EventPage({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation()
	const { event, isPast, isDraft, canEdit, bandName, seo, setlist } = loaderData
	const cancelled = event.status === 'cancelled'
	const showTickets = Boolean(event.ticketUrl) && !cancelled && !isPast
	const addressLine = [event.postalCode, event.city].filter(Boolean).join(' ')
	const sameDayEnd = event.end && event.end.parisDay === event.start.parisDay

	return (
		<article aria-labelledby="titre-evenement">
			<div className="relative isolate lg:grid lg:min-h-[min(92svh,60rem)] lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
				{/* The poster: full-bleed on phones (cropped to a portrait), the right half on wide screens. */}
				<div className="relative lg:order-2">
					<div className="relative aspect-[4/5] max-h-[74svh] w-full overflow-hidden bg-surface sm:aspect-[16/10] sm:max-h-[70svh] lg:absolute lg:inset-0 lg:aspect-auto lg:max-h-none">
						<EventCover
							cover={event.cover}
							bandName={bandName}
							priority
							sizes="(min-width: 64rem) 50vw, 100vw"
							className={cancelled || isPast ? 'grayscale-[0.6]' : undefined}
						/>
						{/* The header sits on the picture: a shade keeps it readable. */}
						<div
							aria-hidden="true"
							className="pointer-events-none absolute inset-x-0 top-0 h-28 bg-linear-to-b from-canvas/85 to-transparent"
						/>
						<div
							aria-hidden="true"
							className="pointer-events-none absolute inset-x-0 bottom-0 h-32 bg-linear-to-t from-canvas to-transparent lg:hidden"
						/>
					</div>
				</div>

				<div className="relative mx-auto -mt-20 w-full max-w-page px-gutter pb-12 sm:-mt-24 lg:mx-0 lg:mt-0 lg:max-w-none lg:pt-32 lg:pr-14 lg:pb-16 lg:pl-[max(var(--spacing-gutter),calc((100vw-var(--container-page))/2+var(--spacing-gutter)))]">
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
