/*
 * A town's label, as suggestions show it and as a form sends it back: its name, then what tells it
 * apart from its namesakes (a French department, else the country; a region code, then the
 * population when even that is shared). Labels are unique across the list (scripts/build-towns.ts
 * checks it), so a chosen suggestion names one town without any hidden field.
 */
import { DETAIL_POPULATION, DETAIL_REGION } from './town-file.ts'

const population = new Intl.NumberFormat('fr-FR')

export interface LabelParts {
	name: string
	countryCode: string
	countryName: string
	/** A French department's name, when known. */
	area: string | null
	region: string
	population: number
	detail: number
}

/** « Saint-Denis (Seine-Saint-Denis) », « Saint-Denis (La Réunion) », « Paris (États-Unis, TX) ». */
export function townLabel(parts: LabelParts): string {
	const qualifier = [parts.countryCode === 'FR' ? (parts.area ?? parts.countryName) : parts.countryName]
	// A French region's number says nothing to a fan: namesakes in one department go to the population.
	if (parts.detail >= DETAIL_REGION && parts.region && parts.countryCode !== 'FR') qualifier.push(parts.region)
	if (parts.detail >= DETAIL_POPULATION) qualifier.push(`${population.format(parts.population)} hab.`)
	return `${parts.name} (${qualifier.join(', ')})`
}
