import { createContext, type MiddlewareFunction } from 'react-router'
import { getSessionUser, type SessionUser } from '#app/features/accounts/session.server.ts'
import type { PublicImage } from '#app/features/media/public-image.ts'
import { getBand, pageTitle } from '#app/features/site/band.server.ts'
import { getEnv } from '#app/platform/env.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { eventPageUrl } from './calendar.server.ts'
import { musicEventJsonLd } from './json-ld.ts'
import { getDb } from '#app/platform/platform.server.ts'
import { publishedSetlistOfEvent, setlistWorksJsonLd } from '#app/features/setlist/setlists.server.ts'
import {
	isNotModified,
	lastModified,
	NO_STORE,
	PRIVATE_CACHE_CONTROL,
	PUBLIC_CACHE_CONTROL,
	cachedEventDetail,
	weakEtag,
} from './cache.server.ts'
import { endOf, excerpt, isEventId, isPastEvent, loadEventDetail, type EventDetail } from './events.server.ts'

/*
 * One event as a given request may see it: a published event for everyone, a draft for an admin
 * only (anyone else gets nothing, hence a 404). Anonymous visitors share one cached copy and get
 * HTTP validators; a signed-in visitor's page carries their session and is never shared.
 */

export interface ResolvedEvent {
	detail: EventDetail
	viewer: SessionUser | null
	/** The same bytes for every anonymous visitor: validators and a public Cache-Control apply. */
	shared: boolean
	/** Over (no ticket button any more); part of the validators, since the page changes then. */
	isPast: boolean
}

/** A flash message rides a cookie and is shown once: that response is nobody else's. */
function carriesFlash(request: Request): boolean {
	return /(?:^|;\s*)flash=/.test(request.headers.get('cookie') ?? '')
}

export async function resolveEvent(request: Request, eventId: string | undefined, now: Date = new Date()): Promise<ResolvedEvent | null> {
	if (!isEventId(eventId)) return null
	const viewer = await getSessionUser(request)
	const db = await getDb()
	const detail = viewer
		? await loadEventDetail(db, eventId, { includeDrafts: viewer.role === 'admin' })
		: await cachedEventDetail(db, eventId, now.getTime())
	if (!detail) return null
	return { detail, viewer, shared: !viewer && detail.published && !carriesFlash(request), isPast: isPastEvent(toDates(detail), now) }
}

function toDates(detail: EventDetail) {
	return { startsAt: detail.start.iso, endsAt: detail.end?.iso ?? null }
}

/** The caching headers of this resolved event's page (or of one of its representations, `kind`). */
export function cachingHeaders(resolved: ResolvedEvent, kind: 'page' | 'ics'): Headers {
	const headers = new Headers({ Vary: 'Cookie' })
	if (!resolved.detail.published) {
		headers.set('Cache-Control', NO_STORE)
		return headers
	}
	if (!resolved.shared) {
		headers.set('Cache-Control', PRIVATE_CACHE_CONTROL)
		return headers
	}
	headers.set('Cache-Control', PUBLIC_CACHE_CONTROL)
	headers.set('ETag', weakEtag(kind, resolved.detail.id, resolved.detail.version, resolved.isPast ? 'past' : 'upcoming', 'anonymous'))
	// The page changes when the show ends (its ticket button goes), which no row records.
	const changedAt = new Date(resolved.detail.lastModified)
	const endedAt = resolved.isPast ? endOf(toDates(resolved.detail)) : null
	headers.set('Last-Modified', lastModified(endedAt && endedAt > changedAt ? endedAt : changedAt))
	return headers
}

/** A 304 for a visitor whose copy is current, or null. */
export function notModifiedResponse(request: Request, headers: Headers): Response | null {
	const etag = headers.get('ETag')
	if (!etag) return null
	if (!isNotModified(request, { etag, lastModified: headers.get('Last-Modified') ?? undefined })) return null
	return new Response(null, { status: 304, headers })
}

/** What the middleware resolved, handed to the loader so that the event is looked up once. */
export const resolvedEventContext = createContext<{ resolved: ResolvedEvent | null } | null>(null)

/**
 * The HTTP cache of an event's page: validators (ETag, Last-Modified) and 304s, and one rendered
 * copy per version of the event shared by every anonymous visitor. The event it resolved is handed
 * to the loader through `resolvedEventContext`.
 */
export const eventPageCache: MiddlewareFunction<Response> = async ({ request, params, context }, next) => {
	if (request.method !== 'GET' && request.method !== 'HEAD') return next()
	const resolved = await resolveEvent(request, params.eventId)
	context.set(resolvedEventContext, { resolved })
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

/** Everything the event's page shows and tells search engines and share previews. */
export async function eventPageData(resolved: ResolvedEvent) {
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
