import { getSessionUser, type SessionUser } from '#app/features/accounts/session.server.ts'
import { getDb } from '#app/platform/platform.server.ts'
import {
	isNotModified,
	lastModified,
	NO_STORE,
	PRIVATE_CACHE_CONTROL,
	PUBLIC_CACHE_CONTROL,
	cachedEventDetail,
	weakEtag,
} from './cache.server.ts'
import { endOf, isEventId, isPastEvent, loadEventDetail, type EventDetail } from './events.server.ts'

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
