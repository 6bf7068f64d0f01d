import { z } from 'zod'
import { textField } from '#app/platform/text-field.ts'
import { BATCH_MAX } from './rules.ts'
import { frenchInteger } from '#app/features/site/french-integer.ts'

/** A batch to generate: how many codes (1 to 100 000) and a label for the admins. */
export const BatchSchema = z.object({
	count: z.coerce
		.number({ error: 'Indiquez combien de codes générer.' })
		.int('Un nombre entier, s’il vous plaît.')
		.min(1, 'Au moins un code.')
		.max(BATCH_MAX, `Au plus ${frenchInteger(BATCH_MAX)} codes par lot.`),
	label: textField().trim().max(120, 'Le libellé tient en 120 caractères au plus.').optional().default(''),
})
export type BatchInput = z.infer<typeof BatchSchema>
