import { data, Form, Link, useNavigation } from 'react-router'
import type { Route } from './+types/newsletter-town'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { FormError } from '#app/components/ui/form-error.tsx'
import { limitTokenAction, maskEmail, newsletterContext, subscriberTokenOf } from '#app/features/newsletter/public.server.ts'
import { findByUnsubscribeToken } from '#app/features/newsletter/subscribers.server.tsx'
import { setTownByToken } from '#app/features/newsletter/town.server.ts'
import { pageTitle } from '#app/features/site/band.server.ts'
import { privatePageMeta } from '#app/features/site/page-meta.ts'
import { TownField } from '#app/features/towns/town-field.tsx'
import { readTownInput } from '#app/features/towns/town-input.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { routeStrings } from '#app/i18n/route-strings.ts'
import { getT } from '#app/platform/i18n.server.ts'

/** The strings this screen needs in the browser (app/i18n/route-strings.ts). */
export const handle = routeStrings('newsletter.town', 'towns.field')

/*
 * /newsletter/town?token=…: from the link in every newsletter, the subscriber sees the town kept for
 * them and changes or removes it. The token is the one of their unsubscribe link (one per
 * subscriber, unguessable); the town is resolved by the server from its name alone.
 */
export function meta({ loaderData }: Route.MetaArgs) {
	return privatePageMeta(loaderData?.title, { name: 'referrer', content: 'no-referrer' })
}

/** Each link is one subscriber's: never kept by a cache. */
export function headers() {
	return { 'Cache-Control': 'private, no-store' }
}

export async function loader({ request }: Route.LoaderArgs) {
	const title = pageTitle(getT()('newsletter.town.metaTitle'))
	const token = subscriberTokenOf(request)
	const subscriber = token ? await findByUnsubscribeToken((await newsletterContext()).db, token) : undefined
	if (!subscriber) return data({ title, valid: false as const, email: null, town: null }, { status: token ? 404 : 400 })
	return { title, valid: true as const, email: maskEmail(subscriber.email), town: subscriber.townLabel }
}

export async function action({ request }: Route.ActionArgs) {
	const token = subscriberTokenOf(request)
	if (!token) return data({ outcome: 'invalid' as const, problem: null, message: null, typed: '' }, { status: 400 })
	const refused = await limitTokenAction(request)
	if (refused) {
		return data(
			{ outcome: 'error' as const, problem: null, message: refused.message, typed: '' },
			{ status: 429, headers: { 'Retry-After': String(refused.retryAfter) } },
		)
	}
	const formData = await request.formData()
	const { db } = await newsletterContext()
	if (formData.get('intent') === 'remove') {
		const known = await setTownByToken(db, token, null)
		return data(
			{ outcome: known ? ('removed' as const) : ('invalid' as const), problem: null, message: null, typed: '' },
			{ status: known ? 200 : 404 },
		)
	}
	const typed = String(formData.get('town') ?? '').slice(0, 200)
	const town = readTownInput(formData)
	if (town.kind === 'empty') {
		return data(
			{ outcome: 'error' as const, problem: { message: getT()('newsletter.town.empty'), choices: [] }, message: null, typed },
			{ status: 400 },
		)
	}
	if (town.kind === 'invalid') return data({ outcome: 'error' as const, problem: town, message: null, typed }, { status: 400 })
	const known = await setTownByToken(db, token, town.town)
	return data(
		{ outcome: known ? ('saved' as const) : ('invalid' as const), problem: null, message: null, typed: '' },
		{ status: known ? 200 : 404 },
	)
}

export default function NewsletterTown({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation()
	const navigation = useNavigation()
	const busy = navigation.state === 'submitting'
	const valid = loaderData.valid && actionData?.outcome !== 'invalid'
	return (
		<div className="mx-auto w-full max-w-xl px-gutter pt-28 pb-20 sm:pt-32">
			<p className="eyebrow mb-2 text-accent-fg">{t('newsletter.town.eyebrow')}</p>
			<h1 className="font-display text-headline tracking-display uppercase">{t('newsletter.town.title')}</h1>
			{!valid ? (
				<div className="mt-6">
					<p className="text-lg text-muted">{t('newsletter.town.invalid')}</p>
					<Link to="/unsubscribe" className={buttonClasses('secondary', 'lg', 'mt-6')}>
						{t('newsletter.town.askLink')}
					</Link>
				</div>
			) : (
				<>
					<p className="mt-4 text-lg text-muted">{t('newsletter.town.intro', { email: loaderData.email ?? '' })}</p>
					<p className="mt-4" role="status">
						{actionData?.outcome === 'saved'
							? t('newsletter.town.saved', { town: loaderData.town ?? '' })
							: actionData?.outcome === 'removed'
								? t('newsletter.town.removed')
								: loaderData.town
									? t('newsletter.town.current', { town: loaderData.town })
									: t('newsletter.town.none')}
					</p>
					<Form method="post" className="mt-6 flex flex-col gap-5">
						<FormError id="ville-erreur" errors={actionData?.message ? [actionData.message] : undefined} />
						<TownField
							key={actionData?.typed ?? loaderData.town ?? ''}
							defaultValue={actionData?.typed || loaderData.town}
							problem={actionData?.problem}
							optional={false}
							hint={t('newsletter.town.hint')}
						/>
						<div className="flex flex-wrap gap-3">
							<Button type="submit" name="intent" value="save" size="lg" disabled={busy}>
								{t('newsletter.town.save')}
							</Button>
							{loaderData.town ? (
								<Button type="submit" name="intent" value="remove" variant="secondary" size="lg" disabled={busy} formNoValidate>
									{t('newsletter.town.remove')}
								</Button>
							) : null}
						</div>
					</Form>
					<Link to="/" className={buttonClasses('ghost', 'lg', 'mt-6')}>
						{t('newsletter.town.toSite')}
					</Link>
				</>
			)}
		</div>
	)
}
