import { z } from 'zod'
import { textField } from '#app/platform/text-field.ts'
import { BATCH_MAX } from './rules.ts'
import { frenchInteger } from '#app/features/site/french-integer.ts'
import { lazyT } from '#app/i18n/schema-messages.ts'

const LABEL_MAX = 120

/** A batch to generate: how many codes (1 to 100 000) and a label for the admins. */
export const BatchSchema = z.object({
	count: z.coerce
		.number({ error: lazyT('admin.codes.validation.count') })
		.int({ error: lazyT('admin.codes.validation.wholeNumber') })
		.min(1, { error: lazyT('admin.codes.validation.countMin') })
		.max(BATCH_MAX, { error: lazyT('admin.codes.validation.countMax', { max: frenchInteger(BATCH_MAX) }) }),
	label: textField()
		.trim()
		.max(LABEL_MAX, { error: lazyT('admin.codes.validation.labelMax', { max: LABEL_MAX }) })
		.optional()
		.default(''),
})
export type BatchInput = z.infer<typeof BatchSchema>
