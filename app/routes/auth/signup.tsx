import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '#app/i18n/react.tsx'
import { data, Form, Link, useNavigation } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/signup'
import { Button } from '#app/components/ui/button.tsx'
import { Checkbox } from '#app/components/ui/checkbox.tsx'
import { Field, Input } from '#app/components/ui/field.tsx'
import { useEditedFields, validateOnServer } from '#app/components/forms/validation.ts'
import { FormError } from '#app/components/ui/form-error.tsx'
import { linkClasses } from '#app/components/ui/link.tsx'
import { emailField, nameField, newPasswordField, redirectToField } from '#app/features/accounts/forms.ts'
import { PASSWORD_MIN } from '#app/features/accounts/rules.ts'
import { failureHeaders, signUpWithPassword, retryAfterHeaders } from '#app/features/accounts/auth-actions.server.ts'
import { redirectWithFlash } from '#app/platform/flash.server.ts'
import { refuseWeakPassword } from '#app/features/accounts/password-policy.server.ts'
import { safeRedirect } from '#app/features/accounts/redirect.ts'
import { requireAnonymous } from '#app/features/accounts/session.server.ts'
import { newsletterContext } from '#app/features/newsletter/public.server.ts'
import { requestSubscription } from '#app/features/newsletter/subscribers.server.tsx'
import { lazyT } from '#app/i18n/schema-messages.ts'
import { routeStrings } from '#app/i18n/route-strings.ts'
import { authPageData } from '#app/features/accounts/auth-page.server.ts'
import { authPageMeta } from '#app/features/accounts/auth-page.ts'
import { TownField } from '#app/features/towns/town-field.tsx'
import { readTownInput } from '#app/features/towns/town-input.server.ts'

/** The strings this screen needs in the browser (app/i18n/route-strings.ts). */
export const handle = routeStrings('auth.signup', 'newsletter.signupOptIn', 'towns.field')

const SignUpSchema = z.object({
	name: nameField,
	email: emailField,
	password: newPasswordField,
	acceptPrivacy: z.literal('on', { error: lazyT('auth.validation.acceptPrivacy') }),
	/** Optional, unticked: the newsletter, confirmed by its own mail (double opt-in). */
	newsletter: z.literal('on').optional(),
	redirectTo: redirectToField,
})

export function meta({ loaderData }: Route.MetaArgs) {
	return authPageMeta(loaderData)
}

/** The Retry-After of a refused attempt, passed on to the browser. */
export function headers(args: Route.HeadersArgs) {
	return retryAfterHeaders(args)
}

export async function loader({ request }: Route.LoaderArgs) {
	return authPageData(request, 'signup', SignUpSchema)
}

export async function action({ request }: Route.ActionArgs) {
	await requireAnonymous(request)
	const formData = await request.formData()
	const submission = parseWithZod(formData, {
		schema: SignUpSchema.superRefine(await refuseWeakPassword('password', (value) => value)),
	})
	// The town goes with the newsletter's record: read only when the newsletter is asked for.
	const town = formData.get('newsletter') === 'on' ? readTownInput(formData) : ({ kind: 'empty' } as const)
	const townProblem = town.kind === 'invalid' ? { message: town.message, choices: town.choices } : null
	if (submission.status !== 'success' || townProblem) {
		return data({ ...submission.reply({ hideFields: ['password'] }), town: townProblem }, { status: 400 })
	}
	const { name, email, password } = submission.value
	const redirectTo = submission.value.redirectTo ? safeRedirect(submission.value.redirectTo) : null
	// New address or known, the same answer: the link in the mail is what opens the account (and
	// carries redirectTo, so that a reserved code's claim is where the new member lands).
	const outcome = await signUpWithPassword(request, { name, email, password }, redirectTo)
	// Asked for whether the account was new or not, so that the answer reveals nothing.
	if (submission.value.newsletter && outcome.ok !== false) {
		await requestSubscription(await newsletterContext(), { email, source: 'signup', town: town.kind === 'town' ? town.town : null })
	}
	if (outcome.ok === 'check-inbox') {
		const signin = redirectTo ? `/auth/signin?${new URLSearchParams({ redirectTo })}` : '/auth/signin'
		return redirectWithFlash(signin, { type: 'info', key: 'auth.flash.checkInbox' })
	}
	return data(
		{ ...submission.reply({ formErrors: [outcome.message], hideFields: ['password'] }), town: null },
		{
			status: outcome.status,
			headers: failureHeaders(outcome),
		},
	)
}

export default function SignUp({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation()
	const navigation = useNavigation()
	const [form, fields] = useForm<z.input<typeof SignUpSchema>>({
		lastResult: actionData,
		constraint: loaderData.constraint,
		...validateOnServer,
	})
	const edited = useEditedFields(actionData)
	const signinHref = loaderData.redirectTo ? `/auth/signin?${new URLSearchParams({ redirectTo: loaderData.redirectTo })}` : '/auth/signin'
	return (
		<>
			<h1 className="font-display text-headline tracking-display uppercase">{t('auth.signup.title')}</h1>
			<p className="mt-3 text-muted">{t('auth.signup.intro')}</p>
			<Form method="post" className="mt-6 flex flex-col gap-5" {...getFormProps(form)} onInput={edited.onInput}>
				{edited.island}
				<FormError id={form.errorId} errors={form.errors} />
				<input type="hidden" name="redirectTo" value={loaderData.redirectTo ?? ''} />
				<Field label={t('auth.fields.name')} hint={t('auth.signup.nameHint')} errors={edited.errors(fields.name)}>
					{(control) => <Input {...getInputProps(fields.name, { type: 'text' })} {...control} autoComplete="name" />}
				</Field>
				<Field label={t('auth.fields.email')} errors={edited.errors(fields.email)}>
					{(control) => <Input {...getInputProps(fields.email, { type: 'email' })} {...control} autoComplete="email" />}
				</Field>
				<Field
					label={t('auth.fields.newPassword')}
					hint={t('auth.signup.passwordHint', { min: PASSWORD_MIN })}
					errors={edited.errors(fields.password)}
				>
					{(control) => <Input {...getInputProps(fields.password, { type: 'password' })} {...control} autoComplete="new-password" />}
				</Field>
				<Checkbox
					{...getInputProps(fields.acceptPrivacy, { type: 'checkbox' })}
					errors={edited.errors(fields.acceptPrivacy)}
					label={
						<>
							{t('auth.signup.acceptPrivacyBefore')}{' '}
							<Link to="/policies/privacy" className={linkClasses()}>
								{t('auth.signup.privacyPolicy')}
							</Link>
						</>
					}
				/>
				<Checkbox
					{...getInputProps(fields.newsletter, { type: 'checkbox' })}
					label={t('newsletter.signupOptIn.label')}
					hint={t('newsletter.signupOptIn.hint')}
				/>
				<TownField
					key={String(actionData?.initialValue?.town ?? '')}
					defaultValue={String(actionData?.initialValue?.town ?? '')}
					problem={actionData?.town}
					hint={t('towns.field.signupHint')}
				/>
				<Button type="submit" size="lg" className="mt-1 w-full" disabled={navigation.state === 'submitting'}>
					{navigation.state === 'submitting' ? t('auth.signup.submitting') : t('auth.signup.submit')}
				</Button>
			</Form>
			<p className="mt-6 border-t border-line pt-5 text-center text-muted">
				{t('auth.signup.haveAccount')}{' '}
				<Link to={signinHref} className={linkClasses('default', 'whitespace-nowrap')}>
					{t('auth.signup.signIn')}
				</Link>
			</p>
		</>
	)
}
