import { newSecret } from './random-token.server.ts'
import { betterAuth, type BetterAuthOptions } from 'better-auth'
import { drizzleAdapter } from 'better-auth/adapters/drizzle'
import { admin, genericOAuth } from 'better-auth/plugins'
import { and, eq, inArray } from 'drizzle-orm'
import type { AuthEmails } from './auth-emails.server.tsx'
import type { Db } from './db/client.server.ts'
import * as schema from './db/schema.ts'
import type { Env } from './env.server.ts'
import { PASSWORD_MAX, PASSWORD_MIN } from './password-limits.ts'
import { redactUrl } from './redact-url.ts'
import { scryptPasswords } from './test-password-hash.server.ts'
import type { Logger } from 'pino'
import { getT } from './i18n.server.ts'

/** The header our HTTP server sets to the real client address (never taken from the client). */
export const CLIENT_ADDRESS_HEADER = 'x-client-address'

/** A verification link lives a day; a reset link an hour. */
export const VERIFY_EMAIL_TTL_SECONDS = 24 * 3600
export const RESET_PASSWORD_TTL_SECONDS = 3600
export const SESSION_TTL_SECONDS = 30 * 24 * 3600

/** The auth secret: from AUTH_SECRET, else generated once and kept in the database for every instance. */
export async function resolveAuthSecret(db: Db, env: Env): Promise<string> {
	if (env.AUTH_SECRET) return env.AUTH_SECRET
	const stored = async () =>
		(await db.select({ value: schema.siteSetting.value }).from(schema.siteSetting).where(eq(schema.siteSetting.key, 'auth_secret')))[0]
			?.value
	// Read first: every start but the very first finds it, without a write (a transaction) before its first answer.
	const found = await stored()
	if (found) return found
	await db.insert(schema.siteSetting).values({ key: 'auth_secret', value: newSecret() }).onConflictDoNothing()
	const value = await stored()
	if (!value) throw new Error('auth secret could not be stored')
	return value
}

/** Gives the admin role to the accounts listed in ADMIN_EMAILS, once their address is verified. */
export async function grantListedAdmins(db: Db, env: Env): Promise<void> {
	if (env.ADMIN_EMAILS.length === 0) return
	await db
		.update(schema.user)
		.set({ role: 'admin' })
		.where(and(inArray(schema.user.email, env.ADMIN_EMAILS), eq(schema.user.emailVerified, true)))
}

export interface FederatedProvider {
	id: string
	name: string
}

/** The federated sign-in providers the operator configured, in the order their buttons show. */
export function configuredProviders(env: Env): FederatedProvider[] {
	const providers: FederatedProvider[] = []
	if (env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET) providers.push({ id: 'google', name: 'Google' })
	if (env.APPLE_CLIENT_ID && env.APPLE_CLIENT_SECRET) providers.push({ id: 'apple', name: 'Apple' })
	if (env.FACEBOOK_CLIENT_ID && env.FACEBOOK_CLIENT_SECRET) providers.push({ id: 'facebook', name: 'Facebook' })
	if (env.OIDC_ISSUER && env.OIDC_CLIENT_ID) providers.push({ id: 'oidc', name: env.OIDC_NAME })
	return providers
}

function socialProviders(env: Env): BetterAuthOptions['socialProviders'] {
	return {
		...(env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
			? { google: { clientId: env.GOOGLE_CLIENT_ID, clientSecret: env.GOOGLE_CLIENT_SECRET } }
			: {}),
		...(env.APPLE_CLIENT_ID && env.APPLE_CLIENT_SECRET
			? {
					apple: {
						clientId: env.APPLE_CLIENT_ID,
						clientSecret: env.APPLE_CLIENT_SECRET,
						appBundleIdentifier: env.APPLE_APP_BUNDLE_IDENTIFIER,
					},
				}
			: {}),
		...(env.FACEBOOK_CLIENT_ID && env.FACEBOOK_CLIENT_SECRET
			? { facebook: { clientId: env.FACEBOOK_CLIENT_ID, clientSecret: env.FACEBOOK_CLIENT_SECRET } }
			: {}),
	}
}

/** Better Auth's log details with the values of tokens, codes, states and passwords replaced. */
function withoutSecrets(details: unknown[]): unknown {
	try {
		return JSON.parse(
			JSON.stringify(details, (key, value: unknown) => {
				if (/token|code_?verifier|^code$|^state$|password|secret/i.test(key) && typeof value === 'string') return '[redacted]'
				if (value instanceof Error) return { name: value.name, message: value.message, ...(value as object) }
				if (typeof value === 'string') return redactUrl(value)
				return value
			}),
		)
	} catch {
		return '[unreadable]'
	}
}

/**
 * The path a confirmation link leads to once the address is confirmed: the `callbackURL` a sign-up
 * gave (app/routes/auth/signup.tsx), when it is a path of this site. The claim page checks it again
 * before going there (a sign-up can also come straight to Better Auth's own endpoint).
 */
function returnPath(url: string): string | null {
	let callback: string | null
	try {
		callback = new URL(url).searchParams.get('callbackURL')
	} catch {
		return null
	}
	return callback && callback !== '/' && callback.startsWith('/') && !callback.startsWith('//') ? callback : null
}

export function createAuth(options: { db: Db; env: Env; secret: string; emails: AuthEmails; logger: Logger }) {
	const { db, env, secret, emails, logger } = options
	const adminEmails = new Set(env.ADMIN_EMAILS)
	const isListedAdmin = (user: { email: string; emailVerified?: boolean | null }) =>
		Boolean(user.emailVerified) && adminEmails.has(user.email.toLowerCase())
	const oidc =
		env.OIDC_ISSUER && env.OIDC_CLIENT_ID
			? [
					genericOAuth({
						config: [
							{
								providerId: 'oidc',
								name: env.OIDC_NAME,
								discoveryUrl: `${env.OIDC_ISSUER.replace(/\/+$/, '')}/.well-known/openid-configuration`,
								clientId: env.OIDC_CLIENT_ID,
								clientSecret: env.OIDC_CLIENT_SECRET,
								scopes: ['openid', 'email', 'profile'],
								pkce: true,
							},
						],
					}),
				]
			: []

	return betterAuth({
		appName: env.BAND_NAME,
		baseURL: env.SITE_URL,
		basePath: '/api/auth',
		secret,
		trustedOrigins: [env.SITE_URL],
		database: drizzleAdapter(db, {
			provider: 'pg',
			schema: {
				user: schema.user,
				session: schema.session,
				account: schema.account,
				verification: schema.verification,
			},
		}),
		emailAndPassword: {
			enabled: true,
			// Sign-up never says whether an address already has an account, and opens no session:
			// whoever proves control of the address (the link of the mail) is who signs in first.
			// See docs/decisions/0002-account-pre-hijacking.md.
			autoSignIn: false,
			requireEmailVerification: true,
			minPasswordLength: PASSWORD_MIN,
			maxPasswordLength: PASSWORD_MAX,
			// Better Auth's scrypt as it comes; only a test platform may lower its cost (NODE_ENV=test).
			...(env.TEST_PASSWORD_HASH_COST ? { password: scryptPasswords(env.TEST_PASSWORD_HASH_COST) } : {}),
			revokeSessionsOnPasswordReset: true,
			resetPasswordTokenExpiresIn: RESET_PASSWORD_TTL_SECONDS,
			sendResetPassword: async ({ user, token }) => {
				await emails.resetPassword(user, token)
			},
			onPasswordReset: async ({ user }) => {
				const t = getT()
				await emails.notice(
					'password-changed',
					user.email,
					t('settings.mail.passwordChanged.subject'),
					t('settings.mail.passwordChanged.title'),
					[t('settings.mail.passwordReset.body'), t('settings.mail.passwordNotYou')],
				)
			},
			onExistingUserSignUp: async ({ user }) => {
				await emails.existingAccountSignUp(user)
			},
		},
		emailVerification: {
			sendOnSignUp: true,
			// A password sign-in on an address not confirmed yet is refused, and the link sent again.
			sendOnSignIn: true,
			autoSignInAfterVerification: false,
			expiresIn: VERIFY_EMAIL_TTL_SECONDS,
			sendVerificationEmail: async ({ user, url, token }) => {
				// The same link verifies a new account and a changed address; the mail says which.
				const [stored] = await db.select({ email: schema.user.email }).from(schema.user).where(eq(schema.user.id, user.id))
				if (stored && stored.email !== user.email.toLowerCase()) await emails.changeEmail(user, user.email, token)
				else await emails.verifyEmail(user, token, returnPath(url))
			},
			afterEmailVerification: async (user) => {
				// The proof of the address ends every session opened before it: only the session the
				// verifier opens next (app/features/accounts/verification.server.ts) carries the account,
				// and the admin role ADMIN_EMAILS may give it.
				await db.delete(schema.session).where(eq(schema.session.userId, user.id))
				if (isListedAdmin({ email: user.email, emailVerified: true })) {
					await db.update(schema.user).set({ role: 'admin' }).where(eq(schema.user.id, user.id))
				}
			},
		},
		user: {
			additionalFields: {
				city: { type: 'string', required: false, input: false },
			},
			changeEmail: { enabled: true },
			deleteUser: { enabled: true },
		},
		account: {
			accountLinking: {
				enabled: true,
				// An external identity joins an existing account only when that account's address was
				// verified here (Better Auth's requireLocalEmailVerified, on by default), and only for
				// the same address.
				allowDifferentEmails: false,
				allowUnlinkingAll: false,
				// Never link a provider on its own at sign-in: someone may have registered the address
				// with a password first, and the owner confirming it later would hand them the account
				// (pre-registration takeover). A member links a provider from the settings, signed in.
				disableImplicitLinking: true,
			},
		},
		socialProviders: socialProviders(env),
		session: {
			expiresIn: SESSION_TTL_SECONDS,
			updateAge: 24 * 3600,
		},
		// A federated sign-in that fails comes back to the sign-in page, which explains the error code.
		onAPIError: { errorURL: `${env.SITE_URL}/auth/signin` },
		// Limits are ours (app/platform/rate-limit.server.ts), stored in the database for every instance.
		rateLimit: { enabled: false },
		advanced: {
			ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] },
			useSecureCookies: env.SITE_URL.startsWith('https://'),
		},
		// Better Auth's own messages go to the site's log, as JSON lines like everything else.
		logger: {
			level: 'warn',
			log: (level, message, ...args) => {
				const target = level === 'error' && /account_not_linked|state_mismatch|access_denied/.test(message) ? 'warn' : level
				logger[target]({ source: 'better-auth', details: args.length ? withoutSecrets(args) : undefined }, message)
			},
		},
		plugins: [admin({ defaultRole: 'user', adminRoles: ['admin'] }), ...oidc],
		// A change Better Auth makes to a session or an account (sign-out, revocations, password, e-mail,
		// role, ban, deletion) reaches the remembered sessions through the database's own signal
		// (app/platform/session-cache.server.ts), like every other write.
		databaseHooks: {
			user: {
				create: {
					before: async (user, context) => {
						// A federated identity creates an account only with an address its provider verified:
						// an unverified one could be anybody's.
						if (!user.emailVerified && context?.path !== '/sign-up/email') return false
						return { data: { ...user, role: isListedAdmin(user) ? 'admin' : 'user' } }
					},
				},
			},
			session: {
				create: {
					// The one place every session is made (password, provider, verification, reset): none for
					// an account whose address nobody has proved yet.
					before: async (session) => {
						const [owner] = await db
							.select({ emailVerified: schema.user.emailVerified })
							.from(schema.user)
							.where(eq(schema.user.id, session.userId))
						return Boolean(owner?.emailVerified)
					},
				},
			},
		},
	})
}

export type Auth = ReturnType<typeof createAuth>
