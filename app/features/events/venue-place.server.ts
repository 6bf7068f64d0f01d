import { eq, isNull } from 'drizzle-orm'
import type { Db } from '#app/platform/db/client.server.ts'
import { event, type CoordinateSource } from '#app/platform/db/schema.ts'
import type { Jobs } from '#app/platform/jobs.server.ts'
import type { Logger } from 'pino'
import { resolveTownIn } from '#app/features/towns/towns.server.ts'
import type { EventValues } from './forms.ts'

/*
 * Where a venue is: its coordinates, from the town list (its city in its country) unless an admin
 * typed them. The editor resolves them on every save; events saved before the town list existed
 * are looked up by a background job, a bounded batch at a time.
 */

export interface VenuePlace {
	latitude: number | null
	longitude: number | null
	townId: number | null
	coordinatesSource: CoordinateSource
}

export type VenuePlaceOutcome = { status: 'placed'; place: VenuePlace } | { status: 'ambiguous'; choices: string[] }

interface Before {
	city: string
	country: string
	latitude: number | null
	longitude: number | null
	townId: number | null
	coordinatesSource: CoordinateSource | null
}

/** The place of a venue from its city in its country (or the namesake the admin picked): never from the form's numbers. */
function fromTown(city: string, country: string, choice: string | null): VenuePlaceOutcome {
	const resolution = resolveTownIn(choice || city, country)
	if (resolution.status === 'found') {
		const { town } = resolution
		return { status: 'placed', place: { latitude: town.latitude, longitude: town.longitude, townId: town.id, coordinatesSource: 'town' } }
	}
	if (resolution.status === 'ambiguous') return { status: 'ambiguous', choices: resolution.choices.map((town) => town.label) }
	return { status: 'placed', place: { latitude: null, longitude: null, townId: null, coordinatesSource: 'unresolved' } }
}

/**
 * The place a save gives the venue. Coordinates typed by the admin are kept as theirs; the ones the
 * town list gave are looked up again when the city or country changes; empty ones come from the list.
 */
export function venuePlace(values: EventValues, before: Before | null, choice: string | null): VenuePlaceOutcome {
	const typed = values.latitude !== null && values.longitude !== null
	const sameTown = before !== null && before.city === values.city && before.country === values.country
	const untouched = typed && before !== null && before.latitude === values.latitude && before.longitude === values.longitude
	if (untouched && before.coordinatesSource === 'town') {
		if (sameTown && !choice)
			return { status: 'placed', place: { ...values, townId: before.townId, coordinatesSource: 'town' } as VenuePlace }
		return fromTown(values.city, values.country, choice)
	}
	if (typed)
		return {
			status: 'placed',
			place: { latitude: values.latitude, longitude: values.longitude, townId: null, coordinatesSource: 'manual' },
		}
	return fromTown(values.city, values.country, choice)
}

/** Events not looked up yet, this many at a time (each a few microseconds of lookup, one UPDATE). */
const BACKFILL_BATCH = 50
export const VENUE_BACKFILL_QUEUE = 'events.venue-places'

/** One batch of events never looked up: placed from their town (the first namesake when several). Returns how many. */
export async function placeOldVenues(db: Db, batch = BACKFILL_BATCH): Promise<number> {
	const rows = await db
		.select({ id: event.id, city: event.city, country: event.country, latitude: event.latitude, longitude: event.longitude })
		.from(event)
		.where(isNull(event.coordinatesSource))
		.limit(batch)
	for (const row of rows) {
		// Coordinates written without a source (a script, an import, an older writer) are someone's
		// own: kept, as the migration kept those it found.
		if (row.latitude !== null && row.longitude !== null) {
			await db.update(event).set({ coordinatesSource: 'manual' }).where(eq(event.id, row.id))
			continue
		}
		const outcome = fromTown(row.city, row.country, null)
		// Namesakes nobody is there to choose from: the most populous, as the editor will show.
		const place =
			outcome.status === 'placed'
				? outcome.place
				: (fromTown(outcome.choices[0]!, row.country, outcome.choices[0]!) as { place: VenuePlace }).place
		await db.update(event).set(place).where(eq(event.id, row.id))
	}
	return rows.length
}

/** The look-up of old events: one batch per job, the next job queued while batches come back full. */
export async function startVenueWorker(jobs: Jobs, db: Db, logger: Logger): Promise<void> {
	await jobs.queue(VENUE_BACKFILL_QUEUE, { retryLimit: 3, retryDelay: 30 })
	await jobs.work(VENUE_BACKFILL_QUEUE, async () => {
		const done = await placeOldVenues(db)
		if (done === BACKFILL_BATCH) await jobs.send(VENUE_BACKFILL_QUEUE, {})
		else if (done > 0) logger.info({ events: done }, 'venues placed from the town list')
	})
	await jobs.send(VENUE_BACKFILL_QUEUE, {})
}
