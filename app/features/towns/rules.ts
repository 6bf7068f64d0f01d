/* The town field's names and limits, shared by the forms and the server that reads them. */

/** The text field: a suggestion's label, or a town's name typed by hand. */
export const TOWN_FIELD = 'town'
/** The namesake picked when a form asked which town was meant. */
export const TOWN_CHOICE_FIELD = 'townChoice'
export const TOWN_FIELD_MAX = 120
/** Where the suggestions come from (GET, `?q=`). */
export const TOWN_SUGGESTIONS_PATH = '/api/towns'

/** What a form shows when its town was not understood: the message and the towns to pick from. */
export interface TownProblem {
	message: string
	choices: string[]
}

/** A town's coordinates are kept to this many decimals of a degree (about a kilometre): never closer. */
export const COORDINATE_DECIMALS = 2
/** The list holds the world's towns of at least this many inhabitants (and France's larger villages' towns). */
export const TOWN_MIN_POPULATION = 1000
/** A concert's announcement goes, unless the admin says otherwise, to subscribers this close to its venue. */
export const DEFAULT_RADIUS_KM = 150
/** The reach an admin may give an announcement. */
export const MIN_RADIUS_KM = 10
export const MAX_RADIUS_KM = 1000
