import { getT } from '#app/platform/i18n.server.ts'
import { getAuth } from '#app/platform/platform.server.ts'

export type AuthOutcome = { ok: true; headers: Headers } | { ok: false; status: number; message: string }

/** Copies the session cookies Better Auth set into the headers of our own redirect. */
function cookiesOf(response: Response): Headers {
	const headers = new Headers()
	for (const cookie of response.headers.getSetCookie()) headers.append('Set-Cookie', cookie)
	return headers
}

/**
 * French messages for the identity layer's refusals. None of them says whether an account exists:
 * a wrong password and an unknown address read the same.
 */
async function failure(response: Response): Promise<AuthOutcome> {
	const t = getT()
	let code = ''
	try {
		code = String(((await response.json()) as { code?: unknown }).code ?? '')
	} catch {
		// an empty or non-JSON body: keep the status alone
	}
	if (response.status === 429) return { ok: false, status: 429, message: t('auth.errors.tooMany') }
	if (code === 'INVALID_EMAIL_OR_PASSWORD' || code === 'INVALID_PASSWORD' || code === 'USER_NOT_FOUND' || code === 'CREDENTIAL_ACCOUNT_NOT_FOUND')
		return { ok: false, status: 400, message: t('auth.errors.invalidCredentials') }
	if (code === 'USER_ALREADY_EXISTS' || code === 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL')
		return { ok: false, status: 400, message: t('auth.errors.cannotCreate') }
	if (code === 'PASSWORD_TOO_SHORT' || code === 'PASSWORD_TOO_LONG')
		return { ok: false, status: 400, message: t('auth.errors.passwordLength') }
	if (code === 'BANNED_USER') return { ok: false, status: 403, message: t('auth.errors.banned') }
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

export async function signInWithPassword(request: Request, email: string, password: string) {
	const auth = await getAuth()
	return call(() =>
		auth.api.signInEmail({ body: { email, password, rememberMe: true }, headers: request.headers, asResponse: true }),
	)
}

export async function signUpWithPassword(request: Request, input: { name: string; email: string; password: string }) {
	const auth = await getAuth()
	return call(() => auth.api.signUpEmail({ body: input, headers: request.headers, asResponse: true }))
}

export async function signOut(request: Request) {
	const auth = await getAuth()
	return call(() => auth.api.signOut({ headers: request.headers, asResponse: true }))
}
