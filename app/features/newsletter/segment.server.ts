import { gte, lt, eq, type SQL } from 'drizzle-orm'
import { newsletterSubscriber, SUBSCRIBER_SOURCES, type SubscriberSource } from '#app/platform/db/schema.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { parisWallClockToInstant } from '#app/platform/time-zone.ts'
import { readTownInput } from '#app/features/towns/town-input.server.ts'
import {
	DEFAULT_RADIUS_KM,
	MAX_RADIUS_KM,
	MIN_RADIUS_KM,
	TOWN_CHOICE_FIELD,
	TOWN_FIELD,
	type TownProblem,
} from '#app/features/towns/rules.ts'
import { audienceCondition } from './audience.server.ts'

/*
 * A segment of the subscribers admin: by source, by subscription date (Paris days, both ends
 * included) and by distance to a town, on top of the search and status filters. The list and its
 * CSV export read the same query string, so the export is exactly what the screen shows.
 */

export interface SubscriberSegment {
	source: SubscriberSource | null
	from: string | null
	to: string | null
	town: { label: string; latitude: number; longitude: number } | null
	radiusKm: number
}

const DAY = /^\d{4}-\d{2}-\d{2}$/

/**
 * The segment a query string asks for. A town not understood, or a distance out of bounds, comes
 * back with why, and the segment is without the distance filter (the other filters still apply).
 */
export function parseSegment(params: URLSearchParams): {
	segment: SubscriberSegment
	typedTown: string
	townProblem: TownProblem | null
	typedKm: string
	radiusProblem: string | null
} {
	const source = params.get('source')
	const from = params.get('from') ?? ''
	const to = params.get('to') ?? ''
	const typedKm = (params.get('km') ?? '').trim().slice(0, 20)
	const radius = typedKm === '' ? DEFAULT_RADIUS_KM : Number(typedKm)
	const radiusOk = Number.isFinite(radius) && radius >= MIN_RADIUS_KM && radius <= MAX_RADIUS_KM
	const typedTown = (params.get('ville') ?? '').slice(0, 200)
	const form = new FormData()
	form.set(TOWN_FIELD, typedTown)
	form.set(TOWN_CHOICE_FIELD, params.get(TOWN_CHOICE_FIELD) ?? '')
	const town = readTownInput(form)
	return {
		segment: {
			source: (SUBSCRIBER_SOURCES as readonly string[]).includes(source ?? '') ? (source as SubscriberSource) : null,
			from: DAY.test(from) ? from : null,
			to: DAY.test(to) ? to : null,
			town:
				town.kind === 'town' && radiusOk ? { label: town.town.label, latitude: town.town.latitude, longitude: town.town.longitude } : null,
			radiusKm: radiusOk ? Math.round(radius) : DEFAULT_RADIUS_KM,
		},
		typedTown,
		townProblem: town.kind === 'invalid' ? { message: town.message, choices: town.choices } : null,
		typedKm,
		radiusProblem: radiusOk ? null : getT()('newsletter.announce.audience.badRadius', { min: MIN_RADIUS_KM, max: MAX_RADIUS_KM }),
	}
}

/** The conditions of a segment on the subscriber rows. */
export function segmentConditions(segment: SubscriberSegment): SQL[] {
	const where: SQL[] = []
	if (segment.source) where.push(eq(newsletterSubscriber.source, segment.source))
	if (segment.from) where.push(gte(newsletterSubscriber.createdAt, parisWallClockToInstant(`${segment.from}T00:00`)!))
	if (segment.to) {
		const end = parisWallClockToInstant(`${segment.to}T00:00`)!
		where.push(lt(newsletterSubscriber.createdAt, new Date(end.getTime() + 24 * 3600_000)))
	}
	if (segment.town) {
		const near = audienceCondition({
			kind: 'radius',
			eventId: '',
			venue: segment.town.label,
			latitude: segment.town.latitude,
			longitude: segment.town.longitude,
			radiusKm: segment.radiusKm,
			includeNoTown: false,
			countAtSave: 0,
		})
		if (near) where.push(near)
	}
	return where
}

/** The query string of a segment (with the search and status), for the pages and the export. */
export function segmentQuery(segment: SubscriberSegment, extra: Record<string, string | null>): URLSearchParams {
	const query = new URLSearchParams()
	for (const [name, value] of Object.entries(extra)) if (value) query.set(name, value)
	if (segment.source) query.set('source', segment.source)
	if (segment.from) query.set('from', segment.from)
	if (segment.to) query.set('to', segment.to)
	if (segment.town) {
		query.set('ville', segment.town.label)
		query.set('km', String(segment.radiusKm))
	}
	return query
}
