import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '#app/i18n/react.tsx'
import { data, Form, Link, redirect, useNavigation } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/claim'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { Field, Input } from '#app/components/ui/field.tsx'
import { FormError } from '#app/components/ui/form-error.tsx'
import { linkClasses } from '#app/components/ui/link.tsx'
import { failureHeaders, limit, resetPassword, retryAfterHeaders, signUpFirstAdmin } from '#app/features/accounts/auth-actions.server.ts'
import { currentPasswordField, emailField, nameField, newPasswordField } from '#app/features/accounts/fields.ts'
import { confirmAddress, readVerifyLink } from '#app/features/accounts/verification.server.ts'
import { PASSWORD_MIN } from '#app/features/accounts/rules.ts'
import { passwordWeakness } from '#app/features/accounts/password-policy.server.ts'
import { getSessionUser } from '#app/features/accounts/session.server.ts'
import { completeSetup, isSetupTokenValid } from '#app/features/accounts/setup.server.ts'
import { isResetTokenLive, TOKEN_PATTERN } from '#app/features/accounts/tokens.server.ts'
import { redirectWithFlash } from '#app/platform/flash.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { getDb } from '#app/platform/platform.server.ts'
import { clientAddressOf } from '#app/platform/rate-limit.server.ts'
import { pageTitle } from '#app/features/site/band.server.ts'
import { rewardClaimAction, rewardClaimLoader } from '#app/features/codes/reward-claim.server.ts'
import { RewardClaim } from '#app/features/codes/reward-claim.tsx'

/*
 * The one landing for every link the site e-mails, by `mode`. A GET only shows a page (mail
 * scanners that follow links change nothing); only the POST of that page acts.
 */
const MODES = ['verifyEmail', 'resetPassword', 'setup', 'reward'] as const
type Mode = (typeof MODES)[number]

const passwordsMatch = (value: { password: string; confirm: string }, ctx: z.RefinementCtx) => {
	if (value.password !== value.confirm)
		ctx.addIssue({ code: 'custom', path: ['confirm'], message: 'Les deux mots de passe ne sont pas identiques.' })
}

/** Confirming an address of an account with a password: the verifier proves the account is theirs. */
const ConfirmSchema = z.object({ password: currentPasswordField })

const ResetSchema = z
	.object({ password: newPasswordField, confirm: z.string({ error: 'Saisissez à nouveau le mot de passe.' }) })
	.superRefine(passwordsMatch)

const SetupSchema = z
	.object({
		name: nameField,
		email: emailField,
		password: newPasswordField,
		confirm: z.string({ error: 'Saisissez à nouveau le mot de passe.' }),
	})
	.superRefine(passwordsMatch)

function readLink(request: Request): { mode: Mode | null; token: string | null } {
	const params = new URL(request.url).searchParams
	const mode = params.get('mode')
	const token = params.get('token')
	return {
		mode: (MODES as readonly string[]).includes(mode ?? '') ? (mode as Mode) : null,
		token: token && TOKEN_PATTERN.test(token) ? token : null,
	}
}

type State = 'confirm' | 'form' | 'invalid' | 'done'

export function meta({ loaderData }: Route.MetaArgs) {
	return [{ title: loaderData?.title }, { name: 'robots', content: 'noindex' }, { name: 'referrer', content: 'no-referrer' }]
}

/** The Retry-After of a refused attempt, passed on to the browser. */
export function headers(args: Route.HeadersArgs) {
	return retryAfterHeaders(args)
}

export async function loader({ request }: Route.LoaderArgs) {
	const { mode, token } = readLink(request)
	if (!mode) throw data(null, { status: 404 })
	const t = getT()
	const user = await getSessionUser(request)
	const base = {
		mode,
		title: pageTitle(t(`auth.claim.${mode}.metaTitle`)),
		signedIn: Boolean(user),
		userName: user?.name ?? null,
		needsPassword: false,
	}
	// A reserved code (app/features/codes): its own page, whatever the token.
	if (mode === 'reward') return { ...base, constraint: null, ...(await rewardClaimLoader(request, token)) }
	if (!token) return { ...base, state: 'invalid' as State, constraint: null }
	const db = await getDb()
	switch (mode) {
		case 'verifyEmail': {
			const link = await readVerifyLink(token)
			if (!link) return { ...base, state: 'invalid' as State, constraint: null }
			return link.hasPassword
				? { ...base, state: 'confirm' as State, needsPassword: true, constraint: getZodConstraint(ConfirmSchema) }
				: { ...base, state: 'confirm' as State, constraint: null }
		}
		case 'resetPassword':
			return (await isResetTokenLive(db, token))
				? { ...base, state: 'form' as State, constraint: getZodConstraint(ResetSchema) }
				: { ...base, state: 'invalid' as State, constraint: null }
		case 'setup':
			return (await isSetupTokenValid(db, token))
				? { ...base, state: 'form' as State, constraint: getZodConstraint(SetupSchema) }
				: { ...base, state: 'invalid' as State, constraint: null }
	}
}

export async function action({ request }: Route.ActionArgs) {
	const { mode, token } = readLink(request)
	if (!mode) throw data(null, { status: 404 })
	const limited = await limit([['claimByAddress', clientAddressOf(request)]])
	if (limited)
		return data({ state: 'invalid' as State, result: null, message: limited.message }, { status: 429, headers: failureHeaders(limited) })
	if (!token) return data({ state: 'invalid' as State, result: null, message: null }, { status: 400 })
	if (mode === 'reward')
		return (await rewardClaimAction(request, token)) ?? data({ state: 'invalid' as State, result: null, message: null }, { status: 400 })
	const formData = await request.formData()

	if (mode === 'verifyEmail') {
		// A validation round trip of the form (Conform's `validate` intent) checks and never acts.
		const submission = parseWithZod(formData, { schema: ConfirmSchema.partial() })
		if (submission.status !== 'success') {
			return data({ state: 'confirm' as State, result: submission.reply({ hideFields: ['password'] }), message: null }, { status: 400 })
		}
		const outcome = await confirmAddress(request, token, submission.value.password ?? null)
		if (!outcome) return data({ state: 'invalid' as State, result: null, message: null }, { status: 400 })
		if (!outcome.ok) {
			return data(
				{
					state: 'confirm' as State,
					result: submission.reply({ formErrors: [outcome.message], hideFields: ['password'] }),
					message: null,
				},
				{ status: outcome.status, headers: failureHeaders(outcome) },
			)
		}
		const signedIn = outcome.headers.getSetCookie().length > 0
		return data({ state: 'done' as State, result: null, message: null, signedIn }, { headers: outcome.headers })
	}

	if (mode === 'resetPassword') {
		const submission = parseWithZod(formData, {
			schema: ResetSchema.superRefine((value, ctx) => {
				const weakness = passwordWeakness(value.password)
				if (weakness) ctx.addIssue({ code: 'custom', path: ['password'], message: weakness })
			}),
		})
		if (submission.status !== 'success') {
			return data(
				{ state: 'form' as State, result: submission.reply({ hideFields: ['password', 'confirm'] }), message: null },
				{ status: 400 },
			)
		}
		const outcome = await resetPassword(request, token, submission.value.password)
		if (!outcome.ok) return data({ state: 'invalid' as State, result: null, message: null }, { status: 400 })
		return redirectWithFlash('/auth/signin', { type: 'success', key: 'auth.flash.passwordReset' })
	}

	// setup: the first administrator
	const db = await getDb()
	const current = await getSessionUser(request)
	if (current) {
		if (!(await completeSetup(db, token, current.id)))
			return data({ state: 'invalid' as State, result: null, message: null }, { status: 400 })
		return redirectWithFlash('/dashboard/admin', { type: 'success', key: 'auth.flash.adminReady' })
	}
	if (!(await isSetupTokenValid(db, token))) return data({ state: 'invalid' as State, result: null, message: null }, { status: 400 })
	const submission = parseWithZod(formData, {
		schema: SetupSchema.superRefine((value, ctx) => {
			const weakness = passwordWeakness(value.password, { email: value.email, name: value.name })
			if (weakness) ctx.addIssue({ code: 'custom', path: ['password'], message: weakness })
		}),
	})
	if (submission.status !== 'success') {
		return data(
			{ state: 'form' as State, result: submission.reply({ hideFields: ['password', 'confirm'] }), message: null },
			{ status: 400 },
		)
	}
	const { name, email, password } = submission.value
	const outcome = await signUpFirstAdmin(request, { name, email, password })
	if (outcome.ok !== true) {
		const message = outcome.ok === 'exists' ? getT()('auth.claim.setup.existing') : outcome.message
		return data(
			{ state: 'form' as State, result: submission.reply({ formErrors: [message], hideFields: ['password', 'confirm'] }), message: null },
			{ status: 400 },
		)
	}
	const created = await getSessionUser(new Request(request.url, { headers: { cookie: cookieHeader(outcome.headers) } }))
	if (!created || !(await completeSetup(db, token, created.id))) {
		return data({ state: 'invalid' as State, result: null, message: null }, { status: 400 })
	}
	return redirectWithFlash('/dashboard/admin', { type: 'success', key: 'auth.flash.adminReady' }, { headers: outcome.headers })
}

/** The Cookie header a browser would send back after these Set-Cookie headers. */
function cookieHeader(headers: Headers): string {
	return headers
		.getSetCookie()
		.map((c) => c.split(';')[0])
		.join('; ')
}

export default function Claim({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation()
	const state = actionData?.state ?? loaderData.state
	const mode = loaderData.mode
	return (
		<>
			<h1 className="font-display text-headline tracking-display uppercase">{t(`auth.claim.${mode}.title`)}</h1>
			{actionData?.message ? (
				<p role="alert" className="mt-4 rounded-lg border border-danger/60 bg-danger/10 px-4 py-3 text-sm font-medium">
					{actionData.message}
				</p>
			) : null}
			{mode === 'reward' && 'reward' in loaderData ? (
				<RewardClaim state={state} reward={loaderData.reward} here={loaderData.here} signedIn={loaderData.signedIn} />
			) : null}
			{state === 'invalid' && mode !== 'reward' ? <InvalidLink mode={mode} signedIn={loaderData.signedIn} /> : null}
			{state === 'done' ? (
				<VerifiedEmail signedIn={actionData && 'signedIn' in actionData ? Boolean(actionData.signedIn) : loaderData.signedIn} />
			) : null}
			{state === 'confirm' ? (
				<ConfirmEmail needsPassword={loaderData.needsPassword} constraint={loaderData.constraint} result={actionData?.result} />
			) : null}
			{state === 'form' && mode === 'resetPassword' ? <ResetForm constraint={loaderData.constraint} result={actionData?.result} /> : null}
			{state === 'form' && mode === 'setup' ? (
				loaderData.signedIn ? (
					<PromoteSelf name={loaderData.userName ?? ''} />
				) : (
					<SetupForm constraint={loaderData.constraint} result={actionData?.result} />
				)
			) : null}
		</>
	)
}

function InvalidLink(props: { mode: Mode; signedIn: boolean }) {
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

function ConfirmEmail(props: { needsPassword: boolean; constraint: Constraint; result: Result }) {
	const { t } = useTranslation()
	const navigation = useNavigation()
	const [form, fields] = useForm<z.input<typeof ConfirmSchema>>({
		lastResult: props.result,
		constraint: props.constraint ?? undefined,
		shouldRevalidate: 'onInput',
	})
	return (
		<Form method="post" className="mt-4 flex flex-col gap-6" {...getFormProps(form)}>
			<p className="text-muted">{t(props.needsPassword ? 'auth.claim.verifyEmail.introPassword' : 'auth.claim.verifyEmail.intro')}</p>
			<FormError id={form.errorId} errors={form.errors} />
			{props.needsPassword ? (
				<Field label={t('auth.fields.password')} errors={fields.password.errors}>
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

function VerifiedEmail(props: { signedIn: boolean }) {
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

type Constraint = Route.ComponentProps['loaderData']['constraint']
type PasswordField = ReturnType<typeof useForm<{ password: string; confirm: string }>>[1]['password']

/** A new password, typed twice: the reset and the set-up forms share it. */
function NewPasswordFields(props: { password: PasswordField; confirm: PasswordField }) {
	const { t } = useTranslation()
	return (
		<>
			<Field
				label={t('auth.fields.newPassword')}
				hint={t('auth.signup.passwordHint', { min: PASSWORD_MIN })}
				errors={props.password.errors}
			>
				{(control) => <Input {...getInputProps(props.password, { type: 'password' })} {...control} autoComplete="new-password" />}
			</Field>
			<Field label={t('auth.fields.confirmPassword')} errors={props.confirm.errors}>
				{(control) => <Input {...getInputProps(props.confirm, { type: 'password' })} {...control} autoComplete="new-password" />}
			</Field>
		</>
	)
}
type Result = SubmissionResult<string[]> | null | undefined

function ResetForm(props: { constraint: Constraint; result: Result }) {
	const { t } = useTranslation()
	const navigation = useNavigation()
	const [form, fields] = useForm<z.input<typeof ResetSchema>>({
		lastResult: props.result,
		constraint: props.constraint ?? undefined,
		shouldRevalidate: 'onInput',
	})
	return (
		<Form method="post" className="mt-4 flex flex-col gap-5" {...getFormProps(form)}>
			<p className="text-muted">{t('auth.claim.resetPassword.intro')}</p>
			<FormError id={form.errorId} errors={form.errors} />
			<NewPasswordFields password={fields.password} confirm={fields.confirm} />
			<Button type="submit" size="lg" disabled={navigation.state === 'submitting'}>
				{t('auth.claim.resetPassword.submit')}
			</Button>
		</Form>
	)
}

function PromoteSelf(props: { name: string }) {
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

function SetupForm(props: { constraint: Constraint; result: Result }) {
	const { t } = useTranslation()
	const navigation = useNavigation()
	const [form, fields] = useForm<z.input<typeof SetupSchema>>({
		lastResult: props.result,
		constraint: props.constraint ?? undefined,
		shouldRevalidate: 'onInput',
	})
	return (
		<Form method="post" className="mt-4 flex flex-col gap-5" {...getFormProps(form)}>
			<p className="text-muted">{t('auth.claim.setup.intro')}</p>
			<FormError id={form.errorId} errors={form.errors} />
			<Field label={t('auth.fields.name')} errors={fields.name.errors}>
				{(control) => <Input {...getInputProps(fields.name, { type: 'text' })} {...control} autoComplete="name" />}
			</Field>
			<Field label={t('auth.fields.email')} errors={fields.email.errors}>
				{(control) => <Input {...getInputProps(fields.email, { type: 'email' })} {...control} autoComplete="email" />}
			</Field>
			<NewPasswordFields password={fields.password} confirm={fields.confirm} />
			<Button type="submit" size="lg" disabled={navigation.state === 'submitting'}>
				{t('auth.claim.setup.submit')}
			</Button>
		</Form>
	)
}
