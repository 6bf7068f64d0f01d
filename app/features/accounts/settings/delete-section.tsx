import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { Trash2 } from '#app/components/icons.tsx'
import { useState } from 'react'
import { Form } from 'react-router'
import { validateInBrowser } from '#app/components/forms/validate-in-browser.ts'
import { Button } from '#app/components/ui/button.tsx'
import { Dialog } from '#app/components/ui/dialog.tsx'
import { Field, Input } from '#app/components/ui/field.tsx'
import { FormError } from '#app/components/ui/form-error.tsx'
import { Section } from '#app/components/ui/section.tsx'
import { useTranslation } from '#app/i18n/react.tsx'
import { IntentInput, resultFor, useSending } from './parts.tsx'
import { DELETE_WORD, DeleteSchema, DeleteWithoutPasswordSchema } from './forms.ts'
import type { SectionProps } from './types.ts'

/* « Supprimer mon compte »: a dialog that asks for the word (and the password, if there is one). */

export function DeleteSection({ loaderData, actionData }: SectionProps) {
	const { t } = useTranslation()
	const sending = useSending('delete-account')
	const result = resultFor(actionData, 'delete-account')
	const [open, setOpen] = useState(Boolean(result))
	// A refusal from the server opens the dialog again, with its messages.
	const [shown, setShown] = useState(result)
	if (shown !== result) {
		setShown(result)
		if (result) setOpen(true)
	}
	const [form, fields] = useForm<{ confirmation: string; password?: string }>({
		id: 'form-suppression',
		lastResult: result,
		constraint: loaderData.constraint.deletion,
		...validateInBrowser(loaderData.hasPassword ? DeleteSchema : DeleteWithoutPasswordSchema),
	})
	return (
		<Section id="suppression" tone="danger" title={t('settings.delete.title')} description={t('settings.delete.description')}>
			<div className="flex max-w-md flex-col items-start gap-3">
				<p className="text-sm">{t('settings.delete.body')}</p>
				<Button variant="danger" onClick={() => setOpen(true)} aria-haspopup="dialog">
					<Trash2 aria-hidden="true" />
					{t('settings.delete.open')}
				</Button>
			</div>
			<Dialog
				open={open}
				onClose={() => setOpen(false)}
				title={t('settings.delete.dialogTitle')}
				description={t('settings.delete.dialogDescription')}
				dismissOnBackdrop={false}
				actions={
					<>
						<Button variant="secondary" onClick={() => setOpen(false)}>
							{t('settings.delete.cancel')}
						</Button>
						<Button type="submit" variant="danger" form={form.id} disabled={sending}>
							{sending ? t('settings.delete.deleting') : t('settings.delete.confirm')}
						</Button>
					</>
				}
			>
				<Form method="post" className="flex flex-col gap-4" {...getFormProps(form)}>
					<IntentInput intent="delete-account" />
					<FormError id={form.errorId} errors={form.errors} />
					<Field label={t('settings.delete.wordLabel', { word: DELETE_WORD })} errors={fields.confirmation.errors}>
						{(control) => (
							<Input
								{...getInputProps(fields.confirmation, { type: 'text' })}
								{...control}
								autoComplete="off"
								autoCapitalize="characters"
								spellCheck={false}
							/>
						)}
					</Field>
					{loaderData.hasPassword ? (
						<Field label={t('settings.currentPassword')} errors={fields.password.errors}>
							{(control) => (
								<Input {...getInputProps(fields.password, { type: 'password' })} {...control} autoComplete="current-password" />
							)}
						</Field>
					) : null}
				</Form>
			</Dialog>
		</Section>
	)
}
