import { eq } from 'drizzle-orm'
import { user as schemaUser } from '#app/platform/db/schema.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { getPlatform } from '#app/platform/platform.server.ts'
import { clientAddressOf, formatWait, type RuleName } from '#app/platform/rate-limit.server.ts'
import { deviceCookieHeader, knownDevice } from './device-cookie.server.ts'

export type AuthFailure = { ok: false; status: number; message: string; retryAfterSeconds?: number }
export type AuthOutcome = { ok: true; headers: Headers } | AuthFailure

/** Copies the session cookies Better Auth set into the headers of our own response. */
function cookiesOf(response: Response): Headers {
	const headers = new Headers()
	for (const cookie of response.headers.getSetCookie()) headers.append('Set-Cookie', cookie)
	return headers
}

/**
 * French messages for the identity layer's refusals. None of them says whether an account exists:
 * a wrong password and an unknown address read the same.
 */
async function failure(response: Response): Promise<AuthFailure> {
	const t = getT()
	let code = ''
	try {
		code = String(((await response.json()) as { code?: unknown }).code ?? '')
	} catch {
		// an empty or non-JSON body: keep the status alone
	}
	if (response.status === 429) return { ok: false, status: 429, message: t('auth.errors.tooMany') }
	if (['INVALID_EMAIL_OR_PASSWORD', 'INVALID_PASSWORD', 'USER_NOT_FOUND', 'CREDENTIAL_ACCOUNT_NOT_FOUND'].includes(code))
		return { ok: false, status: 400, message: t('auth.errors.invalidCredentials') }
	if (code === 'USER_ALREADY_EXISTS' || code === 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL')
		return { ok: false, status: 400, message: t('auth.errors.cannotCreate') }
	if (code === 'PASSWORD_TOO_SHORT' || code === 'PASSWORD_TOO_LONG')
		return { ok: false, status: 400, message: t('auth.errors.passwordLength') }
	if (code === 'EMAIL_NOT_VERIFIED') return { ok: false, status: 403, message: t('auth.errors.emailNotVerified') }
	if (code === 'BANNED_USER') return { ok: false, status: 403, message: t('auth.errors.banned') }
	if (code === 'INVALID_TOKEN' || code === 'TOKEN_EXPIRED') return { ok: false, status: 400, message: t('auth.errors.invalidToken') }
	return { ok: false, status: response.status >= 500 ? 503 : 400, message: t('auth.errors.unavailable') }
}

async function call(run: () => Promise<Response>): Promise<AuthOutcome> {
	let response: Response
	try {
		response = await run()
	} catch {
		return { ok: false, status: 503, message: getT()('auth.errors.unavailable') }
	}
	if (!response.ok) return failure(response)
	return { ok: true, headers: cookiesOf(response) }
}

/** Counts one attempt against each rule; the first one exhausted gives the 429 and the wait. */
export async function limit(checks: [RuleName, string][]): Promise<AuthFailure | null> {
	const { limits } = await getPlatform()
	for (const [rule, key] of checks) {
		const result = await limits.consume(rule, key)
		if (!result.ok) {
			return {
				ok: false,
				status: 429,
				message: getT()('auth.errors.tooManyWait', { wait: formatWait(result.retryAfterSeconds) }),
				retryAfterSeconds: result.retryAfterSeconds,
			}
		}
	}
	return null
}

/** Headers for an action's refusal: Retry-After on a 429. */
export function failureHeaders(outcome: AuthFailure): HeadersInit | undefined {
	return outcome.retryAfterSeconds ? { 'Retry-After': String(outcome.retryAfterSeconds) } : undefined
}

/**
 * A form route's `headers`: React Router keeps only the cookies of what an action returns with
 * `data(…, { headers })`, so the Retry-After of a refusal reaches the browser only through this.
 */
export function retryAfterHeaders({ parentHeaders, actionHeaders }: { parentHeaders: Headers; actionHeaders: Headers }): Headers {
	const headers = new Headers(parentHeaders)
	const retryAfter = actionHeaders.get('Retry-After')
	if (retryAfter) headers.set('Retry-After', retryAfter)
	return headers
}

/**
 * Signs in with a password. An address not confirmed yet is refused and Better Auth mails the link
 * again; `redirectTo` (a same-site path, already checked) rides in that link as it does at sign-up,
 * so a visitor sent to sign in from a claim comes back to it once confirmed. A device the account
 * signed in from before (its device cookie) has a budget of its own: attempts from anywhere else
 * can lock the account, not that device (device-cookie.server.ts).
 */
export async function signInWithPassword(
	request: Request,
	email: string,
	password: string,
	redirectTo: string | null = null,
): Promise<AuthOutcome> {
	const device = await knownDevice(request, email)
	const limited = await limit([
		['signInByAddress', clientAddressOf(request)],
		device ? ['signInByDevice', device] : ['signInByAccount', email],
	])
	if (limited) return limited
	const { auth, limits } = await getPlatform()
	const outcome = await call(() =>
		auth.api.signInEmail({
			body: { email, password, rememberMe: true, ...(redirectTo ? { callbackURL: redirectTo } : {}) },
			headers: request.headers,
			asResponse: true,
		}),
	)
	if (outcome.ok) {
		// A known device's success clears its own failures only: the account's stay for strangers.
		if (device) await limits.reset('signInByDevice', device)
		else await limits.reset('signInByAccount', email)
		outcome.headers.append('Set-Cookie', await deviceCookieHeader(email, device))
	}
	return outcome
}

export type SignUpOutcome = AuthFailure | { ok: 'check-inbox' }

/** How long a sign-up takes at least, new address or known, so that time tells nothing (tests may lower it: TEST_SIGN_UP_FLOOR_MS). */
export const SIGN_UP_RESPONSE_FLOOR_MS = 800

/** Runs `work`, then waits until `floorMs` have passed since the start. */
async function atLeast<T>(floorMs: number, work: () => Promise<T>): Promise<T> {
	const started = performance.now()
	try {
		return await work()
	} finally {
		const left = floorMs - (performance.now() - started)
		if (left > 0) await new Promise((resolve) => setTimeout(resolve, left))
	}
}

/**
 * Creates the account and sends the link that confirms the address; opens no session (whoever
 * proves the address signs in first: docs/decisions/0002-account-pre-hijacking.md). When the
 * address already had an account, Better Auth answers the same and mails the owner instead: the
 * visitor is asked to look at their inbox either way, in the same time. `redirectTo` (a same-site
 * path, already checked) rides in the confirmation link, where the new member goes once confirmed.
 */
export async function signUpWithPassword(
	request: Request,
	input: { name: string; email: string; password: string },
	redirectTo: string | null = null,
): Promise<SignUpOutcome> {
	const limited = await limit([['signUpByAddress', clientAddressOf(request)]])
	if (limited) return limited
	const { auth, env } = await getPlatform()
	const body = redirectTo ? { ...input, callbackURL: redirectTo } : input
	const created = await atLeast(env.TEST_SIGN_UP_FLOOR_MS ?? SIGN_UP_RESPONSE_FLOOR_MS, () =>
		call(() => auth.api.signUpEmail({ body, headers: request.headers, asResponse: true })),
	)
	return created.ok ? { ok: 'check-inbox' } : created
}

/**
 * The first administrator, from the set-up link. The link is the proof: only whoever reads the
 * server's log has it, the operator who could set any address anyway. So the address is taken as
 * confirmed (the form says so next to it) and no « Confirmez votre adresse » mail goes out: the
 * account is made here rather than by Better Auth's sign-up, which would send one, and then signed
 * in with its password like any other (docs/decisions/0007-first-admin-address.md).
 */
export async function signUpFirstAdmin(
	request: Request,
	input: { name: string; email: string; password: string },
): Promise<AuthOutcome | { ok: 'exists' }> {
	const { auth, database } = await getPlatform()
	const email = input.email.trim().toLowerCase()
	const existing = await database.db.select({ id: schemaUser.id }).from(schemaUser).where(eq(schemaUser.email, email))
	if (existing.length > 0) return { ok: 'exists' }
	try {
		const context = await auth.$context
		const hash = await context.password.hash(input.password)
		const created = await context.internalAdapter.createUser({ email, name: input.name, emailVerified: true }, { method: 'email-password' })
		await context.internalAdapter.linkAccount({ userId: created.id, providerId: 'credential', accountId: created.id, password: hash })
	} catch {
		return { ok: false, status: 503, message: getT()('auth.errors.unavailable') }
	}
	return call(() =>
		auth.api.signInEmail({
			body: { email, password: input.password, rememberMe: true },
			headers: request.headers,
			asResponse: true,
		}),
	)
}

export async function signOut(request: Request) {
	const { auth } = await getPlatform()
	return call(() => auth.api.signOut({ headers: request.headers, asResponse: true }))
}

/** How long a reset request takes at least, known address or not, so that time tells nothing. */
export const RESET_RESPONSE_FLOOR_MS = 400

/** Always the same answer, in about the same time, whether the address has an account or not. */
export async function requestPasswordReset(request: Request, email: string): Promise<AuthFailure | null> {
	const started = performance.now()
	const limited = await limit([
		['resetByAddress', clientAddressOf(request)],
		['resetByAccount', email],
	])
	if (limited) return limited
	const { auth, logger } = await getPlatform()
	try {
		await auth.api.requestPasswordReset({ body: { email, redirectTo: '/auth/signin' }, headers: request.headers })
	} catch (error) {
		logger.warn({ err: error }, 'password reset request failed')
	}
	const left = RESET_RESPONSE_FLOOR_MS - (performance.now() - started)
	if (left > 0) await new Promise((resolve) => setTimeout(resolve, left))
	return null
}

export async function resetPassword(request: Request, token: string, newPassword: string): Promise<AuthOutcome> {
	const { auth } = await getPlatform()
	return call(() => auth.api.resetPassword({ body: { token, newPassword }, headers: request.headers, asResponse: true }))
}

export async function resendVerification(request: Request, user: { id: string; email: string }): Promise<AuthFailure | null> {
	const limited = await limit([['resendByAccount', user.id]])
	if (limited) return limited
	const { auth, logger } = await getPlatform()
	try {
		await auth.api.sendVerificationEmail({ body: { email: user.email }, headers: request.headers })
	} catch (error) {
		logger.warn({ err: error }, 'verification mail request failed')
	}
	return null
}
