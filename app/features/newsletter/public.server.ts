import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { TOKEN_PATTERN } from '#app/features/accounts/tokens.server.ts'
import { getPlatform } from '#app/platform/platform.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { clientAddressOf, formatWait, type RuleName } from '#app/platform/rate-limit.server.ts'
import { readSignedValue, signValue } from '#app/platform/signed-value.server.ts'
import { readTownInput } from '#app/features/towns/town-input.server.ts'
import { TOWN_CHOICE_FIELD, TOWN_FIELD } from '#app/features/towns/rules.ts'
import { RESUBSCRIBE_WINDOW_MINUTES } from './rules.ts'
import { SubscribeSchema, UnsubscribeRequestSchema } from './forms.ts'
import {
	findByUnsubscribeToken,
	mailUnsubscribeLink,
	requestSubscription,
	resubscribeByToken,
	unsubscribeByToken,
	type NewsletterContext,
} from './subscribers.server.tsx'

/*
 * What the public forms do (the landing's sign-up, /unsubscribe without a token), so that their
 * routes stay thin and every path to the same action shares one schema and one set of limits.
 */

export async function newsletterContext(): Promise<NewsletterContext> {
	const { database, mailer, env } = await getPlatform()
	return { db: database.db, mailer, env }
}

/** Counts one attempt against each rule; past a limit, the French message and the wait. */
async function limited(checks: [RuleName, string][]): Promise<{ message: string; retryAfter: number } | null> {
	const { limits } = await getPlatform()
	for (const [rule, key] of checks) {
		const result = await limits.consume(rule, key)
		if (!result.ok) {
			return {
				message: getT()('newsletter.limited', { wait: formatWait(result.retryAfterSeconds) }),
				retryAfter: result.retryAfterSeconds,
			}
		}
	}
	return null
}

/**
 * The landing page's sign-up. A filled honeypot, a known address, an unknown one: the same answer,
 * « check your inbox »; only a real new (or lapsed) address gets the confirmation mail.
 */
let signupConstraint: ReturnType<typeof getZodConstraint> | undefined

/** The landing's sign-up form's HTML constraints (required, email…), from the schema its action checks. */
export function newsletterSignupConstraint() {
	return (signupConstraint ??= getZodConstraint(SubscribeSchema))
}

export async function subscribeAction(request: Request, formData: FormData) {
	const submission = parseWithZod(formData, { schema: SubscribeSchema })
	const town = readTownInput(formData)
	const townProblem = town.kind === 'invalid' ? { message: town.message, choices: town.choices } : null
	const typedTown = String(formData.get(TOWN_CHOICE_FIELD) || formData.get(TOWN_FIELD) || '')
	if (submission.status !== 'success' || town.kind === 'invalid') {
		// A bot filling every field fails here on the honeypot: it is told what a person would be.
		if (formData.get('website')) return { newsletter: 'sent' as const, result: null, town: null, typedTown: '' }
		return data({ newsletter: 'invalid' as const, result: submission.reply(), town: townProblem, typedTown }, { status: 400 })
	}
	// Per client address here; per recipient, where every mail is sent (app/platform/mail), silently.
	const refused = await limited([['newsletterByAddress', clientAddressOf(request)]])
	if (refused) {
		return data(
			{ newsletter: 'invalid' as const, result: submission.reply({ formErrors: [refused.message] }), town: null, typedTown },
			{ status: 429, headers: { 'Retry-After': String(refused.retryAfter) } },
		)
	}
	await requestSubscription(await newsletterContext(), {
		email: submission.value.email,
		source: 'landing',
		town: town.kind === 'town' ? town.town : null,
	})
	return { newsletter: 'sent' as const, result: null, town: null, typedTown: '' }
}

/** `/unsubscribe` without a token: the link goes to the address if it is subscribed; the same answer anyway. */
export async function requestUnsubscribeLinkAction(request: Request, formData: FormData) {
	const submission = parseWithZod(formData, { schema: UnsubscribeRequestSchema })
	if (submission.status !== 'success') return data({ state: 'ask' as const, result: submission.reply(), message: null }, { status: 400 })
	// Per client address here; per recipient, where every mail is sent (app/platform/mail), silently.
	const refused = await limited([['newsletterByAddress', clientAddressOf(request)]])
	if (refused) {
		return data(
			{ state: 'ask' as const, result: submission.reply({ formErrors: [refused.message] }), message: null },
			{ status: 429, headers: { 'Retry-After': String(refused.retryAfter) } },
		)
	}
	await mailUnsubscribeLink(await newsletterContext(), submission.value.email)
	return { state: 'linkSent' as const, result: null, message: null }
}

/** A token-carrying POST from /unsubscribe's own page: limited per address like every public form. */
export async function limitTokenAction(request: Request) {
	return limited([['newsletterByAddress', clientAddressOf(request)]])
}

/*
 * The unsubscribe link is in every newsletter's List-Unsubscribe header: whoever holds an old one
 * may unsubscribe its address, but never subscribe it again on its own. « Me réinscrire » acts at
 * once only on the page that has just unsubscribed, within RESUBSCRIBE_WINDOW_MINUTES: that POST
 * hands the page a signed undo value for this subscriber. Anything else (an old link, a forged
 * or expired value) starts a new double opt-in: a confirmation mail to the address, through the
 * per-recipient cap like every visitor's mail.
 */
const UNDO_PURPOSE = 'newsletter-undo-unsubscribe'

async function siteSecret(): Promise<string> {
	return (await (await getPlatform()).auth.$context).secret
}

/** The POST of « Me désinscrire » on /unsubscribe: known or not, and the undo value when it did unsubscribe an active address. */
export async function unsubscribeFromPage(token: string): Promise<{ known: boolean; undo: string | null }> {
	const { db } = await newsletterContext()
	const before = await findByUnsubscribeToken(db, token)
	const known = await unsubscribeByToken(db, token)
	if (!known || before?.status !== 'active') return { known, undo: null }
	const expiresAt = Date.now() + RESUBSCRIBE_WINDOW_MINUTES * 60_000
	return { known, undo: signValue(await siteSecret(), UNDO_PURPOSE, `${before.id}:${expiresAt}`) }
}

/** « Me réinscrire »: back at once with a live undo value for this subscriber, else a confirmation mail. */
export async function resubscribeFromPage(token: string, undo: string | null): Promise<'resubscribed' | 'confirmSent' | 'invalid'> {
	const ctx = await newsletterContext()
	const subscriber = await findByUnsubscribeToken(ctx.db, token)
	if (!subscriber) return 'invalid'
	const [id, expiresAt] = (readSignedValue(await siteSecret(), UNDO_PURPOSE, undo) ?? '').split(':')
	if (id === subscriber.id && Number(expiresAt) > Date.now() && (await resubscribeByToken(ctx.db, token))) return 'resubscribed'
	// Already back on the list (another tab, the settings): nothing to ask.
	if (subscriber.status === 'active') return 'resubscribed'
	await requestSubscription(ctx, { email: subscriber.email, source: 'resubscribe' })
	return 'confirmSent'
}

/** The per-subscriber token of a newsletter's links (`?token=`), when it has the shape of one. */
export function subscriberTokenOf(request: Request): string | null {
	const token = new URL(request.url).searchParams.get('token')
	return token && TOKEN_PATTERN.test(token) ? token : null
}

/** « f•••@exemple.fr »: enough for the owner to recognise their address, little for anyone else. */
export function maskEmail(email: string): string {
	const [local = '', domain = ''] = email.split('@')
	return `${local.slice(0, 1)}•••@${domain}`
}
