import type { Db } from '#app/platform/db/client.server.ts'
import { readTownInput } from '#app/features/towns/town-input.server.ts'
import { TOWN_CHOICE_FIELD, TOWN_FIELD, type TownProblem } from '#app/features/towns/rules.ts'
import { upcomingByDistance } from './near.server.ts'
import type { EventSummary } from './types.ts'

/** The query parameter of /events that names the town to sort by. */
export const TOWN_PARAM = 'ville'

export interface SortedForTown {
	typed: string
	/** The town's label once found. */
	town: string | null
	events: EventSummary[] | null
	problem: TownProblem | null
}

/** /events?ville=…: the upcoming shows nearest first to the town typed, or why the town was not understood; null without it. */
export async function sortedForTown(db: Db, params: URLSearchParams): Promise<SortedForTown | null> {
	const typed = (params.get(TOWN_PARAM) ?? '').slice(0, 200)
	const choice = params.get(TOWN_CHOICE_FIELD) ?? ''
	if (!typed.trim() && !choice.trim()) return null
	const form = new FormData()
	form.set(TOWN_FIELD, typed)
	form.set(TOWN_CHOICE_FIELD, choice)
	const input = readTownInput(form)
	if (input.kind === 'town')
		return { typed: input.town.label, town: input.town.label, events: await upcomingByDistance(db, input.town), problem: null }
	if (input.kind === 'invalid') return { typed, town: null, events: null, problem: { message: input.message, choices: input.choices } }
	return null
}
