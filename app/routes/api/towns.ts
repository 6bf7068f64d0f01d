import { data } from 'react-router'
import type { Route } from './+types/towns'
import { TOWN_FIELD_MAX } from '#app/features/towns/rules.ts'
import { suggestTowns } from '#app/features/towns/towns.server.ts'

/*
 * Town suggestions for the town fields (features/towns/town-field.tsx): `?q=lyo` → a few labels,
 * the same for everyone and for as long as this build runs, so browsers may keep them a day.
 */
export function loader({ request }: Route.LoaderArgs) {
	const q = (new URL(request.url).searchParams.get('q') ?? '').slice(0, TOWN_FIELD_MAX)
	return data({ towns: suggestTowns(q).map((town) => town.label) }, { headers: { 'Cache-Control': 'public, max-age=86400' } })
}
