import type { Submission } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import type { ZodType } from 'zod'

/*
 * The first of a form's two ways to check what is typed (see validation.ts): in the browser, with
 * the form's own Zod schema, the one its action validates with. For the screens behind sign-in;
 * public pages leave it to the server and keep Zod out of their download.
 */

/** The browser validates with the same schema as the action, on submit, then on every key. */
export function validateInBrowser(schema: ZodType) {
	return {
		shouldValidate: 'onSubmit',
		shouldRevalidate: 'onInput',
		// Typed as fitting any form: each form names its own field types, from this same schema.
		onValidate: ({ formData }: { formData: FormData }) => parseWithZod(formData, { schema }) as Submission<never>,
	} as const
}
