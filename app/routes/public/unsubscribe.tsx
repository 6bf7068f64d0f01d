import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, useNavigation } from 'react-router'
import type { z } from 'zod'
import type { Route } from './+types/unsubscribe'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { Field, Input } from '#app/components/ui/field.tsx'
import { FormError } from '#app/components/ui/form-error.tsx'
import {
	limitTokenAction,
	maskEmail,
	subscriberTokenOf,
	newsletterContext,
	requestUnsubscribeLinkAction,
	resubscribeFromPage,
	unsubscribeFromPage,
} from '#app/features/newsletter/public.server.ts'
import { UnsubscribeRequestSchema } from '#app/features/newsletter/forms.ts'
import { findByUnsubscribeToken } from '#app/features/newsletter/subscribers.server.tsx'
import { pageTitle } from '#app/features/site/band.server.ts'
import { privatePageMeta } from '#app/features/site/page-meta.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getT } from '#app/platform/i18n.server.ts'
import { routeStrings } from '#app/i18n/route-strings.ts'

/** The strings this screen needs in the browser (app/i18n/route-strings.ts). */
export const handle = routeStrings('newsletter.unsubscribe', 'newsletter.signup', 'newsletter.validation', 'auth.validation')

/*
 * /unsubscribe: from the link in every newsletter (?token=), a page on GET and the unsubscription on
 * POST, then an offer to come back: at once right after, by a confirmation mail later
 * (features/newsletter/public.server.ts). Without a token (or with a dead one), it asks for the
 * address and mails the link, with the same answer whether the address is on the list or not.
 */
type State = 'ask' | 'confirm' | 'done' | 'resubscribed' | 'confirmSent' | 'linkSent' | 'invalid'

export function meta({ loaderData }: Route.MetaArgs) {
	return privatePageMeta(loaderData?.title, { name: 'referrer', content: 'no-referrer' })
}

/** Each link is one subscriber's: never kept by a cache. */
export function headers() {
	return { 'Cache-Control': 'private, no-store' }
}

export async function loader({ request }: Route.LoaderArgs) {
	const title = pageTitle(getT()('newsletter.unsubscribe.metaTitle'))
	const constraint = getZodConstraint(UnsubscribeRequestSchema)
	const token = subscriberTokenOf(request)
	if (!token) return { title, constraint, state: 'ask' as State, email: null }
	const subscriber = await findByUnsubscribeToken((await newsletterContext()).db, token)
	if (!subscriber) return { title, constraint, state: 'invalid' as State, email: null }
	const state: State = subscriber.status === 'unsubscribed' ? 'done' : 'confirm'
	return { title, constraint, state, email: maskEmail(subscriber.email) }
}

export async function action({ request }: Route.ActionArgs) {
	const formData = await request.formData()
	const token = subscriberTokenOf(request)
	if (!token || formData.get('intent') === 'request') return requestUnsubscribeLinkAction(request, formData)
	const refused = await limitTokenAction(request)
	if (refused) {
		return data(
			{ state: 'confirm' as State, result: null, message: refused.message },
			{ status: 429, headers: { 'Retry-After': String(refused.retryAfter) } },
		)
	}
	if (formData.get('intent') === 'resubscribe') {
		const undo = formData.get('undo')
		const state: State = await resubscribeFromPage(token, typeof undo === 'string' ? undo : null)
		return data({ state, result: null, message: null }, { status: state === 'invalid' ? 400 : 200 })
	}
	const { known, undo } = await unsubscribeFromPage(token)
	return data({ state: (known ? 'done' : 'invalid') as State, result: null, message: null, undo }, { status: known ? 200 : 400 })
}

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation()
	const navigation = useNavigation()
	const state = actionData?.state ?? loaderData.state
	const busy = navigation.state === 'submitting'
	// Only the answer of the POST that has just unsubscribed carries it: « Me réinscrire » then acts at once.
	const undo = actionData && 'undo' in actionData ? actionData.undo : null
	const titles: Record<State, string> = {
		ask: t('newsletter.unsubscribe.ask.title'),
		confirm: t('newsletter.unsubscribe.confirm.title'),
		done: t('newsletter.unsubscribe.done.title'),
		resubscribed: t('newsletter.unsubscribe.resubscribed.title'),
		confirmSent: t('newsletter.unsubscribe.confirmSent.title'),
		linkSent: t('newsletter.unsubscribe.linkSent.title'),
		invalid: t('newsletter.unsubscribe.invalid.title'),
	}
	return (
		<div className="mx-auto w-full max-w-xl px-gutter pt-28 pb-20 sm:pt-32">
			<p className="eyebrow mb-2 text-accent-fg">{t('newsletter.unsubscribe.eyebrow')}</p>
			<h1 className="font-display text-headline tracking-display uppercase">{titles[state]}</h1>
			{state === 'confirm' ? (
				<Form method="post" className="mt-6 flex flex-col gap-6">
					<FormError id="desinscription-erreur" errors={actionData?.message ? [actionData.message] : undefined} />
					<p className="text-lg text-muted">{t('newsletter.unsubscribe.confirm.body', { email: loaderData.email ?? '' })}</p>
					<Button type="submit" name="intent" value="unsubscribe" size="lg" disabled={busy}>
						{t('newsletter.unsubscribe.confirm.submit')}
					</Button>
				</Form>
			) : null}
			{state === 'done' ? (
				<Form method="post" className="mt-6 flex flex-col gap-6">
					{/* The news is the sentence; a form itself may not be a live region. */}
					<p className="text-lg text-muted" role="status">
						{undo ? t('newsletter.unsubscribe.done.body') : t('newsletter.unsubscribe.done.bodyLater')}
					</p>
					{undo ? <input type="hidden" name="undo" value={undo} /> : null}
					<div className="flex flex-wrap gap-3">
						<Button type="submit" name="intent" value="resubscribe" variant="secondary" size="lg" disabled={busy}>
							{t('newsletter.unsubscribe.done.resubscribe')}
						</Button>
						<Link to="/" className={buttonClasses('ghost', 'lg')}>
							{t('newsletter.unsubscribe.toSite')}
						</Link>
					</div>
				</Form>
			) : null}
			{state === 'resubscribed' || state === 'confirmSent' || state === 'linkSent' ? (
				<div className="mt-6" role="status">
					<p className="text-lg text-muted">
						{state === 'resubscribed'
							? t('newsletter.unsubscribe.resubscribed.body')
							: state === 'confirmSent'
								? t('newsletter.unsubscribe.confirmSent.body')
								: t('newsletter.unsubscribe.linkSent.body')}
					</p>
					<Link to="/" className={buttonClasses('primary', 'lg', 'mt-6')}>
						{t('newsletter.unsubscribe.toSite')}
					</Link>
				</div>
			) : null}
			{state === 'ask' || state === 'invalid' ? (
				<AskForLink
					constraint={loaderData.constraint}
					result={actionData?.state === 'ask' ? actionData.result : undefined}
					invalid={state === 'invalid'}
				/>
			) : null}
		</div>
	)
}

function AskForLink(props: { constraint: Route.ComponentProps['loaderData']['constraint']; result: unknown; invalid: boolean }) {
	const { t } = useTranslation()
	const navigation = useNavigation()
	const [form, fields] = useForm<z.input<typeof UnsubscribeRequestSchema>>({
		id: 'desinscription',
		lastResult: props.result as never,
		constraint: props.constraint,
		shouldRevalidate: 'onInput',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: UnsubscribeRequestSchema }),
	})
	return (
		<Form method="post" action="/unsubscribe" className="mt-6 flex flex-col gap-5" {...getFormProps(form)}>
			<p className="text-lg text-muted">
				{props.invalid ? t('newsletter.unsubscribe.invalid.body') : t('newsletter.unsubscribe.ask.body')}
			</p>
			<FormError id={form.errorId} errors={form.errors} />
			<input type="hidden" name="intent" value="request" />
			<Field label={t('newsletter.signup.email')} errors={fields.email.errors}>
				{(control) => <Input {...getInputProps(fields.email, { type: 'email' })} {...control} autoComplete="email" />}
			</Field>
			<Button type="submit" size="lg" disabled={navigation.state === 'submitting'}>
				{t('newsletter.unsubscribe.ask.submit')}
			</Button>
		</Form>
	)
}
