import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Download, Laptop, Link2, Smartphone, Trash2 } from 'lucide-react'
import { useEffect, useState, type ReactNode } from 'react'
import { useTranslation } from '#app/i18n/react.tsx'
import { data, Form, useNavigation } from 'react-router'
import { z } from 'zod'
import { NewsletterSetting } from '#app/features/newsletter/member-setting.tsx'
import { memberNewsletterStatus } from '#app/features/newsletter/subscribers.server.tsx'
import type { Route } from './+types/settings'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { Dialog } from '#app/components/ui/dialog.tsx'
import { Field, Input } from '#app/components/ui/field.tsx'
import { FormError } from '#app/components/ui/form-error.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { deleteAccount } from '#app/features/accounts/account-data.server.ts'
import { failureHeaders, limit, retryAfterHeaders } from '#app/features/accounts/auth-actions.server.ts'
import { cityField, currentPasswordField, emailField, nameField, newPasswordField } from '#app/features/accounts/fields.ts'
import { PASSWORD_MAX, PASSWORD_MIN } from '#app/features/accounts/rules.ts'
import { passwordWeakness } from '#app/features/accounts/password-policy.server.ts'
import { getProfile, updateProfile } from '#app/features/accounts/profile.server.ts'
import { requireUser } from '#app/features/accounts/session.server.ts'
import {
	changePassword,
	currentSessionId,
	hasPassword,
	isCurrentPassword,
	listActiveSessions,
	listSignInMethods,
	requestEmailChange,
	setFirstPassword,
	signOutOtherDevices,
	unlinkMethod,
} from '#app/features/accounts/settings.server.ts'
import { formatDate, formatTime } from '#app/features/site/format.ts'
import { AvatarSettings } from '#app/features/media/avatar-settings.tsx'
import { memberAvatar } from '#app/features/media/media.server.ts'
import { configuredProviders } from '#app/platform/auth.server.ts'
import { redirectWithFlash } from '#app/platform/flash.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { getPlatform } from '#app/platform/platform.server.ts'
import { pageTitle } from '#app/features/site/band.server.ts'

/** The word a member types to confirm the deletion of their account. */
const DELETE_WORD = 'SUPPRIMER'

const confirmField = z.string({ error: 'Saisissez à nouveau le mot de passe.' })
const passwordsMatch = (value: { newPassword: string; confirm: string }, ctx: z.RefinementCtx) => {
	if (value.newPassword !== value.confirm) {
		ctx.addIssue({ code: 'custom', path: ['confirm'], message: 'Les deux mots de passe ne sont pas identiques.' })
	}
}

const ProfileSchema = z.object({
	name: nameField,
	city: cityField.optional(),
})
const EmailSchema = z.object({ newEmail: emailField, currentPassword: currentPasswordField })
const EmailWithoutPasswordSchema = z.object({ newEmail: emailField })
const ChangePasswordSchema = z
	.object({ currentPassword: currentPasswordField, newPassword: newPasswordField, confirm: confirmField })
	.superRefine(passwordsMatch)
const SetPasswordSchema = z.object({ newPassword: newPasswordField, confirm: confirmField }).superRefine(passwordsMatch)
const UnlinkSchema = z.object({ methodId: z.string().min(1).max(255) })
const deleteWord = z
	.string({ error: `Saisissez ${DELETE_WORD} pour confirmer.` })
	.trim()
	.refine((value) => value === DELETE_WORD, `Saisissez ${DELETE_WORD}, en majuscules, pour confirmer.`)
const DeleteSchema = z.object({ confirmation: deleteWord, password: currentPasswordField })
const DeleteWithoutPasswordSchema = z.object({ confirmation: deleteWord })

const INTENTS = ['profile', 'email', 'change-password', 'set-password', 'unlink', 'revoke-others', 'delete-account'] as const
type Intent = (typeof INTENTS)[number]

export function meta({ loaderData }: Route.MetaArgs) {
	return [{ title: loaderData?.title }, { name: 'robots', content: 'noindex' }]
}

/** What came back from a provider when a link was attempted (social.ts sends ?linked=1 or ?error=). */
function linkNotice(params: URLSearchParams): { type: 'success' | 'error'; message: string } | null {
	const t = getT()
	if (params.get('linked') === '1') return { type: 'success', message: t('settings.methods.linked') }
	const code = params.get('error')
	if (!code) return null
	if (['access_denied', 'consent_required', 'login_required', 'interaction_required'].includes(code)) {
		return { type: 'error', message: t('settings.methods.errors.denied') }
	}
	if (
		[
			'email_does_not_match',
			"email_doesn't_match",
			'account_already_linked_to_different_user',
			'unable_to_link_account',
			'account_not_linked',
			'email_not_verified',
		].includes(code)
	) {
		return { type: 'error', message: t('settings.methods.errors.notLinkable') }
	}
	return { type: 'error', message: t('settings.methods.errors.unavailable') }
}

/** An action's 429 keeps its Retry-After on the way to the browser. */
export function headers(args: Route.HeadersArgs) {
	return retryAfterHeaders(args)
}

export async function loader({ request }: Route.LoaderArgs) {
	const user = await requireUser(request)
	const { database, env } = await getPlatform()
	const db = database.db
	const params = new URL(request.url).searchParams
	const [profile, withPassword, methods, sessionId, avatar] = await Promise.all([
		getProfile(db, user.id),
		hasPassword(db, user.id),
		listSignInMethods(request),
		currentSessionId(request),
		memberAvatar(db, user.id),
	])
	const linked = new Set(methods.map((m) => m.providerId))
	return {
		title: pageTitle(getT()('settings.metaTitle')),
		// A new key on every load: after a successful change (a redirect here), the forms start empty again.
		formKey: crypto.randomUUID(),
		profile: {
			name: profile?.name ?? user.name,
			city: profile?.city ?? '',
			email: profile?.email ?? user.email,
			emailVerified: profile?.emailVerified ?? user.emailVerified,
		},
		avatar,
		hasPassword: withPassword,
		methods,
		linkable: configuredProviders(env).filter((p) => !linked.has(p.id)),
		sessions: await listActiveSessions(db, user.id, sessionId),
		newsletter: await memberNewsletterStatus(db, user.email),
		emailSent: params.get('email') === 'sent',
		linkNotice: linkNotice(params),
		constraint: {
			profile: getZodConstraint(ProfileSchema),
			email: getZodConstraint(withPassword ? EmailSchema : EmailWithoutPasswordSchema),
			password: getZodConstraint(withPassword ? ChangePasswordSchema : SetPasswordSchema),
			deletion: getZodConstraint(withPassword ? DeleteSchema : DeleteWithoutPasswordSchema),
		},
	}
}

interface Replyable {
	reply(options?: { formErrors?: string[]; fieldErrors?: Record<string, string[]>; hideFields?: string[] }): SubmissionResult<string[]>
}

/** The answer to a refused form: its errors, next to the field concerned, and what was typed (passwords aside). */
function refuse(
	intent: Intent,
	submission: Replyable,
	failure: { status: number; message: string; field?: string; retryAfterSeconds?: number },
	hideFields: string[] = [],
) {
	const result = failure.field
		? submission.reply({ fieldErrors: { [failure.field]: [failure.message] }, hideFields })
		: submission.reply({ formErrors: [failure.message], hideFields })
	const headers = failure.retryAfterSeconds ? failureHeaders({ ok: false, ...failure }) : undefined
	return data({ intent, result }, { status: failure.status, headers })
}

const SETTINGS = '/dashboard/settings'

export async function action({ request }: Route.ActionArgs) {
	const user = await requireUser(request)
	const formData = await request.formData()
	const intent = String(formData.get('intent') ?? '') as Intent
	if (!INTENTS.includes(intent)) throw data(null, { status: 400 })
	const { database } = await getPlatform()
	const db = database.db
	const withPassword = await hasPassword(db, user.id)
	const limited = await limit([['settingsByAccount', user.id]])

	switch (intent) {
		case 'profile': {
			const submission = parseWithZod(formData, { schema: ProfileSchema })
			if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
			if (limited) return refuse(intent, submission, limited)
			await updateProfile(db, user.id, { ok: true, values: { name: submission.value.name, city: submission.value.city ?? '' }, clear: [] })
			return redirectWithFlash(SETTINGS, { type: 'success', key: 'settings.flash.profileSaved' })
		}

		case 'email': {
			const hide = ['currentPassword']
			const submission = parseWithZod(formData, { schema: withPassword ? EmailSchema : EmailWithoutPasswordSchema })
			if (submission.status !== 'success') return data({ intent, result: submission.reply({ hideFields: hide }) }, { status: 400 })
			if (limited) return refuse(intent, submission, limited, hide)
			if (withPassword) {
				const password = (submission.value as z.infer<typeof EmailSchema>).currentPassword
				const checked = await isCurrentPassword(request, password)
				if (checked === false)
					return refuse(
						intent,
						submission,
						{ status: 400, message: getT()('settings.errors.wrongPassword'), field: 'currentPassword' },
						hide,
					)
				if (checked !== true) return refuse(intent, submission, checked, hide)
			}
			const outcome = await requestEmailChange(request, user, submission.value.newEmail)
			if (!outcome.ok) return refuse(intent, submission, outcome, hide)
			return redirectWithFlash(`${SETTINGS}?email=sent`, {
				type: 'success',
				key: 'settings.flash.emailLinkSent',
				values: { email: submission.value.newEmail },
			})
		}

		case 'change-password':
		case 'set-password': {
			const hide = ['currentPassword', 'newPassword', 'confirm']
			const schema = (withPassword ? ChangePasswordSchema : SetPasswordSchema).superRefine((value, ctx) => {
				const weakness = passwordWeakness(value.newPassword, { email: user.email, name: user.name })
				if (weakness) ctx.addIssue({ code: 'custom', path: ['newPassword'], message: weakness })
			})
			const submission = parseWithZod(formData, { schema })
			if (submission.status !== 'success') return data({ intent, result: submission.reply({ hideFields: hide }) }, { status: 400 })
			if (limited) return refuse(intent, submission, limited, hide)
			if (intent === 'change-password' && !withPassword) {
				return refuse(intent, submission, { status: 400, message: getT()('settings.errors.noPassword') }, hide)
			}
			if (intent === 'set-password' && withPassword) {
				return refuse(intent, submission, { status: 400, message: getT()('settings.errors.passwordAlreadySet') }, hide)
			}
			const { newPassword } = submission.value
			const outcome = withPassword
				? await changePassword(request, user, (submission.value as z.infer<typeof ChangePasswordSchema>).currentPassword, newPassword)
				: await setFirstPassword(request, user, newPassword)
			if (!outcome.ok) return refuse(intent, submission, outcome, hide)
			return withPassword
				? redirectWithFlash(SETTINGS, { type: 'success', key: 'settings.flash.passwordChanged' }, { headers: outcome.headers })
				: redirectWithFlash(SETTINGS, { type: 'success', key: 'settings.flash.passwordSet' }, { headers: outcome.headers })
		}

		case 'unlink': {
			const submission = parseWithZod(formData, { schema: UnlinkSchema })
			if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
			if (limited) return refuse(intent, submission, limited)
			const outcome = await unlinkMethod(request, submission.value.methodId)
			if (!outcome.ok) return refuse(intent, submission, { ...outcome, field: undefined })
			return redirectWithFlash(SETTINGS, { type: 'success', key: 'settings.flash.methodUnlinked' }, { headers: outcome.headers })
		}

		case 'revoke-others': {
			const submission = parseWithZod(formData, { schema: z.object({}) })
			if (limited) return refuse(intent, submission, limited)
			const outcome = await signOutOtherDevices(request)
			if (!outcome.ok) return refuse(intent, submission, outcome)
			return redirectWithFlash(SETTINGS, { type: 'success', key: 'settings.flash.othersSignedOut' }, { headers: outcome.headers })
		}

		case 'delete-account': {
			const hide = ['password']
			const submission = parseWithZod(formData, { schema: withPassword ? DeleteSchema : DeleteWithoutPasswordSchema })
			if (submission.status !== 'success') return data({ intent, result: submission.reply({ hideFields: hide }) }, { status: 400 })
			if (limited) return refuse(intent, submission, limited, hide)
			const password = withPassword ? (submission.value as z.infer<typeof DeleteSchema>).password : null
			if (password !== null) {
				const checked = await isCurrentPassword(request, password)
				if (checked === false)
					return refuse(intent, submission, { status: 400, message: getT()('settings.errors.wrongPassword'), field: 'password' }, hide)
				if (checked !== true) return refuse(intent, submission, checked, hide)
			}
			const outcome = await deleteAccount(request, user, password)
			if (!outcome.ok) return refuse(intent, submission, outcome, hide)
			return redirectWithFlash('/', { type: 'success', key: 'settings.flash.accountDeleted' }, { headers: outcome.headers })
		}
	}
}

type LoaderData = Route.ComponentProps['loaderData']
type ActionData = Route.ComponentProps['actionData']

/** The last answer of the server to this form, if the last form sent was this one. */
function resultFor(actionData: ActionData, intent: Intent) {
	return actionData && actionData.intent === intent ? actionData.result : undefined
}

export default function Settings({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation()
	const key = loaderData.formKey
	return (
		<>
			<PageHeader title={t('settings.title')} description={t('settings.intro')} />
			<div className="mt-8 flex flex-col gap-5">
				<ProfileSection key={`profile-${key}`} loaderData={loaderData} actionData={actionData} />
				<Section id="photo" title={t('settings.avatar.title')} description={t('settings.avatar.description')}>
					<AvatarSettings avatar={loaderData.avatar} />
				</Section>
				<EmailSection key={`email-${key}`} loaderData={loaderData} actionData={actionData} />
				<PasswordSection key={`password-${key}`} loaderData={loaderData} actionData={actionData} />
				<MethodsSection loaderData={loaderData} actionData={actionData} />
				<SessionsSection loaderData={loaderData} actionData={actionData} />
				<NewsletterSetting status={loaderData.newsletter} />
				<DataSection />
				<DeleteSection key={`delete-${key}`} loaderData={loaderData} actionData={actionData} />
			</div>
		</>
	)
}

/** One part of the page: what it is about on the left (above on a phone), its controls on the right. */
function Section(props: { id: string; title: ReactNode; description: ReactNode; children: ReactNode; tone?: 'danger' }) {
	return (
		<Card as="section" id={props.id} aria-labelledby={`${props.id}-titre`} className="scroll-mt-6">
			<div className="grid gap-x-10 gap-y-5 lg:grid-cols-[minmax(0,17rem)_minmax(0,1fr)]">
				<div>
					<CardTitle id={`${props.id}-titre`}>
						{props.tone === 'danger' ? <span className="text-danger">{props.title}</span> : props.title}
					</CardTitle>
					<p className="mt-1.5 text-sm text-muted">{props.description}</p>
				</div>
				<div className="min-w-0">{props.children}</div>
			</div>
		</Card>
	)
}

function Notice(props: { type: 'success' | 'error' | 'info'; children: ReactNode }) {
	return (
		<div
			role={props.type === 'error' ? 'alert' : 'status'}
			className={
				props.type === 'error'
					? 'rounded-control border border-danger/50 bg-danger/10 px-4 py-3 text-sm font-medium'
					: props.type === 'success'
						? 'rounded-control border border-success/40 bg-success/10 px-4 py-3 text-sm'
						: 'rounded-control border border-info/40 bg-info/10 px-4 py-3 text-sm'
			}
		>
			{props.children}
		</div>
	)
}

function IntentInput(props: { intent: Intent }) {
	return <input type="hidden" name="intent" value={props.intent} />
}

/** Whether this form is the one being sent right now. */
function useSending(intent: Intent) {
	const navigation = useNavigation()
	return navigation.state === 'submitting' && navigation.formData?.get('intent') === intent
}

type SectionProps = { loaderData: LoaderData; actionData: ActionData }

function ProfileSection({ loaderData, actionData }: SectionProps) {
	const { t } = useTranslation()
	const sending = useSending('profile')
	const [form, fields] = useForm<z.input<typeof ProfileSchema>>({
		id: 'form-profil',
		lastResult: resultFor(actionData, 'profile'),
		constraint: loaderData.constraint.profile,
		defaultValue: { name: loaderData.profile.name, city: loaderData.profile.city },
		shouldRevalidate: 'onInput',
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

function EmailSection({ loaderData, actionData }: SectionProps) {
	const { t } = useTranslation()
	const sending = useSending('email')
	const [form, fields] = useForm<{ newEmail: string; currentPassword?: string }>({
		id: 'form-adresse',
		lastResult: resultFor(actionData, 'email'),
		constraint: loaderData.constraint.email,
		shouldRevalidate: 'onInput',
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

function PasswordSection({ loaderData, actionData }: SectionProps) {
	const { t } = useTranslation()
	const intent: Intent = loaderData.hasPassword ? 'change-password' : 'set-password'
	const sending = useSending(intent)
	const [form, fields] = useForm<{ currentPassword?: string; newPassword: string; confirm: string }>({
		id: 'form-mot-de-passe',
		lastResult: resultFor(actionData, intent),
		constraint: loaderData.constraint.password,
		shouldRevalidate: 'onInput',
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

function MethodsSection({ loaderData, actionData }: SectionProps) {
	const { t } = useTranslation()
	const navigation = useNavigation()
	const result = resultFor(actionData, 'unlink')
	const canUnlink = loaderData.methods.length > 1
	const pending = navigation.state === 'submitting' ? navigation.formData : undefined
	return (
		<Section id="connexion" title={t('settings.methods.title')} description={t('settings.methods.description')}>
			<div className="flex flex-col gap-4">
				{loaderData.linkNotice ? <Notice type={loaderData.linkNotice.type}>{loaderData.linkNotice.message}</Notice> : null}
				{result?.error?.[''] ? <FormError id="connexion-erreur" errors={result.error['']} /> : null}
				<ul className="divide-y divide-line rounded-control border border-line">
					{loaderData.methods.map((method) => {
						const unlinking = pending?.get('intent') === 'unlink' && pending.get('methodId') === method.id
						return (
							<li key={method.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 px-4 py-3">
								<div className="min-w-0">
									<p className="font-medium">{method.name}</p>
									<p className="text-sm text-muted">{t('settings.methods.since', { date: formatDate(method.linkedAt) })}</p>
								</div>
								{canUnlink ? (
									<Form method="post" preventScrollReset>
										<IntentInput intent="unlink" />
										<input type="hidden" name="methodId" value={method.id} />
										<Button
											type="submit"
											variant="secondary"
											size="sm"
											disabled={unlinking}
											aria-label={t('settings.methods.unlinkLabel', { name: method.name })}
										>
											{t('settings.methods.unlink')}
										</Button>
									</Form>
								) : null}
							</li>
						)
					})}
				</ul>
				{canUnlink ? null : <p className="text-sm text-muted">{t('settings.methods.lastOne')}</p>}
				{loaderData.linkable.length > 0 ? (
					<ul className="flex flex-wrap gap-2" aria-label={t('settings.methods.linkableLabel')}>
						{loaderData.linkable.map((provider) => (
							<li key={provider.id}>
								<Form method="post" action="/auth/social">
									<input type="hidden" name="provider" value={provider.id} />
									<Button type="submit" variant="secondary" size="sm">
										<Link2 aria-hidden="true" />
										{t('settings.methods.link', { name: provider.name })}
									</Button>
								</Form>
							</li>
						))}
					</ul>
				) : null}
			</div>
		</Section>
	)
}

function SessionsSection({ loaderData, actionData }: SectionProps) {
	const { t } = useTranslation()
	const sending = useSending('revoke-others')
	const result = resultFor(actionData, 'revoke-others')
	const others = loaderData.sessions.filter((s) => !s.current).length
	return (
		<Section id="appareils" title={t('settings.sessions.title')} description={t('settings.sessions.description')}>
			<div className="flex flex-col gap-4">
				{result?.error?.[''] ? <FormError id="appareils-erreur" errors={result.error['']} /> : null}
				<ul className="divide-y divide-line rounded-control border border-line">
					{loaderData.sessions.map((s) => (
						<li key={s.id} className="flex gap-3 px-4 py-3">
							{s.mobile ? (
								<Smartphone aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-muted" />
							) : (
								<Laptop aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-muted" />
							)}
							<div className="min-w-0 flex-1">
								<p className="flex flex-wrap items-center gap-x-2 gap-y-1 font-medium">
									{s.device ?? t('settings.sessions.unknownDevice')}
									{s.current ? <Badge tone="accent">{t('settings.sessions.thisDevice')}</Badge> : null}
								</p>
								<dl className="mt-1 grid gap-x-4 gap-y-0.5 text-sm text-muted sm:grid-cols-[auto_1fr]">
									<dt>{t('settings.sessions.lastActive')}</dt>
									<dd className="text-fg">
										<When value={s.lastActiveAt} />
									</dd>
									<dt>{t('settings.sessions.signedIn')}</dt>
									<dd className="text-fg">
										<When value={s.createdAt} />
									</dd>
									<dt>{t('settings.sessions.address')}</dt>
									<dd className="font-mono text-fg break-all">{s.ipAddress ?? t('settings.sessions.unknownAddress')}</dd>
								</dl>
							</div>
						</li>
					))}
				</ul>
				{others > 0 ? (
					<Form method="post" preventScrollReset>
						<IntentInput intent="revoke-others" />
						<Button type="submit" variant="secondary" disabled={sending}>
							{t('settings.sessions.revokeOthers')}
						</Button>
					</Form>
				) : (
					<p className="text-sm text-muted">{t('settings.sessions.onlyThis')}</p>
				)}
			</div>
		</Section>
	)
}

/** « dimanche 22 novembre 2026 à 15 h 45 », never broken inside the time. */
function When(props: { value: string }) {
	return (
		<time dateTime={props.value}>
			{formatDate(props.value)} à <span className="whitespace-nowrap">{formatTime(props.value)}</span>
		</time>
	)
}

function DataSection() {
	const { t } = useTranslation()
	return (
		<Section id="donnees" title={t('settings.export.title')} description={t('settings.export.description')}>
			<div className="flex max-w-md flex-col items-start gap-3">
				<p className="text-sm">{t('settings.export.body')}</p>
				<a href="/dashboard/settings/export" download className={buttonClasses('secondary')}>
					<Download aria-hidden="true" />
					{t('settings.export.download')}
				</a>
			</div>
		</Section>
	)
}

function DeleteSection({ loaderData, actionData }: SectionProps) {
	const { t } = useTranslation()
	const sending = useSending('delete-account')
	const result = resultFor(actionData, 'delete-account')
	const [open, setOpen] = useState(Boolean(result))
	// A refusal from the server opens the dialog again, with its messages.
	useEffect(() => {
		if (result) setOpen(true)
	}, [result])
	const [form, fields] = useForm<{ confirmation: string; password?: string }>({
		id: 'form-suppression',
		lastResult: result,
		constraint: loaderData.constraint.deletion,
		shouldRevalidate: 'onInput',
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
