import { KeyRound } from '#app/components/icons.tsx'
import { Form, Link, useNavigation } from 'react-router'
import type { Route } from './+types/redeem'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { Field, Input } from '#app/components/ui/field.tsx'
import { TYPED_MAX_LENGTH } from '#app/features/codes/code-format.ts'
import { redeemAction } from '#app/features/codes/redeem-page.server.ts'
import { UnlockedView } from '#app/features/codes/unlocked-view.tsx'
import { pageTitle } from '#app/features/site/band.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getEnv } from '#app/platform/env.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { routeStrings } from '#app/i18n/route-strings.ts'

/** The strings this screen needs in the browser (app/i18n/route-strings.ts). */
export const handle = routeStrings('codes')

/*
 * /redeem: a code printed on a record, a card or a ticket. Public and light: the page is the same
 * for every visitor (a QR code's `?code=` only fills the field in), and everything personal comes
 * from the POST. Signed in, a good code goes straight to « Mes contenus »; signed out, it is
 * reserved and the visitor signs in or up to keep it (/auth/claim?mode=reward).
 */

export function meta({ loaderData }: Route.MetaArgs) {
	if (!loaderData) return []
	return [
		{ title: loaderData.title },
		{ name: 'description', content: loaderData.description },
		{ tagName: 'link', rel: 'canonical', href: loaderData.canonical },
		// A code in the address must never travel to another site.
		{ name: 'referrer', content: 'no-referrer' },
	]
}

/** The Retry-After of a refused attempt, passed on to the browser. */
export function headers({ actionHeaders, loaderHeaders }: Route.HeadersArgs) {
	const headers = new Headers(loaderHeaders)
	for (const name of ['Retry-After', 'Cache-Control']) {
		const value = actionHeaders.get(name)
		if (value) headers.set(name, value)
	}
	return headers
}

export function loader({ request }: Route.LoaderArgs) {
	const t = getT()
	const prefill = (new URL(request.url).searchParams.get('code') ?? '').slice(0, TYPED_MAX_LENGTH)
	return {
		title: pageTitle(t('codes.redeem.metaTitle')),
		description: t('codes.redeem.metaDescription'),
		canonical: `${getEnv().SITE_URL}/redeem`,
		prefill,
	}
}

export async function action({ request }: Route.ActionArgs) {
	return redeemAction(request)
}

export default function Redeem({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation()
	const navigation = useNavigation()
	const submitting = navigation.state === 'submitting'
	const reserved = actionData?.reserved
	const yours = actionData && 'yours' in actionData ? actionData.yours : null
	return (
		<div className="mx-auto max-w-2xl px-gutter pt-28 pb-20 sm:pt-32">
			<p className="eyebrow text-accent-fg">{t('codes.redeem.eyebrow')}</p>
			<h1 className="mt-2 font-display text-display tracking-display uppercase">{t('codes.redeem.title')}</h1>
			{yours ? (
				<section aria-labelledby="code-reserve" className="mt-8 rounded-card border border-accent/50 bg-surface p-5 sm:p-8">
					<h2 id="code-reserve" className="font-display text-headline tracking-display uppercase">
						{t('codes.redeem.yours.title')}
					</h2>
					<p className="mt-2 text-muted" role="status">
						{t('codes.redeem.yours.body')}
					</p>
					<Form method="post" action={yours.claim} className="mt-6">
						<Button type="submit" size="lg" className="w-full sm:w-auto" disabled={submitting}>
							{t('codes.claim.submit')}
						</Button>
					</Form>
				</section>
			) : reserved ? (
				<section aria-labelledby="code-valide" className="mt-8 rounded-card border border-accent/50 bg-surface p-5 sm:p-8">
					<h2 id="code-valide" className="font-display text-headline tracking-display uppercase">
						{t('codes.redeem.reserved.title')}
					</h2>
					<p className="mt-2 text-muted">{t('codes.redeem.reserved.body')}</p>
					{reserved.unlocked ? (
						<div className="mt-5">
							<UnlockedView unlocked={reserved.unlocked} headingLevel="h3" />
						</div>
					) : null}
					<p className="mt-8 text-lg font-semibold" role="status">
						{t('codes.redeem.reserved.keep')}
					</p>
					<p className="mt-1 text-sm text-muted">{t('codes.redeem.reserved.held', { hours: reserved.hours })}</p>
					<div className="mt-5 flex flex-col gap-3 sm:flex-row">
						<Link
							to={`/auth/signin?${new URLSearchParams({ redirectTo: reserved.claim })}`}
							className={buttonClasses('primary', 'lg', 'sm:flex-1')}
						>
							{t('codes.redeem.reserved.signin')}
						</Link>
						<Link
							to={`/auth/signup?${new URLSearchParams({ redirectTo: reserved.claim })}`}
							className={buttonClasses('secondary', 'lg', 'sm:flex-1')}
						>
							{t('codes.redeem.reserved.signup')}
						</Link>
					</div>
				</section>
			) : (
				<>
					<p className="mt-4 max-w-prose text-lg text-muted">{t('codes.redeem.intro')}</p>
					<Form method="post" className="mt-8 flex flex-col gap-5" noValidate={false}>
						<Field label={t('codes.redeem.label')} hint={t('codes.redeem.hint')} errors={actionData?.error ? [actionData.error] : null}>
							{(control) => (
								<Input
									{...control}
									name="code"
									type="text"
									required
									maxLength={TYPED_MAX_LENGTH}
									defaultValue={actionData?.typed ?? loaderData.prefill}
									autoComplete="off"
									autoCapitalize="characters"
									autoCorrect="off"
									spellCheck={false}
									inputMode="text"
									className="font-mono text-xl tracking-[0.12em] uppercase"
								/>
							)}
						</Field>
						<Button type="submit" size="lg" disabled={submitting}>
							<KeyRound aria-hidden="true" />
							{submitting ? t('codes.redeem.submitting') : t('codes.redeem.submit')}
						</Button>
					</Form>
					{loaderData.prefill ? <p className="mt-4 text-sm text-muted">{t('codes.redeem.where')}</p> : null}
				</>
			)}
		</div>
	)
}
