import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import type { z } from 'zod'
import { Form } from 'react-router'
import { validateInBrowser } from '#app/components/forms/validate-in-browser.ts'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Field, Input } from '#app/components/ui/field.tsx'
import { FormError } from '#app/components/ui/form-error.tsx'
import { Section } from '#app/components/ui/section.tsx'
import { useTranslation } from '#app/i18n/react.tsx'
import { PASSWORD_MAX, PASSWORD_MIN } from '../rules.ts'
import { IntentInput, Notice, resultFor, useSending } from './parts.tsx'
import {
	ChangePasswordSchema,
	EmailSchema,
	EmailWithoutPasswordSchema,
	ProfileSchema,
	SetPasswordSchema,
	type SettingsIntent,
} from './forms.ts'
import type { SectionProps } from './types.ts'

/* The settings that say who the member is: profile, address, password. */

export function ProfileSection({ loaderData, actionData }: SectionProps) {
	const { t } = useTranslation()
	const sending = useSending('profile')
	const [form, fields] = useForm<z.input<typeof ProfileSchema>>({
		id: 'form-profil',
		lastResult: resultFor(actionData, 'profile'),
		constraint: loaderData.constraint.profile,
		defaultValue: { name: loaderData.profile.name, city: loaderData.profile.city },
		...validateInBrowser(ProfileSchema),
	})
	return (
		<Section id="profil" title={t('settings.profile.title')} description={t('settings.profile.description')}>
			<Form method="post" preventScrollReset className="flex max-w-md flex-col gap-4" {...getFormProps(form)}>
				<IntentInput intent="profile" />
				<FormError id={form.errorId} errors={form.errors} />
				<Field label={t('settings.profile.name')} errors={fields.name.errors}>
					{(control) => <Input {...getInputProps(fields.name, { type: 'text' })} {...control} autoComplete="name" />}
				</Field>
				<Field label={t('settings.profile.city')} optional={t('settings.optional')} errors={fields.city.errors}>
					{(control) => <Input {...getInputProps(fields.city, { type: 'text' })} {...control} autoComplete="address-level2" />}
				</Field>
				<div>
					<Button type="submit" disabled={sending}>
						{sending ? t('settings.saving') : t('settings.profile.submit')}
					</Button>
				</div>
			</Form>
		</Section>
	)
}

export function EmailSection({ loaderData, actionData }: SectionProps) {
	const { t } = useTranslation()
	const sending = useSending('email')
	const [form, fields] = useForm<{ newEmail: string; currentPassword?: string }>({
		id: 'form-adresse',
		lastResult: resultFor(actionData, 'email'),
		constraint: loaderData.constraint.email,
		...validateInBrowser(loaderData.hasPassword ? EmailSchema : EmailWithoutPasswordSchema),
	})
	const { profile } = loaderData
	return (
		<Section id="adresse" title={t('settings.email.title')} description={t('settings.email.description')}>
			<div className="flex max-w-md flex-col gap-4">
				<p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
					<span className="text-muted">{t('settings.email.current')}</span>
					<strong className="font-semibold break-all">{profile.email}</strong>
					<Badge tone={profile.emailVerified ? 'success' : 'warning'}>
						{profile.emailVerified ? t('settings.email.verified') : t('settings.email.unverified')}
					</Badge>
				</p>
				{loaderData.emailSent ? (
					<Notice type="success">
						<strong className="font-semibold">{t('settings.email.sentTitle')}</strong> {t('settings.email.sentBody')}
					</Notice>
				) : null}
				<Form method="post" preventScrollReset className="flex flex-col gap-4" {...getFormProps(form)}>
					<IntentInput intent="email" />
					<FormError id={form.errorId} errors={form.errors} />
					<Field label={t('settings.email.newEmail')} errors={fields.newEmail.errors}>
						{(control) => <Input {...getInputProps(fields.newEmail, { type: 'email' })} {...control} autoComplete="email" />}
					</Field>
					{loaderData.hasPassword ? (
						<Field label={t('settings.currentPassword')} hint={t('settings.email.passwordHint')} errors={fields.currentPassword.errors}>
							{(control) => (
								<Input {...getInputProps(fields.currentPassword, { type: 'password' })} {...control} autoComplete="current-password" />
							)}
						</Field>
					) : null}
					<div>
						<Button type="submit" disabled={sending}>
							{sending ? t('settings.sending') : t('settings.email.submit')}
						</Button>
					</div>
				</Form>
			</div>
		</Section>
	)
}

export function PasswordSection({ loaderData, actionData }: SectionProps) {
	const { t } = useTranslation()
	const intent: SettingsIntent = loaderData.hasPassword ? 'change-password' : 'set-password'
	const sending = useSending(intent)
	const [form, fields] = useForm<{ currentPassword?: string; newPassword: string; confirm: string }>({
		id: 'form-mot-de-passe',
		lastResult: resultFor(actionData, intent),
		constraint: loaderData.constraint.password,
		...validateInBrowser(loaderData.hasPassword ? ChangePasswordSchema : SetPasswordSchema),
	})
	const text = loaderData.hasPassword
		? { title: t('settings.password.title'), description: t('settings.password.description'), submit: t('settings.password.submit') }
		: {
				title: t('settings.setPassword.title'),
				description: t('settings.setPassword.description'),
				submit: t('settings.setPassword.submit'),
			}
	return (
		<Section id="mot-de-passe" title={text.title} description={text.description}>
			<Form method="post" preventScrollReset className="flex max-w-md flex-col gap-4" {...getFormProps(form)}>
				<IntentInput intent={intent} />
				<FormError id={form.errorId} errors={form.errors} />
				{loaderData.hasPassword ? (
					<Field label={t('settings.currentPassword')} errors={fields.currentPassword.errors}>
						{(control) => (
							<Input {...getInputProps(fields.currentPassword, { type: 'password' })} {...control} autoComplete="current-password" />
						)}
					</Field>
				) : null}
				<Field
					label={t('settings.password.newPassword')}
					hint={t('settings.password.hint', { min: PASSWORD_MIN })}
					errors={fields.newPassword.errors}
				>
					{(control) => (
						<Input
							{...getInputProps(fields.newPassword, { type: 'password' })}
							{...control}
							autoComplete="new-password"
							maxLength={PASSWORD_MAX}
						/>
					)}
				</Field>
				<Field label={t('settings.password.confirm')} errors={fields.confirm.errors}>
					{(control) => <Input {...getInputProps(fields.confirm, { type: 'password' })} {...control} autoComplete="new-password" />}
				</Field>
				<div>
					<Button type="submit" disabled={sending}>
						{sending ? t('settings.saving') : text.submit}
					</Button>
				</div>
			</Form>
		</Section>
	)
}
