import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from '@conform-to/react'
import { Form, useNavigation } from 'react-router'
import { validateInBrowser } from '#app/components/forms/validate-in-browser.ts'
import { Button } from '#app/components/ui/button.tsx'
import { Checkbox } from '#app/components/ui/checkbox.tsx'
import { Field, Input } from '#app/components/ui/field.tsx'
import { FormError } from '#app/components/ui/form-error.tsx'
import { Textarea } from '#app/components/ui/textarea.tsx'
import { useTranslation } from '#app/i18n/react.tsx'
import { CampaignSchema, type CampaignInput } from './forms.ts'

type Constraint = Parameters<typeof useForm<CampaignInput>>[0]['constraint']

/** The campaign's fields: what it is, what a code unlocks, when and how often. */
export function CampaignFormView(props: {
	isNew: boolean
	defaultValue: Record<string, string | boolean | undefined>
	constraint: Constraint
	result: SubmissionResult<string[]> | null | undefined
}) {
	const { t } = useTranslation()
	const navigation = useNavigation()
	const saving = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'save'
	const [form, fields] = useForm<CampaignInput>({
		id: 'form-campagne',
		lastResult: props.result,
		constraint: props.constraint,
		defaultValue: props.defaultValue,
		...validateInBrowser(CampaignSchema),
	})
	return (
		<Form method="post" className="flex flex-col gap-5" {...getFormProps(form)}>
			<input type="hidden" name="intent" value="save" />
			<FormError id={form.errorId} errors={form.errors} />
			<Field label={t('admin.codes.form.name')} hint={t('admin.codes.form.nameHint')} errors={fields.name.errors}>
				{(control) => <Input {...getInputProps(fields.name, { type: 'text' })} {...control} autoComplete="off" />}
			</Field>
			<Field
				label={t('admin.codes.form.description')}
				hint={t('admin.codes.form.descriptionHint')}
				errors={fields.description.errors}
				optional={t('admin.codes.form.optional')}
			>
				{(control) => <Textarea {...getTextareaProps(fields.description)} {...control} rows={2} />}
			</Field>
			<Field
				label={t('admin.codes.form.message')}
				hint={t('admin.codes.form.messageHint')}
				errors={fields.message.errors}
				optional={t('admin.codes.form.optional')}
			>
				{(control) => <Textarea {...getTextareaProps(fields.message)} {...control} rows={5} />}
			</Field>
			<Field
				label={t('admin.codes.form.links')}
				hint={t('admin.codes.form.linksHint')}
				errors={fields.links.errors}
				optional={t('admin.codes.form.optional')}
			>
				{(control) => <Textarea {...getTextareaProps(fields.links)} {...control} rows={3} className="font-mono text-sm" />}
			</Field>
			<div className="grid gap-5 sm:grid-cols-3">
				<Field label={t('admin.codes.form.startsAt')} errors={fields.startsAt.errors} optional={t('admin.codes.form.optional')}>
					{(control) => <Input {...getInputProps(fields.startsAt, { type: 'datetime-local' })} {...control} />}
				</Field>
				<Field label={t('admin.codes.form.endsAt')} errors={fields.endsAt.errors} optional={t('admin.codes.form.optional')}>
					{(control) => <Input {...getInputProps(fields.endsAt, { type: 'datetime-local' })} {...control} />}
				</Field>
				<Field
					label={t('admin.codes.form.usesPerCode')}
					hint={props.isNew ? undefined : t('admin.codes.form.usesHint')}
					errors={fields.usesPerCode.errors}
				>
					{(control) => <Input {...getInputProps(fields.usesPerCode, { type: 'number' })} {...control} inputMode="numeric" />}
				</Field>
			</div>
			<Checkbox
				{...getInputProps(fields.paused, { type: 'checkbox' })}
				label={t('admin.codes.form.paused')}
				hint={t('admin.codes.form.pausedHint')}
				errors={fields.paused.errors}
			/>
			<div>
				<Button type="submit" disabled={saving}>
					{props.isNew ? t('admin.codes.form.create') : t('admin.codes.form.save')}
				</Button>
			</div>
		</Form>
	)
}
