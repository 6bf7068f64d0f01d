import { and, eq, isNull, or, sql, type SQL } from 'drizzle-orm'
import type { Db } from '#app/platform/db/client.server.ts'
import { event, newsletterSubscriber, type CampaignAudience } from '#app/platform/db/schema.ts'
import { boundingBox, EARTH_RADIUS_KM } from '#app/features/towns/distance.ts'
import { DEFAULT_RADIUS_KM, MAX_RADIUS_KM, MIN_RADIUS_KM } from '#app/features/towns/rules.ts'
import { getT } from '#app/platform/i18n.server.ts'

/*
 * A concert's announcement goes to the active subscribers within N km of its venue: a latitude and
 * longitude box first (the partial index on the subscribers' coordinates), then the exact great-circle
 * distance on what the box kept. Subscribers without a town are added only when the admin asks;
 * one who removed their town is never in a radius.
 */

const s = newsletterSubscriber

const f8 = (value: number) => sql`${value}::float8`

/** The subscribers (of any status: the caller adds `active`) in this audience; null is everyone. */
export function audienceCondition(audience: CampaignAudience | null): SQL | undefined {
	if (!audience) return undefined
	const center = { latitude: audience.latitude, longitude: audience.longitude }
	const box = boundingBox(center, audience.radiusKm)
	const longitudes =
		box.minLongitude <= box.maxLongitude
			? sql`${s.longitude} between ${f8(box.minLongitude)} and ${f8(box.maxLongitude)}`
			: sql`(${s.longitude} >= ${f8(box.minLongitude)} or ${s.longitude} <= ${f8(box.maxLongitude)})`
	const within = sql`(${s.latitude} is not null and ${s.latitude} between ${f8(box.minLatitude)} and ${f8(box.maxLatitude)} and ${longitudes}
		and ${f8(2 * EARTH_RADIUS_KM)} * asin(least(1, sqrt(
			power(sin(radians(${s.latitude} - ${f8(center.latitude)}) / 2), 2)
			+ cos(radians(${f8(center.latitude)})) * cos(radians(${s.latitude})) * power(sin(radians(${s.longitude} - ${f8(center.longitude)}) / 2), 2)
		))) <= ${f8(audience.radiusKm)})`
	return audience.includeNoTown ? or(within, isNull(s.latitude)) : within
}

/** How many active subscribers the audience holds now. */
export async function countAudience(db: Db, audience: CampaignAudience | null): Promise<number> {
	const [row] = await db
		.select({ n: sql<number>`count(*)::int` })
		.from(s)
		.where(and(eq(s.status, 'active'), audienceCondition(audience)))
	return Number(row?.n ?? 0)
}

/** A concert's venue as an announcement needs it: null when the event is unknown. */
export async function venueOf(db: Db, eventId: string) {
	const [row] = await db
		.select({
			id: event.id,
			title: event.title,
			venueName: event.venueName,
			city: event.city,
			latitude: event.latitude,
			longitude: event.longitude,
		})
		.from(event)
		.where(eq(event.id, eventId))
	return row ?? null
}

export type AudienceInput =
	| { kind: 'everyone' }
	| { kind: 'radius'; audience: Omit<CampaignAudience, 'countAtSave'> }
	| { kind: 'invalid'; field: 'radiusKm' | 'event'; radiusKm: string }

/**
 * The audience a campaign form asks for (`audienceEvent`, `radiusKm`, `includeNoTown`). The venue's
 * coordinates come from the event as stored, never from the form; a venue without coordinates
 * means everyone (the form says why).
 */
export async function readAudienceInput(db: Db, formData: FormData): Promise<AudienceInput> {
	const eventId = String(formData.get('audienceEvent') ?? '')
	if (!eventId) return { kind: 'everyone' }
	const raw = String(formData.get('radiusKm') ?? DEFAULT_RADIUS_KM).trim()
	const venue = await venueOf(db, eventId)
	if (!venue) return { kind: 'invalid', field: 'event', radiusKm: raw }
	if (venue.latitude === null || venue.longitude === null) return { kind: 'everyone' }
	const radiusKm = Number(raw.replace(',', '.'))
	if (!/^\d+([.,]\d+)?$/.test(raw) || radiusKm < MIN_RADIUS_KM || radiusKm > MAX_RADIUS_KM)
		return { kind: 'invalid', field: 'radiusKm', radiusKm: raw }
	const at = { latitude: venue.latitude, longitude: venue.longitude }
	return { kind: 'radius', audience: radiusAudience(venue, at, Math.round(radiusKm), formData.get('includeNoTown') === 'on') }
}

/**
 * The audience rule a campaign is saved with, counted now (`countAtSave`), or null for everyone; or
 * the French reason the form's audience is refused.
 */
export async function audienceToSave(db: Db, formData: FormData): Promise<{ rule: CampaignAudience | null } | { error: string }> {
	const input = await readAudienceInput(db, formData)
	if (input.kind === 'invalid') {
		const t = getT()
		return {
			error:
				input.field === 'event'
					? t('newsletter.announce.audience.noEvent')
					: t('newsletter.announce.audience.badRadius', { min: MIN_RADIUS_KM, max: MAX_RADIUS_KM }),
		}
	}
	if (input.kind === 'everyone') return { rule: null }
	const rule = { ...input.audience, countAtSave: 0 }
	rule.countAtSave = await countAudience(db, rule)
	return { rule }
}

/** The rule « the fans within `radiusKm` of this placed venue », as a campaign stores it. */
export function radiusAudience(
	venue: { id: string; venueName: string; city: string },
	at: { latitude: number; longitude: number },
	radiusKm: number,
	includeNoTown: boolean,
): Omit<CampaignAudience, 'countAtSave'> {
	return {
		kind: 'radius',
		eventId: venue.id,
		venue: `${venue.venueName}, ${venue.city}`,
		latitude: at.latitude,
		longitude: at.longitude,
		radiusKm,
		includeNoTown,
	}
}
