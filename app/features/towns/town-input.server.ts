import { getT } from '#app/platform/i18n.server.ts'
import { resolveTown, type Town } from './towns.server.ts'
import { TOWN_CHOICE_FIELD, TOWN_FIELD, TOWN_FIELD_MAX, type TownProblem } from './rules.ts'

/*
 * A form's town, read on the server: the text of the field (a suggestion's label, or a name typed
 * by hand), or the namesake picked when the form asked which. Only the text is read: any
 * coordinates a form might carry are ignored, the town list gives them.
 */
export type TownInput = { kind: 'empty' } | { kind: 'town'; town: Town } | ({ kind: 'invalid' } & TownProblem)

export function readTownInput(formData: FormData): TownInput {
	const choice = formData.get(TOWN_CHOICE_FIELD)
	const field = formData.get(TOWN_FIELD)
	const raw = typeof choice === 'string' && choice.trim() ? choice : typeof field === 'string' ? field : ''
	const text = raw.replace(/\s+/g, ' ').trim()
	if (!text) return { kind: 'empty' }
	const t = getT()
	if (text.length > TOWN_FIELD_MAX) return { kind: 'invalid', message: t('towns.field.tooLong', { count: TOWN_FIELD_MAX }), choices: [] }
	const resolution = resolveTown(text)
	switch (resolution.status) {
		case 'found':
			return { kind: 'town', town: resolution.town }
		case 'ambiguous':
			return { kind: 'invalid', message: t('towns.field.ambiguous', { town: text }), choices: resolution.choices.map((town) => town.label) }
		case 'unknown':
			return {
				kind: 'invalid',
				message:
					resolution.suggestions.length > 0 ? t('towns.field.unknownNear', { town: text }) : t('towns.field.unknown', { town: text }),
				choices: resolution.suggestions.map((town) => town.label),
			}
		case 'unavailable':
			return { kind: 'invalid', message: t('towns.field.unavailable'), choices: [] }
	}
}
