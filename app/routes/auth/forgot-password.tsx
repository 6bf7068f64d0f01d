import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { privatePageMeta } from '#app/features/site/page-meta.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { data, Form, Link, useNavigation } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/forgot-password'
import { Button } from '#app/components/ui/button.tsx'
import { Field, Input } from '#app/components/ui/field.tsx'
import { useEditedFields, validateOnServer } from '#app/components/forms/validation.ts'
import { FormError } from '#app/components/ui/form-error.tsx'
import { linkClasses } from '#app/components/ui/link.tsx'
import { failureHeaders, requestPasswordReset, retryAfterHeaders } from '#app/features/accounts/auth-actions.server.ts'
import { emailField } from '#app/features/accounts/forms.ts'
import { requireAnonymous } from '#app/features/accounts/session.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { pageTitle } from '#app/features/site/band.server.ts'
import { routeStrings } from '#app/i18n/route-strings.ts'

/** The strings this screen needs in the browser (app/i18n/route-strings.ts). */
export const handle = routeStrings('auth.forgot')

const ForgotSchema = z.object({ email: emailField })

export function meta({ loaderData }: Route.MetaArgs) {
	return privatePageMeta(loaderData?.title)
}

/** The Retry-After of a refused attempt, passed on to the browser. */
export function headers(args: Route.HeadersArgs) {
	return retryAfterHeaders(args)
}

export async function loader({ request }: Route.LoaderArgs) {
	// Signed in, a member changes their password in the settings instead.
	await requireAnonymous(request)
	return { title: pageTitle(getT()('auth.forgot.metaTitle')), constraint: getZodConstraint(ForgotSchema) }
}

export async function action({ request }: Route.ActionArgs) {
	await requireAnonymous(request)
	const formData = await request.formData()
	const submission = parseWithZod(formData, { schema: ForgotSchema })
	if (submission.status !== 'success') return data({ result: submission.reply(), sent: false }, { status: 400 })
	const limited = await requestPasswordReset(request, submission.value.email)
	if (limited) {
		return data(
			{ result: submission.reply({ formErrors: [limited.message] }), sent: false },
			{ status: 429, headers: failureHeaders(limited) },
		)
	}
	// The same answer whether the address has an account or not.
	return { result: submission.reply(), sent: true }
}

export default function ForgotPassword({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation()
	const navigation = useNavigation()
	const [form, fields] = useForm<z.input<typeof ForgotSchema>>({
		lastResult: actionData?.result,
		constraint: loaderData.constraint,
		...validateOnServer,
	})
	const edited = useEditedFields(actionData?.result)
	return (
		<>
			<h1 className="font-display text-headline tracking-display uppercase">{t('auth.forgot.title')}</h1>
			{actionData?.sent ? (
				<div role="status" className="mt-4 rounded-lg border border-line bg-raised px-4 py-3">
					<p className="font-semibold">{t('auth.forgot.sentTitle')}</p>
					<p className="mt-1 text-muted">{t('auth.forgot.sentBody')}</p>
				</div>
			) : (
				<p className="mt-2 text-muted">{t('auth.forgot.intro')}</p>
			)}
			<Form method="post" className="mt-6 flex flex-col gap-5" {...getFormProps(form)} onInput={edited.onInput}>
				{edited.island}
				<FormError id={form.errorId} errors={form.errors} />
				<Field label={t('auth.fields.email')} errors={edited.errors(fields.email)}>
					{(control) => <Input {...getInputProps(fields.email, { type: 'email' })} {...control} autoComplete="email" />}
				</Field>
				<Button type="submit" size="lg" disabled={navigation.state === 'submitting'}>
					{actionData?.sent ? t('auth.forgot.submitAgain') : t('auth.forgot.submit')}
				</Button>
			</Form>
			<p className="mt-6 border-t border-line pt-5 text-center text-muted">
				<Link to="/auth/signin" className={linkClasses()}>
					{t('auth.forgot.backToSignIn')}
				</Link>
			</p>
		</>
	)
}
