import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react'
import type { getZodConstraint } from '@conform-to/zod/v4'
import type { z } from 'zod'
import { Form, Link, useNavigation } from 'react-router'
import { useEditedFields, validateOnServer } from '#app/components/forms/validation.ts'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { Field, Input } from '#app/components/ui/field.tsx'
import { FormError } from '#app/components/ui/form-error.tsx'
import { linkClasses } from '#app/components/ui/link.tsx'
import { useTranslation } from '#app/i18n/react.tsx'
import { PASSWORD_MIN } from '../rules.ts'
import type { ClaimMode, ConfirmSchema, ResetSchema, SetupSchema } from './forms.ts'

/* The screens of an e-mailed link: confirm an address, choose a password, become the first admin. */

export function InvalidLink(props: { mode: ClaimMode; signedIn: boolean }) {
	const { t } = useTranslation()
	const again =
		props.mode === 'resetPassword'
			? { to: '/auth/forgot-password', label: t('auth.claim.invalid.askReset') }
			: props.mode === 'verifyEmail'
				? { to: props.signedIn ? '/dashboard' : '/auth/signin', label: t('auth.claim.invalid.askVerify') }
				: null
	return (
		<div className="mt-4">
			<p className="text-muted">{t('auth.claim.invalid.body')}</p>
			{props.mode === 'setup' ? <p className="mt-2 text-muted">{t('auth.claim.invalid.setup')}</p> : null}
			{again ? (
				<Link to={again.to} className={buttonClasses('primary', 'lg', 'mt-6 w-full')}>
					{again.label}
				</Link>
			) : null}
		</div>
	)
}

export function ConfirmEmail(props: { needsPassword: boolean; constraint: Constraint; result: Result }) {
	const { t } = useTranslation()
	const navigation = useNavigation()
	const [form, fields] = useForm<z.input<typeof ConfirmSchema>>({
		lastResult: props.result,
		constraint: props.constraint ?? undefined,
		...validateOnServer,
	})
	const edited = useEditedFields(props.result)
	return (
		<Form method="post" className="mt-4 flex flex-col gap-6" {...getFormProps(form)} onInput={edited.onInput}>
			{edited.island}
			<p className="text-muted">{props.needsPassword ? t('auth.claim.verifyEmail.introPassword') : t('auth.claim.verifyEmail.intro')}</p>
			<FormError id={form.errorId} errors={form.errors} />
			{props.needsPassword ? (
				<Field label={t('auth.fields.password')} errors={edited.errors(fields.password)}>
					{(control) => <Input {...getInputProps(fields.password, { type: 'password' })} {...control} autoComplete="current-password" />}
				</Field>
			) : null}
			<Button type="submit" size="lg" disabled={navigation.state === 'submitting'}>
				{t('auth.claim.verifyEmail.submit')}
			</Button>
			{props.needsPassword ? (
				<p className="text-sm text-muted">
					{t('auth.claim.verifyEmail.notYours')}{' '}
					<Link to="/auth/forgot-password" className={linkClasses()}>
						{t('auth.claim.verifyEmail.chooseNew')}
					</Link>
				</p>
			) : null}
		</Form>
	)
}

export function VerifiedEmail(props: { signedIn: boolean }) {
	const { t } = useTranslation()
	return (
		<div className="mt-4">
			<p className="text-muted">{t('auth.claim.verifyEmail.done')}</p>
			<Link to={props.signedIn ? '/dashboard' : '/auth/signin'} className={buttonClasses('primary', 'lg', 'mt-6 w-full')}>
				{props.signedIn ? t('auth.claim.toDashboard') : t('auth.claim.toSignIn')}
			</Link>
		</div>
	)
}

type Constraint = ReturnType<typeof getZodConstraint> | null
type PasswordField = ReturnType<typeof useForm<{ password: string; confirm: string }>>[1]['password']

/** A new password, typed twice: the reset and the set-up forms share it. */
export function NewPasswordFields(props: {
	password: PasswordField
	confirm: PasswordField
	errors: (field: PasswordField) => string[] | undefined
}) {
	const { t } = useTranslation()
	return (
		<>
			<Field
				label={t('auth.fields.newPassword')}
				hint={t('auth.signup.passwordHint', { min: PASSWORD_MIN })}
				errors={props.errors(props.password)}
			>
				{(control) => <Input {...getInputProps(props.password, { type: 'password' })} {...control} autoComplete="new-password" />}
			</Field>
			<Field label={t('auth.fields.confirmPassword')} errors={props.errors(props.confirm)}>
				{(control) => <Input {...getInputProps(props.confirm, { type: 'password' })} {...control} autoComplete="new-password" />}
			</Field>
		</>
	)
}
type Result = SubmissionResult<string[]> | null | undefined

export function ResetForm(props: { constraint: Constraint; result: Result }) {
	const { t } = useTranslation()
	const navigation = useNavigation()
	const [form, fields] = useForm<z.input<typeof ResetSchema>>({
		lastResult: props.result,
		constraint: props.constraint ?? undefined,
		...validateOnServer,
	})
	const edited = useEditedFields(props.result)
	return (
		<Form method="post" className="mt-4 flex flex-col gap-5" {...getFormProps(form)} onInput={edited.onInput}>
			{edited.island}
			<p className="text-muted">{t('auth.claim.resetPassword.intro')}</p>
			<FormError id={form.errorId} errors={form.errors} />
			<NewPasswordFields password={fields.password} confirm={fields.confirm} errors={edited.errors} />
			<Button type="submit" size="lg" disabled={navigation.state === 'submitting'}>
				{t('auth.claim.resetPassword.submit')}
			</Button>
		</Form>
	)
}

export function PromoteSelf(props: { name: string }) {
	const { t } = useTranslation()
	return (
		<Form method="post" className="mt-4 flex flex-col gap-6">
			<p className="text-muted">{t('auth.claim.setup.promote', { name: props.name })}</p>
			<Button type="submit" size="lg">
				{t('auth.claim.setup.promoteSubmit')}
			</Button>
		</Form>
	)
}

export function SetupForm(props: { constraint: Constraint; result: Result }) {
	const { t } = useTranslation()
	const navigation = useNavigation()
	const [form, fields] = useForm<z.input<typeof SetupSchema>>({
		lastResult: props.result,
		constraint: props.constraint ?? undefined,
		...validateOnServer,
	})
	const edited = useEditedFields(props.result)
	return (
		<Form method="post" className="mt-4 flex flex-col gap-5" {...getFormProps(form)} onInput={edited.onInput}>
			{edited.island}
			<p className="text-muted">{t('auth.claim.setup.intro')}</p>
			<FormError id={form.errorId} errors={form.errors} />
			<Field label={t('auth.fields.name')} errors={edited.errors(fields.name)}>
				{(control) => <Input {...getInputProps(fields.name, { type: 'text' })} {...control} autoComplete="name" />}
			</Field>
			{/* The set-up link proves the address: no mail asks to confirm it (docs/decisions/0007-first-admin-address.md). */}
			<Field label={t('auth.fields.email')} hint={t('auth.claim.setup.emailHint')} errors={edited.errors(fields.email)}>
				{(control) => <Input {...getInputProps(fields.email, { type: 'email' })} {...control} autoComplete="email" />}
			</Field>
			<NewPasswordFields password={fields.password} confirm={fields.confirm} errors={edited.errors} />
			<Button type="submit" size="lg" disabled={navigation.state === 'submitting'}>
				{t('auth.claim.setup.submit')}
			</Button>
		</Form>
	)
}
