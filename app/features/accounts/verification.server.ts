import { and, eq } from 'drizzle-orm'
import { verifyJWT } from 'better-auth/crypto'
import { account, user } from '#app/platform/db/schema.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { getPlatform } from '#app/platform/platform.server.ts'
import { clientAddressOf } from '#app/platform/rate-limit.server.ts'
import { limit, type AuthOutcome } from './auth-actions.server.ts'
import { getSessionUser } from './session.server.ts'
import { followAddressChange } from '#app/features/newsletter/subscribers.server.tsx'

/*
 * Confirming an address: whoever opens the mailed link proves they read that mailbox; the account
 * is theirs only if they also prove it is theirs (its password, or, for an account without one,
 * its own session in this browser). Every session opened before is then ended (Better Auth's
 * afterEmailVerification, app/platform/auth.server.ts) and the verifier's is the first one.
 * See docs/decisions/0002-account-pre-hijacking.md. A changed address takes the member's newsletter
 * subscription with it (docs/decisions/0010-newsletter-follows-address.md): this confirmation is the only
 * way an account's address changes.
 */

export interface VerifyLink {
	userId: string
	email: string
	/** The account's address now (the one a sign-in types, and the one its limits count). */
	currentEmail: string
	/** The account has a password: the verifier types it. */
	hasPassword: boolean
}

/** What a verification token points at, when it is genuine, unexpired and its account still there. */
export async function readVerifyLink(token: string): Promise<VerifyLink | null> {
	const { auth, database } = await getPlatform()
	const { secret } = await auth.$context
	const payload = (await verifyJWT(token, secret)) as { email?: unknown; updateTo?: unknown; userId?: unknown } | null
	if (!payload || typeof payload.email !== 'string') return null
	const db = database.db
	const [owner] = await db
		.select({ id: user.id, email: user.email })
		.from(user)
		.where(typeof payload.userId === 'string' ? eq(user.id, payload.userId) : eq(user.email, payload.email.toLowerCase()))
	if (!owner) return null
	const [credential] = await db
		.select({ password: account.password })
		.from(account)
		.where(and(eq(account.userId, owner.id), eq(account.providerId, 'credential')))
	const email = typeof payload.updateTo === 'string' ? payload.updateTo.toLowerCase() : owner.email
	return { userId: owner.id, email, currentEmail: owner.email, hasPassword: Boolean(credential?.password) }
}

export type ConfirmOutcome = AuthOutcome | { ok: false; status: number; message: string; field: 'password' }

/**
 * Confirms the address of the link, for the verifier who also proves the account is theirs.
 * With a password: the answer carries the verifier's new session. Without: the verifier's old
 * session ended with the others, and they sign in again with their provider.
 */
export async function confirmAddress(request: Request, token: string, password: string | null): Promise<ConfirmOutcome | null> {
	const link = await readVerifyLink(token)
	if (!link) return null
	const { auth, database, limits } = await getPlatform()
	const t = getT()
	if (link.hasPassword) {
		const limited = await limit([
			['signInByAddress', clientAddressOf(request)],
			['signInByAccount', link.currentEmail],
		])
		if (limited) return limited
		const [credential] = await database.db
			.select({ hash: account.password })
			.from(account)
			.where(and(eq(account.userId, link.userId), eq(account.providerId, 'credential')))
		const context = await auth.$context
		const valid = Boolean(password && credential?.hash && (await context.password.verify({ hash: credential.hash, password })))
		if (!valid) return { ok: false, status: 400, message: t('auth.claim.verifyEmail.wrongPassword'), field: 'password' }
		await limits.reset('signInByAccount', link.currentEmail)
	} else {
		const current = await getSessionUser(request)
		if (current?.id !== link.userId) return { ok: false, status: 403, message: t('auth.claim.verifyEmail.signInFirst') }
	}
	let verified: Response
	try {
		verified = await auth.api.verifyEmail({ query: { token }, headers: request.headers, asResponse: true })
	} catch {
		return { ok: false, status: 503, message: t('auth.errors.unavailable') }
	}
	if (!verified.ok) return null
	if (link.email !== link.currentEmail) await followNewsletter(link)
	if (!link.hasPassword || !password) return { ok: true, headers: new Headers() }
	// The verifier's own session, the first and only one of this account now.
	const signedIn = await auth.api
		.signInEmail({ body: { email: link.email, password, rememberMe: true }, headers: request.headers, asResponse: true })
		.catch(() => null)
	const headers = new Headers()
	for (const cookie of signedIn?.ok ? signedIn.headers.getSetCookie() : []) headers.append('Set-Cookie', cookie)
	return { ok: true, headers }
}

/**
 * A changed address, once Better Auth has written it: the member's newsletter subscription follows
 * (features/newsletter). A failure there leaves the address changed and is logged, never shown.
 */
async function followNewsletter(link: VerifyLink) {
	const { database, logger } = await getPlatform()
	try {
		const [owner] = await database.db.select({ email: user.email }).from(user).where(eq(user.id, link.userId))
		if (owner?.email === link.email) await followAddressChange(database.db, link.currentEmail, link.email)
	} catch (error) {
		logger.error({ err: error, userId: link.userId }, 'address changed, but the newsletter subscription did not follow it')
	}
}
