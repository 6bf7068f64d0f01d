import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { data, Form, Link, redirect, useNavigation } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/signin'
import { Button } from '#app/components/ui/button.tsx'
import { Field, Input } from '#app/components/ui/field.tsx'
import { FormError } from '#app/components/ui/form-error.tsx'
import { currentPasswordField, emailField, redirectToField } from '#app/features/accounts/fields.ts'
import { signInWithPassword } from '#app/features/accounts/auth-actions.server.ts'
import { safeRedirect } from '#app/features/accounts/redirect.ts'
import { requireAnonymous } from '#app/features/accounts/session.server.ts'
import { getT } from '#app/platform/i18n.server.ts'

const SignInSchema = z.object({
	email: emailField,
	password: currentPasswordField,
	redirectTo: redirectToField,
})

export function meta({ loaderData: data }: Route.MetaArgs) {
	return [{ title: data?.title }, { name: 'robots', content: 'noindex' }]
}

export async function loader({ request }: Route.LoaderArgs) {
	await requireAnonymous(request)
	const redirectTo = new URL(request.url).searchParams.get('redirectTo')
	return {
		title: getT()('auth.signin.metaTitle'),
		redirectTo: redirectTo ? safeRedirect(redirectTo) : null,
		constraint: getZodConstraint(SignInSchema),
	}
}

export async function action({ request }: Route.ActionArgs) {
	await requireAnonymous(request)
	const formData = await request.formData()
	const submission = parseWithZod(formData, { schema: SignInSchema })
	if (submission.status !== 'success') {
		return data(submission.reply({ hideFields: ['password'] }), { status: 400 })
	}
	const { email, password, redirectTo } = submission.value
	const outcome = await signInWithPassword(request, email, password)
	if (!outcome.ok) {
		return data(submission.reply({ formErrors: [outcome.message], hideFields: ['password'] }), {
			status: outcome.status,
		})
	}
	return redirect(safeRedirect(redirectTo), { headers: outcome.headers })
}

export default function SignIn({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation()
	const navigation = useNavigation()
	const [form, fields] = useForm<z.input<typeof SignInSchema>>({
		lastResult: actionData,
		constraint: loaderData.constraint,
		shouldRevalidate: 'onInput',
	})
	const signupHref = loaderData.redirectTo
		? `/auth/signup?${new URLSearchParams({ redirectTo: loaderData.redirectTo })}`
		: '/auth/signup'
	return (
		<>
			<h1 className="font-display text-4xl uppercase tracking-wide">{t('auth.signin.title')}</h1>
			<p className="mt-2 text-ink-300">{t('auth.signin.intro')}</p>
			<Form method="post" className="mt-6 flex flex-col gap-5" {...getFormProps(form)}>
				<FormError id={form.errorId} errors={form.errors} />
				<input type="hidden" name="redirectTo" value={loaderData.redirectTo ?? ''} />
				<Field label={t('auth.fields.email')} errors={fields.email.errors}>
					{(control) => (
						<Input
							{...getInputProps(fields.email, { type: 'email' })}
							{...control}
							autoComplete="email"
							autoFocus
						/>
					)}
				</Field>
				<Field label={t('auth.fields.password')} errors={fields.password.errors}>
					{(control) => (
						<Input {...getInputProps(fields.password, { type: 'password' })} {...control} autoComplete="current-password" />
					)}
				</Field>
				<Button type="submit" size="lg" disabled={navigation.state === 'submitting'}>
					{navigation.state === 'submitting' ? t('auth.signin.submitting') : t('auth.signin.submit')}
				</Button>
			</Form>
			<p className="mt-6 text-center text-ink-300">
				{t('auth.signin.noAccount')}{' '}
				<Link to={signupHref} className="font-semibold text-ink-100 underline decoration-accent decoration-2 underline-offset-4">
					{t('auth.signin.createAccount')}
				</Link>
			</p>
		</>
	)
}
