import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { redirectWithFlash } from '#app/platform/flash.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { getDb } from '#app/platform/platform.server.ts'
import { clientAddressOf } from '#app/platform/rate-limit.server.ts'
import { failureHeaders, limit, resetPassword, signUpFirstAdmin } from './auth-actions.server.ts'
import { confirmAddress } from './verification.server.ts'
import { CLAIM_MODES, ConfirmSchema, ResetSchema, SetupSchema, type ClaimMode, type ClaimState } from './claim/forms.ts'
import { refuseWeakPassword } from './password-policy.server.ts'
import { safeRedirect } from './redirect.ts'
import { getSessionUser } from './session.server.ts'
import { completeSetup, isSetupTokenValid } from './setup.server.ts'
import { resetTokenOwner, TOKEN_PATTERN } from './tokens.server.ts'
import { httpError } from '#app/platform/http-error.ts'

/*
 * The one landing for every link the site e-mails (/auth/claim?mode=…&token=…): reading the link,
 * and acting on the POST of its page: confirming an address, choosing a new password, creating
 * the first administrator. A GET never changes anything (mail scanners follow links).
 */

export function readLink(request: Request): { mode: ClaimMode | null; token: string | null } {
	const params = new URL(request.url).searchParams
	const mode = params.get('mode')
	const token = params.get('token')
	return {
		mode: (CLAIM_MODES as readonly string[]).includes(mode ?? '') ? (mode as ClaimMode) : null,
		token: token && TOKEN_PATTERN.test(token) ? token : null,
	}
}

/** Modes another feature answers (the reward of a reserved code, app/features/codes), given by the route. */
interface ClaimHandlers {
	reward(request: Request, token: string): Promise<Response | null>
	/** Confirms a newsletter subscription (app/features/newsletter); false for a dead token. */
	newsletter(token: string): Promise<boolean>
}

export async function claimAction(request: Request, handlers: ClaimHandlers) {
	const { mode, token } = readLink(request)
	if (!mode) throw httpError(404)
	const limited = await limit([['claimByAddress', clientAddressOf(request)]])
	if (limited)
		return data(
			{ state: 'invalid' as ClaimState, result: null, message: limited.message },
			{ status: 429, headers: failureHeaders(limited) },
		)
	if (!token) return data({ state: 'invalid' as ClaimState, result: null, message: null }, { status: 400 })
	if (mode === 'reward')
		return (await handlers.reward(request, token)) ?? data({ state: 'invalid' as ClaimState, result: null, message: null }, { status: 400 })
	if (mode === 'newsletter') {
		const confirmed = await handlers.newsletter(token)
		return data({ state: (confirmed ? 'done' : 'invalid') as ClaimState, result: null, message: null }, { status: confirmed ? 200 : 400 })
	}
	const formData = await request.formData()

	if (mode === 'verifyEmail') {
		// A validation round trip of the form (Conform's `validate` intent) checks and never acts.
		const submission = parseWithZod(formData, { schema: ConfirmSchema.partial() })
		if (submission.status !== 'success') {
			return data(
				{ state: 'confirm' as ClaimState, result: submission.reply({ hideFields: ['password'] }), message: null },
				{ status: 400 },
			)
		}
		const outcome = await confirmAddress(request, token, submission.value.password ?? null)
		if (!outcome) return data({ state: 'invalid' as ClaimState, result: null, message: null }, { status: 400 })
		if (!outcome.ok) {
			return data(
				{
					state: 'confirm' as ClaimState,
					result: submission.reply({ formErrors: [outcome.message], hideFields: ['password'] }),
					message: null,
				},
				{ status: outcome.status, headers: failureHeaders(outcome) },
			)
		}
		const signedIn = outcome.headers.getSetCookie().length > 0
		// A sign-up that came from somewhere (a reserved code's claim) goes back there, signed in.
		const next = safeRedirect(new URL(request.url).searchParams.get('redirectTo'), '')
		if (signedIn && next)
			return redirectWithFlash(next, { type: 'success', key: 'auth.flash.addressConfirmed' }, { headers: outcome.headers })
		return data({ state: 'done' as ClaimState, result: null, message: null, signedIn }, { headers: outcome.headers })
	}

	if (mode === 'resetPassword') {
		const owner = await resetTokenOwner(await getDb(), token)
		const submission = parseWithZod(formData, {
			// The same check as every other new password: the account's own name and address refused too.
			schema: ResetSchema.superRefine(await refuseWeakPassword('password', () => owner ?? {})),
		})
		if (submission.status !== 'success') {
			return data(
				{ state: 'form' as ClaimState, result: submission.reply({ hideFields: ['password', 'confirm'] }), message: null },
				{ status: 400 },
			)
		}
		const outcome = await resetPassword(request, token, submission.value.password)
		if (!outcome.ok) return data({ state: 'invalid' as ClaimState, result: null, message: null }, { status: 400 })
		return redirectWithFlash('/auth/signin', { type: 'success', key: 'auth.flash.passwordReset' })
	}

	// setup: the first administrator
	const db = await getDb()
	const current = await getSessionUser(request)
	if (current) {
		if (!(await completeSetup(db, token, current.id)))
			return data({ state: 'invalid' as ClaimState, result: null, message: null }, { status: 400 })
		return redirectWithFlash('/dashboard/admin', { type: 'success', key: 'auth.flash.adminReady' })
	}
	if (!(await isSetupTokenValid(db, token))) return data({ state: 'invalid' as ClaimState, result: null, message: null }, { status: 400 })
	const submission = parseWithZod(formData, {
		schema: SetupSchema.superRefine(await refuseWeakPassword('password', (value) => value)),
	})
	if (submission.status !== 'success') {
		return data(
			{ state: 'form' as ClaimState, result: submission.reply({ hideFields: ['password', 'confirm'] }), message: null },
			{ status: 400 },
		)
	}
	const { name, email, password } = submission.value
	const outcome = await signUpFirstAdmin(request, { name, email, password })
	if (outcome.ok !== true) {
		const message = outcome.ok === 'exists' ? getT()('auth.claim.setup.existing') : outcome.message
		return data(
			{
				state: 'form' as ClaimState,
				result: submission.reply({ formErrors: [message], hideFields: ['password', 'confirm'] }),
				message: null,
			},
			{ status: 400 },
		)
	}
	const created = await getSessionUser(new Request(request.url, { headers: { cookie: cookieHeader(outcome.headers) } }))
	if (!created || !(await completeSetup(db, token, created.id))) {
		return data({ state: 'invalid' as ClaimState, result: null, message: null }, { status: 400 })
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
