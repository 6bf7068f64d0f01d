import type { SubmissionResult } from '@conform-to/react'
import { createElement, useState, type FormEvent, type ReactElement } from 'react'
import { useNonce } from '#app/components/nonce.tsx'
// The same behaviour for a page that does not hydrate (app/hydration.ts), as a file of its own.
import editedFieldsIsland from '#app/islands/edited-fields.ts?worker&url'

/*
 * How a form checks what is typed once a submit has been refused. Two ways, never a third: either
 * the browser checks with the form's own Zod schema (the one the action validates with), or, where
 * Zod would weigh too much on a public page, nothing is checked until the next submit and the
 * refused field's message goes as soon as it is edited. Either way, typing posts nothing: before
 * this, Conform posted the form on every key to ask the server, and an action that did not expect
 * such a post answered with an error page in place of the form.
 *
 * The first way is in validate-in-browser.ts: this module stays free of Zod, so that a page whose
 * forms the server validates does not download it (27 kB compressed, and 27–43 ms of main thread to
 * evaluate with the CPU slowed 4× as Lighthouse's phone does).
 */

/** Only the server validates, on submit: no post while typing. Pair it with `useEditedFields`. */
export const validateOnServer = { shouldValidate: 'onSubmit', shouldRevalidate: 'onSubmit' } as const

/**
 * For server-validated forms: a field edited since the server's last answer no longer shows that
 * answer's message (the server judges it again at the next submit). Put `onInput` on the form,
 * read a field's errors through `errors(field)`, and put `island` inside the form: on a public page,
 * which does not hydrate, a small script does the same (app/islands/edited-fields.ts); it is there
 * only in an answer that refused something, so a page as first shown sends no script.
 */
export function useEditedFields(lastResult: SubmissionResult<string[]> | null | undefined) {
	const nonce = useNonce()
	const [edited, setEdited] = useState<ReadonlySet<string>>(() => new Set())
	// A new answer from the server: every field shows its messages again (reset while rendering, as React advises).
	const [answered, setAnswered] = useState(lastResult)
	if (answered !== lastResult) {
		setAnswered(lastResult)
		setEdited(new Set())
	}
	const refused = lastResult?.status === 'error'
	const island: ReactElement | null = refused
		? createElement('script', { type: 'module', src: editedFieldsIsland, nonce: nonce || undefined })
		: null
	return {
		island,
		onInput(event: FormEvent<HTMLFormElement>) {
			const name = (event.target as HTMLInputElement).name
			if (name && !edited.has(name)) setEdited(new Set(edited).add(name))
		},
		errors(field: { name: string; errors?: string[] }): string[] | undefined {
			return edited.has(field.name) ? undefined : field.errors
		},
	}
}
