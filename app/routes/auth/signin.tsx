import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '#app/i18n/react.tsx'
import { data, Form, Link, redirect, useNavigation } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/signin'
import { Button } from '#app/components/ui/button.tsx'
import { Field, Input } from '#app/components/ui/field.tsx'
import { useEditedFields, validateOnServer } from '#app/components/forms/validation.ts'
import { FormError } from '#app/components/ui/form-error.tsx'
import { linkClasses } from '#app/components/ui/link.tsx'
import { currentPasswordField, emailField, redirectToField } from '#app/features/accounts/forms.ts'
import { failureHeaders, signInWithPassword, retryAfterHeaders } from '#app/features/accounts/auth-actions.server.ts'
import { safeRedirect } from '#app/features/accounts/redirect.ts'
import { requireAnonymous } from '#app/features/accounts/session.server.ts'
import { configuredProviders } from '#app/platform/auth.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { getPlatform } from '#app/platform/platform.server.ts'
import { routeStrings } from '#app/i18n/route-strings.ts'
import { authPageData } from '#app/features/accounts/auth-page.server.ts'
import { authPageMeta } from '#app/features/accounts/auth-page.ts'

/** The strings this screen needs in the browser (app/i18n/route-strings.ts). */
export const handle = routeStrings('auth.signin')

const SignInSchema = z.object({
	email: emailField,
	password: currentPasswordField,
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
	return {
		...(await authPageData(request, 'signin', SignInSchema)),
		providers: configuredProviders((await getPlatform()).env),
		providerError: providerErrorMessage(new URL(request.url).searchParams.get('error')),
	}
}

/** Why a federated sign-in came back without a session (Better Auth's and the provider's codes). */
function providerErrorMessage(code: string | null): string | null {
	if (!code) return null
	const t = getT()
	if (['access_denied', 'consent_required', 'login_required', 'interaction_required'].includes(code)) return t('auth.errors.providerDenied')
	if (code === 'account_not_linked' || code === 'unable_to_link_account') return t('auth.errors.providerAccountNotLinked')
	return t('auth.errors.providerUnavailable')
}

export async function action({ request }: Route.ActionArgs) {
	await requireAnonymous(request)
	const formData = await request.formData()
	const submission = parseWithZod(formData, { schema: SignInSchema })
	if (submission.status !== 'success') {
		return data(submission.reply({ hideFields: ['password'] }), { status: 400 })
	}
	const { email, password, redirectTo } = submission.value
	const target = safeRedirect(redirectTo)
	// The confirmation link sent again to an unconfirmed address brings its owner back here too.
	const outcome = await signInWithPassword(request, email, password, redirectTo ? target : null)
	if (!outcome.ok) {
		return data(submission.reply({ formErrors: [outcome.message], hideFields: ['password'] }), {
			status: outcome.status,
			headers: failureHeaders(outcome),
		})
	}
	return redirect(target, { headers: outcome.headers })
}

export default function SignIn({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation()
	const navigation = useNavigation()
	const [form, fields] = useForm<z.input<typeof SignInSchema>>({
		lastResult: actionData,
		constraint: loaderData.constraint,
		...validateOnServer,
	})
	const edited = useEditedFields(actionData)
	const signupHref = loaderData.redirectTo ? `/auth/signup?${new URLSearchParams({ redirectTo: loaderData.redirectTo })}` : '/auth/signup'
	return (
		<>
			<h1 className="font-display text-headline tracking-display uppercase">{t('auth.signin.title')}</h1>
			<p className="mt-3 text-muted">{t('auth.signin.intro')}</p>
			<Form method="post" className="mt-6 flex flex-col gap-5" {...getFormProps(form)} onInput={edited.onInput}>
				{edited.island}
				<FormError id={form.errorId} errors={form.errors ?? (loaderData.providerError ? [loaderData.providerError] : undefined)} />
				<input type="hidden" name="redirectTo" value={loaderData.redirectTo ?? ''} />
				<Field label={t('auth.fields.email')} errors={edited.errors(fields.email)}>
					{(control) => (
						// The page's one task is this form, reached on purpose: the cursor waits in its first field.
						// oxlint-disable-next-line jsx-a11y/no-autofocus
						<Input {...getInputProps(fields.email, { type: 'email' })} {...control} autoComplete="email" autoFocus />
					)}
				</Field>
				<Field label={t('auth.fields.password')} errors={edited.errors(fields.password)}>
					{(control) => <Input {...getInputProps(fields.password, { type: 'password' })} {...control} autoComplete="current-password" />}
				</Field>
				<Button type="submit" size="lg" className="mt-1 w-full" disabled={navigation.state === 'submitting'}>
					{navigation.state === 'submitting' ? t('auth.signin.submitting') : t('auth.signin.submit')}
				</Button>
				<p className="text-center text-sm">
					<Link to="/auth/forgot-password" className={linkClasses()}>
						{t('auth.signin.forgot')}
					</Link>
				</p>
			</Form>
			{loaderData.providers.length > 0 ? (
				<div className="mt-6">
					<p className="flex items-center gap-3 text-sm text-muted before:h-px before:flex-1 before:bg-line after:h-px after:flex-1 after:bg-line">
						{t('auth.signin.or')}
					</p>
					<ul className="mt-4 flex flex-col gap-3">
						{loaderData.providers.map((provider) => (
							<li key={provider.id}>
								<Form method="post" action="/auth/social">
									<input type="hidden" name="provider" value={provider.id} />
									<input type="hidden" name="redirectTo" value={loaderData.redirectTo ?? ''} />
									<Button type="submit" variant="secondary" size="lg" className="w-full">
										{t('auth.signin.withProvider', { provider: provider.name })}
									</Button>
								</Form>
							</li>
						))}
					</ul>
				</div>
			) : null}
			<p className="mt-6 border-t border-line pt-5 text-center text-muted">
				{t('auth.signin.noAccount')}{' '}
				<Link to={signupHref} className={linkClasses('default', 'whitespace-nowrap')}>
					{t('auth.signin.createAccount')}
				</Link>
			</p>
		</>
	)
}
