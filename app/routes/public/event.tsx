import type { Route } from './+types/event'
import { EventPage } from '#app/features/events/event-page.tsx'
import { eventPageCache, eventPageData, resolvedEventContext, resolveEvent } from '#app/features/events/page.server.ts'
import { httpError } from '#app/platform/http-error.ts'
import { routeStrings } from '#app/i18n/route-strings.ts'

/** The strings this screen needs in the browser (app/i18n/route-strings.ts). */
export const handle = routeStrings('events', 'setlist.public', 'setlist.sections')

/*
 * An event's page: the poster (cover, title, date), where and when, tickets, the description, a
 * calendar file and a share link. Server-rendered with its share preview and JSON-LD. Anonymous
 * visitors share one cached copy with validators (see features/events/cache.server.ts); an admin
 * may preview a draft, which nobody else can tell from an unknown id (404).
 */

export const middleware: Route.MiddlewareFunction[] = [eventPageCache]

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

export async function loader({ request, params, context }: Route.LoaderArgs) {
	const handed = context.get(resolvedEventContext)
	const resolved = handed ? handed.resolved : await resolveEvent(request, params.eventId)
	if (!resolved) throw httpError(404)
	return await eventPageData(resolved)
}

export default function EventPageRoute({ loaderData }: Route.ComponentProps) {
	return <EventPage loaderData={loaderData} />
}
