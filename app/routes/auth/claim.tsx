import { getZodConstraint } from '@conform-to/zod/v4'
import type { Route } from './+types/claim'
import { retryAfterHeaders } from '#app/features/accounts/auth-actions.server.ts'
import { claimAction, readLink } from '#app/features/accounts/claim.server.ts'
import { ClaimAbout } from '#app/features/accounts/claim/claim-about.tsx'
import { ConfirmEmail, InvalidLink, PromoteSelf, ResetForm, SetupForm, VerifiedEmail } from '#app/features/accounts/claim/claim-forms.tsx'
import { ConfirmSchema, ResetSchema, SetupSchema, type ClaimState } from '#app/features/accounts/claim/forms.ts'
import { readVerifyLink } from '#app/features/accounts/verification.server.ts'
import { getSessionUser } from '#app/features/accounts/session.server.ts'
import { rewardClaimAction, rewardClaimLoader } from '#app/features/codes/reward-claim.server.ts'
import { RewardClaim } from '#app/features/codes/reward-claim.tsx'
import { NewsletterClaim } from '#app/features/newsletter/claim.tsx'
import { confirmSubscription, isConfirmTokenLive } from '#app/features/newsletter/subscribers.server.tsx'
import { isSetupTokenValid } from '#app/features/accounts/setup.server.ts'
import { isResetTokenLive } from '#app/features/accounts/tokens.server.ts'
import { pageTitle } from '#app/features/site/band.server.ts'
import { privatePageMeta } from '#app/features/site/page-meta.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getT } from '#app/platform/i18n.server.ts'
import { getDb } from '#app/platform/platform.server.ts'
import { routeStrings } from '#app/i18n/route-strings.ts'

/** The strings this screen needs in the browser (app/i18n/route-strings.ts). */
export const handle = routeStrings('auth.claim', 'auth.signup', 'codes', 'newsletter.claim')

/*
 * The one landing for every link the site e-mails, by `mode`: a GET only shows a page (mail
 * scanners that follow links change nothing); only the POST of that page acts
 * (features/accounts/claim.server.ts).
 */

export function meta({ loaderData }: Route.MetaArgs) {
	return privatePageMeta(loaderData?.title, { name: 'referrer', content: 'no-referrer' })
}

/** The Retry-After of a refused attempt, passed on to the browser. */
export function headers(args: Route.HeadersArgs) {
	return retryAfterHeaders(args)
}

export async function loader({ request }: Route.LoaderArgs) {
	const { mode, token } = readLink(request)
	const t = getT()
	const user = await getSessionUser(request)
	// No mode (typed by hand, a link cut short): what these links are, and the ways on.
	if (!mode) return { mode: null, title: pageTitle(t('auth.claim.about.metaTitle')), signedIn: Boolean(user) }
	const base = {
		mode,
		title: pageTitle(t(`auth.claim.${mode}.metaTitle`)),
		signedIn: Boolean(user),
		userName: user?.name ?? null,
		needsPassword: false,
	}
	// A reserved code (app/features/codes): its own page, whatever the token.
	if (mode === 'reward') return { ...base, constraint: null, ...(await rewardClaimLoader(request, token)) }
	if (!token) return { ...base, state: 'invalid' as ClaimState, constraint: null }
	const db = await getDb()
	switch (mode) {
		case 'verifyEmail': {
			// An account with a password: the verifier proves it is theirs by typing it (docs/decisions).
			const link = await readVerifyLink(token)
			if (!link) return { ...base, state: 'invalid' as ClaimState, constraint: null }
			return link.hasPassword
				? { ...base, state: 'confirm' as ClaimState, needsPassword: true, constraint: getZodConstraint(ConfirmSchema) }
				: { ...base, state: 'confirm' as ClaimState, constraint: null }
		}
		case 'resetPassword':
			return (await isResetTokenLive(db, token))
				? { ...base, state: 'form' as ClaimState, constraint: getZodConstraint(ResetSchema) }
				: { ...base, state: 'invalid' as ClaimState, constraint: null }
		case 'newsletter':
			return { ...base, state: ((await isConfirmTokenLive(db, token)) ? 'confirm' : 'invalid') as ClaimState, constraint: null }
		case 'setup':
			return (await isSetupTokenValid(db, token))
				? { ...base, state: 'form' as ClaimState, constraint: getZodConstraint(SetupSchema) }
				: { ...base, state: 'invalid' as ClaimState, constraint: null }
	}
}

export async function action({ request }: Route.ActionArgs) {
	return claimAction(request, {
		reward: rewardClaimAction,
		newsletter: async (token) => Boolean(await confirmSubscription(await getDb(), token)),
	})
}

export default function Claim({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation()
	if (loaderData.mode === null) {
		return (
			<>
				<h1 className="font-display text-headline tracking-display uppercase">{t('auth.claim.about.title')}</h1>
				<ClaimAbout signedIn={loaderData.signedIn} />
			</>
		)
	}
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
			{mode === 'newsletter' ? <NewsletterClaim state={state} /> : null}
			{state === 'invalid' && mode !== 'reward' && mode !== 'newsletter' ? (
				<InvalidLink mode={mode} signedIn={loaderData.signedIn} />
			) : null}
			{state === 'done' && mode !== 'newsletter' ? (
				<VerifiedEmail signedIn={actionData && 'signedIn' in actionData ? Boolean(actionData.signedIn) : loaderData.signedIn} />
			) : null}
			{state === 'confirm' && mode !== 'newsletter' ? (
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
