import { and, desc, eq, gt, isNotNull } from 'drizzle-orm'
import type { Db } from '#app/platform/db/client.server.ts'
import { account, session } from '#app/platform/db/schema.ts'
import { configuredProviders } from '#app/platform/auth.server.ts'
import type { Env } from '#app/platform/env.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { getPlatform } from '#app/platform/platform.server.ts'
import type { ActiveSession, SignInMethod } from './types.ts'
import { describeDevice, parseUserAgent } from './user-agent.ts'

export type { ActiveSession, SignInMethod }

/*
 * The rules behind the member's settings screen: each change goes through Better Auth with the
 * member's own session (so its checks apply), and every refusal comes back as a French sentence,
 * tied to the form field it concerns when there is one. Nothing here says whether another
 * account exists.
 */

export type SettingsFailure = { ok: false; status: number; message: string; field?: string }
export type SettingsOutcome = { ok: true; headers: Headers } | SettingsFailure

/** The provider id Better Auth gives the e-mail + password method. */
export const CREDENTIAL_PROVIDER = 'credential'

interface AuthAnswer {
	response: Response | null
	code: string
}

/** Runs one Better Auth call as a Response, and reads its error code when it refuses. */
async function callAuth(run: () => Promise<Response>): Promise<AuthAnswer> {
	let response: Response
	try {
		response = await run()
	} catch (error) {
		;(await getPlatform()).logger.warn({ err: error }, 'auth call failed')
		return { response: null, code: 'UNAVAILABLE' }
	}
	if (response.ok) return { response, code: '' }
	let code = ''
	try {
		code = String(((await response.clone().json()) as { code?: unknown }).code ?? '')
	} catch {
		// no JSON body: the status alone says it failed
	}
	return { response, code: code || `HTTP_${response.status}` }
}

function cookiesOf(response: Response | null): Headers {
	const headers = new Headers()
	for (const cookie of response?.headers.getSetCookie() ?? []) headers.append('Set-Cookie', cookie)
	return headers
}

function fail(message: string, options: { field?: string; status?: number } = {}): SettingsFailure {
	return { ok: false, status: options.status ?? 400, message, field: options.field }
}

/** The refusals every call can meet: a session too old for a sensitive change, an outage. */
function commonFailure(answer: AuthAnswer): SettingsFailure {
	if (answer.code === 'SESSION_NOT_FRESH' || answer.code === 'SESSION_EXPIRED')
		return fail(getT()('settings.errors.signInAgain'), { status: 403 })
	if (answer.response?.status === 429) return fail(getT()('settings.errors.tooMany'), { status: 429 })
	if (!answer.response || answer.response.status >= 500) return fail(getT()('settings.errors.unavailable'), { status: 503 })
	return fail(getT()('settings.errors.unavailable'), { status: 400 })
}

/** Whether the member can sign in with a password (an account made through a provider cannot, until they set one). */
export async function hasPassword(db: Db, userId: string): Promise<boolean> {
	const [row] = await db
		.select({ id: account.id })
		.from(account)
		.where(and(eq(account.userId, userId), eq(account.providerId, CREDENTIAL_PROVIDER), isNotNull(account.password)))
		.limit(1)
	return Boolean(row)
}

/** Checks the member's current password, before anything is changed or sent. */
export async function isCurrentPassword(request: Request, password: string): Promise<boolean | SettingsFailure> {
	const { auth } = await getPlatform()
	const answer = await callAuth(() => auth.api.verifyPassword({ body: { password }, headers: request.headers, asResponse: true }))
	if (answer.response?.ok) return true
	if (['INVALID_PASSWORD', 'CREDENTIAL_ACCOUNT_NOT_FOUND', 'PASSWORD_TOO_LONG'].includes(answer.code)) return false
	return commonFailure(answer)
}

/** « n••••@exemple.fr »: enough for the owner to recognise an address, not to read it out. */
export function maskEmail(email: string): string {
	const [local = '', domain = ''] = email.split('@')
	return `${local.slice(0, 1)}${'•'.repeat(Math.min(Math.max(local.length - 1, 1), 6))}@${domain}`
}

/**
 * Asks Better Auth to mail a link to the new address; the address changes only when that link is
 * followed. Better Auth answers the same when the new address already has an account (and then
 * sends nothing). The old address is told either way.
 */
export async function requestEmailChange(
	request: Request,
	member: { id: string; name: string; email: string },
	newEmail: string,
): Promise<SettingsOutcome> {
	if (newEmail === member.email.toLowerCase()) return fail(getT()('settings.errors.sameEmail'), { field: 'newEmail' })
	const { auth, emails } = await getPlatform()
	const answer = await callAuth(() =>
		auth.api.changeEmail({ body: { newEmail, callbackURL: '/dashboard/settings' }, headers: request.headers, asResponse: true }),
	)
	if (!answer.response?.ok) return commonFailure(answer)
	const t = getT()
	await emails.notice(
		'email-change-requested',
		member.email,
		t('settings.mail.emailChange.subject'),
		t('settings.mail.emailChange.title'),
		[
			t('settings.mail.emailChange.body', { masked: maskEmail(newEmail) }),
			t('settings.mail.emailChange.unchanged'),
			t('settings.mail.emailChange.notYou'),
		],
	)
	return { ok: true, headers: new Headers() }
}

async function sendPasswordNotice(email: string, kind: 'changed' | 'set') {
	const { emails } = await getPlatform()
	const t = getT()
	const [subject, title, body] =
		kind === 'changed'
			? [t('settings.mail.passwordChanged.subject'), t('settings.mail.passwordChanged.title'), t('settings.mail.passwordChanged.body')]
			: [t('settings.mail.passwordSet.subject'), t('settings.mail.passwordSet.title'), t('settings.mail.passwordSet.body')]
	await emails.notice('password-changed', email, subject, title, [body, t('settings.mail.passwordNotYou')])
}

/**
 * Changes the password and signs every other device out. The session token changes too: the
 * returned headers carry the new session cookie, to be sent on with the redirect.
 */
export async function changePassword(
	request: Request,
	member: { email: string },
	currentPassword: string,
	newPassword: string,
): Promise<SettingsOutcome> {
	const { auth } = await getPlatform()
	const answer = await callAuth(() =>
		auth.api.changePassword({
			body: { currentPassword, newPassword, revokeOtherSessions: true },
			headers: request.headers,
			asResponse: true,
		}),
	)
	if (!answer.response?.ok) {
		if (answer.code === 'INVALID_PASSWORD') return fail(getT()('settings.errors.wrongPassword'), { field: 'currentPassword' })
		if (answer.code === 'PASSWORD_TOO_SHORT' || answer.code === 'PASSWORD_TOO_LONG')
			return fail(getT()('settings.errors.passwordLength'), { field: 'newPassword' })
		if (answer.code === 'CREDENTIAL_ACCOUNT_NOT_FOUND') return fail(getT()('settings.errors.noPassword'))
		return commonFailure(answer)
	}
	await sendPasswordNotice(member.email, 'changed')
	return { ok: true, headers: cookiesOf(answer.response) }
}

/** A first password for an account made through a provider. */
export async function setFirstPassword(request: Request, member: { email: string }, newPassword: string): Promise<SettingsOutcome> {
	const { auth } = await getPlatform()
	const answer = await callAuth(() => auth.api.setPassword({ body: { newPassword }, headers: request.headers, asResponse: true }))
	if (!answer.response?.ok) {
		if (answer.code === 'PASSWORD_ALREADY_SET') return fail(getT()('settings.errors.passwordAlreadySet'))
		if (answer.code === 'PASSWORD_TOO_SHORT' || answer.code === 'PASSWORD_TOO_LONG')
			return fail(getT()('settings.errors.passwordLength'), { field: 'newPassword' })
		return commonFailure(answer)
	}
	await sendPasswordNotice(member.email, 'set')
	return { ok: true, headers: cookiesOf(answer.response) }
}

/** A method's name as the member knows it: « E-mail et mot de passe », « Google »… */
export function methodName(env: Env, providerId: string): string {
	if (providerId === CREDENTIAL_PROVIDER) return getT()('settings.methods.credential')
	return configuredProviders(env).find((p) => p.id === providerId)?.name ?? providerId
}

/** The ways the member can sign in (Better Auth's accounts of this user), oldest first. */
export async function listSignInMethods(db: Db, userId: string): Promise<SignInMethod[]> {
	const { env } = await getPlatform()
	const accounts = await db
		.select({ id: account.id, providerId: account.providerId, createdAt: account.createdAt })
		.from(account)
		.where(eq(account.userId, userId))
	return accounts
		.map((a) => ({
			id: a.id,
			providerId: a.providerId,
			name: methodName(env, a.providerId),
			linkedAt: new Date(a.createdAt).toISOString(),
		}))
		.sort((a, b) => a.linkedAt.localeCompare(b.linkedAt))
}

/** Removes one sign-in method; never the last one (Better Auth refuses it too). */
export async function unlinkMethod(request: Request, userId: string, methodId: string): Promise<SettingsOutcome> {
	const { database } = await getPlatform()
	const methods = await listSignInMethods(database.db, userId)
	if (!methods.some((m) => m.id === methodId)) return fail(getT()('settings.errors.unknownMethod'), { status: 404 })
	if (methods.length <= 1) return fail(getT()('settings.errors.lastMethod'))
	const { auth } = await getPlatform()
	const answer = await callAuth(() => auth.api.unlinkAccount({ body: { accountId: methodId }, headers: request.headers, asResponse: true }))
	if (!answer.response?.ok) {
		if (answer.code === 'FAILED_TO_UNLINK_LAST_ACCOUNT') return fail(getT()('settings.errors.lastMethod'))
		if (answer.code === 'ACCOUNT_NOT_FOUND') return fail(getT()('settings.errors.unknownMethod'), { status: 404 })
		return commonFailure(answer)
	}
	return { ok: true, headers: cookiesOf(answer.response) }
}

/**
 * The member's live sessions, this one first, then the most recently active. Read from the
 * database rather than through Better Auth's listSessions, which answers only to a session signed
 * in less than a day ago (its "fresh" rule), while a session here lasts thirty days.
 */
export async function listActiveSessions(db: Db, userId: string, currentId: string | null): Promise<ActiveSession[]> {
	const rows = await db
		.select({
			id: session.id,
			createdAt: session.createdAt,
			updatedAt: session.updatedAt,
			userAgent: session.userAgent,
			ipAddress: session.ipAddress,
		})
		.from(session)
		.where(and(eq(session.userId, userId), gt(session.expiresAt, new Date())))
		.orderBy(desc(session.updatedAt))
	return rows
		.map((row) => ({
			id: row.id,
			createdAt: row.createdAt.toISOString(),
			lastActiveAt: row.updatedAt.toISOString(),
			device: describeDevice(row.userAgent, getT()),
			mobile: ['iOS', 'Android'].includes(parseUserAgent(row.userAgent).system ?? ''),
			ipAddress: row.ipAddress,
			current: row.id === currentId,
		}))
		.sort((a, b) => Number(b.current) - Number(a.current))
}

/** Signs out every device but this one. */
export async function signOutOtherDevices(request: Request): Promise<SettingsOutcome> {
	const { auth } = await getPlatform()
	const answer = await callAuth(() => auth.api.revokeOtherSessions({ headers: request.headers, asResponse: true }))
	if (!answer.response?.ok) return commonFailure(answer)
	return { ok: true, headers: cookiesOf(answer.response) }
}
