import type { Town } from '#app/features/towns/towns.server.ts'

/* What is stored of a subscriber's town: what the town list gives, or nothing. */
export interface SubscriberTown {
	townId: number | null
	townLabel: string | null
	latitude: number | null
	longitude: number | null
}

export function townColumns(town: Town | null): SubscriberTown {
	return town
		? { townId: town.id, townLabel: town.label, latitude: town.latitude, longitude: town.longitude }
		: { townId: null, townLabel: null, latitude: null, longitude: null }
}
