import type { Db } from '#app/platform/db/client.server.ts'
import { distanceKm, type Point } from '#app/features/towns/distance.ts'
import { toEventSummary, upcomingEvents } from './events.server.ts'
import type { EventSummary } from './types.ts'

/*
 * Concerts by distance from a fan's town: « Près de chez vous » on a member's dashboard (within
 * reach, nearest first) and the public list sorted for a town a visitor typed (every upcoming
 * show, the ones without a known place last). Upcoming shows are few: measured in memory.
 */

/** More upcoming shows than a band announces at once. */
const HORIZON = 500

async function withDistances(db: Db, from: Point, now: Date) {
	const rows = await upcomingEvents(db, { now, limit: HORIZON })
	return rows.map((row) => {
		const distance =
			row.latitude !== null && row.longitude !== null ? distanceKm(from, { latitude: row.latitude, longitude: row.longitude }) : null
		return { ...toEventSummary(row, now), distanceKm: distance === null ? null : Math.round(distance) }
	})
}

/** Upcoming shows within `radiusKm` of `from`, nearest first. */
export async function eventsNear(db: Db, from: Point, radiusKm: number, now = new Date()): Promise<EventSummary[]> {
	return (await withDistances(db, from, now))
		.filter((event) => event.distanceKm !== null && event.distanceKm <= radiusKm)
		.sort((a, b) => a.distanceKm! - b.distanceKm!)
}

/** Every upcoming show, nearest to `from` first; those without a known place keep their date order, last. */
export async function upcomingByDistance(db: Db, from: Point, now = new Date()): Promise<EventSummary[]> {
	return (await withDistances(db, from, now)).sort((a, b) => (a.distanceKm ?? Infinity) - (b.distanceKm ?? Infinity))
}
