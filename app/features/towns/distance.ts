/*
 * Distances between towns, on a sphere of the Earth's mean radius: good to a few hundred metres
 * at the scale of a concert's reach, which is all a fan's town can tell.
 */

export const EARTH_RADIUS_KM = 6371.0088

const radians = (degrees: number) => (degrees * Math.PI) / 180

export interface Point {
	latitude: number
	longitude: number
}

/** Great-circle distance in kilometres (haversine). */
export function distanceKm(a: Point, b: Point): number {
	const dLat = radians(b.latitude - a.latitude)
	const dLon = radians(b.longitude - a.longitude)
	const h = Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLon / 2) ** 2
	return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)))
}

export interface BoundingBox {
	minLatitude: number
	maxLatitude: number
	/** With `minLongitude > maxLongitude`, the box crosses the 180th meridian. */
	minLongitude: number
	maxLongitude: number
}

/**
 * A latitude/longitude box that holds every point within `km` of `center`: the cheap first filter
 * (an index range) before the exact distance. Near a pole the box spans every longitude.
 */
export function boundingBox(center: Point, km: number): BoundingBox {
	const dLat = (km / EARTH_RADIUS_KM) * (180 / Math.PI)
	const minLatitude = Math.max(-90, center.latitude - dLat)
	const maxLatitude = Math.min(90, center.latitude + dLat)
	const widest = Math.max(Math.abs(minLatitude), Math.abs(maxLatitude))
	if (widest >= 89.9) return { minLatitude, maxLatitude, minLongitude: -180, maxLongitude: 180 }
	const dLon = Math.min(180, dLat / Math.cos(radians(widest)))
	if (dLon >= 180) return { minLatitude, maxLatitude, minLongitude: -180, maxLongitude: 180 }
	const wrap = (longitude: number) => ((((longitude + 180) % 360) + 360) % 360) - 180
	return { minLatitude, maxLatitude, minLongitude: wrap(center.longitude - dLon), maxLongitude: wrap(center.longitude + dLon) }
}
