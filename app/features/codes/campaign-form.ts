import { z } from 'zod'
import { textField } from '#app/platform/text-field.ts'
import { parisWallClockToInstant as parisInstant } from '#app/platform/time-zone.ts'
import { USES_MAX } from './rules.ts'
import { frenchInteger } from '#app/features/site/french-integer.ts'

/*
 * The campaign form, shared by the browser and the server. Dates are typed in Paris time as
 * `YYYY-MM-DDTHH:mm` (datetime-local) and stored as instants.
 */
const optionalText = (max: number, message: string) => textField({ multiline: true }).trim().max(max, message).optional().default('')

const linkLine = /^(.{1,80}?)\s*\|\s*(https?:\/\/\S{1,2000})$/

export const CampaignSchema = z
	.object({
		name: textField({ error: 'Donnez un nom à la campagne.' })
			.trim()
			.min(1, 'Donnez un nom à la campagne.')
			.max(120, 'Le nom tient en 120 caractères au plus.'),
		description: optionalText(2000, 'La description tient en 2 000 caractères au plus.'),
		message: optionalText(20_000, 'Le message tient en 20 000 caractères au plus.'),
		/** One link per line: « Libellé | https://… ». */
		links: optionalText(4000, 'Les liens tiennent en 4 000 caractères au plus.'),
		startsAt: textField().optional(),
		endsAt: textField().optional(),
		usesPerCode: z.coerce
			.number({ error: 'Indiquez un nombre d’utilisations.' })
			.int('Un nombre entier, s’il vous plaît.')
			.min(1, 'Au moins une utilisation par code.')
			.max(USES_MAX, `Au plus ${frenchInteger(USES_MAX)} utilisations par code.`)
			.default(1),
		paused: z.preprocess((v) => v === 'on' || v === true, z.boolean()).default(false),
	})
	.superRefine((value, ctx) => {
		for (const [index, line] of value.links.split(/\r?\n/).entries()) {
			if (line.trim() && !linkLine.test(line.trim()))
				ctx.addIssue({
					code: 'custom',
					path: ['links'],
					message: `Ligne ${index + 1} : écrivez « Libellé | https://adresse ».`,
				})
		}
		const starts = value.startsAt ? parisInstant(value.startsAt) : null
		const ends = value.endsAt ? parisInstant(value.endsAt) : null
		if (value.startsAt && !starts) ctx.addIssue({ code: 'custom', path: ['startsAt'], message: 'Cette date n’est pas valide.' })
		if (value.endsAt && !ends) ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'Cette date n’est pas valide.' })
		if (starts && ends && ends <= starts) ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'La fin doit venir après le début.' })
	})

export type CampaignInput = z.infer<typeof CampaignSchema>

export interface CampaignValues {
	name: string
	description: string
	message: string
	links: { label: string; url: string }[]
	startsAt: Date | null
	endsAt: Date | null
	usesPerCode: number
	status: 'active' | 'paused'
}

export function toCampaignValues(input: CampaignInput): CampaignValues {
	return {
		name: input.name,
		description: input.description,
		message: input.message,
		links: input.links
			.split(/\r?\n/)
			.map((line) => linkLine.exec(line.trim()))
			.filter((m): m is RegExpExecArray => Boolean(m))
			.map((m) => ({ label: m[1]!.trim(), url: m[2]! })),
		startsAt: input.startsAt ? parisInstant(input.startsAt) : null,
		endsAt: input.endsAt ? parisInstant(input.endsAt) : null,
		usesPerCode: input.usesPerCode,
		status: input.paused ? 'paused' : 'active',
	}
}
