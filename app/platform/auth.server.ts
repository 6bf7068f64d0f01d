import { betterAuth } from 'better-auth'
import { drizzleAdapter } from 'better-auth/adapters/drizzle'
import { admin } from 'better-auth/plugins'
import { randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { Db } from './db/client.server.ts'
import * as schema from './db/schema.ts'
import type { Env } from './env.server.ts'

/** The header our HTTP server sets to the real client address (never taken from the client). */
export const CLIENT_ADDRESS_HEADER = 'x-client-address'

export const PASSWORD_MIN_LENGTH = 12
export const PASSWORD_MAX_LENGTH = 128

/** The auth secret: from AUTH_SECRET, else generated once and kept in the database for every instance. */
export async function resolveAuthSecret(db: Db, env: Env): Promise<string> {
	if (env.AUTH_SECRET) return env.AUTH_SECRET
	await db
		.insert(schema.siteSetting)
		.values({ key: 'auth_secret', value: randomBytes(32).toString('base64url') })
		.onConflictDoNothing()
	const [row] = await db
		.select({ value: schema.siteSetting.value })
		.from(schema.siteSetting)
		.where(eq(schema.siteSetting.key, 'auth_secret'))
	if (!row) throw new Error('auth secret could not be stored')
	return row.value
}

export function createAuth(options: { db: Db; env: Env; secret: string }) {
	const { db, env, secret } = options
	const adminEmails = new Set(env.ADMIN_EMAILS)
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
			autoSignIn: true,
			minPasswordLength: PASSWORD_MIN_LENGTH,
			maxPasswordLength: PASSWORD_MAX_LENGTH,
			revokeSessionsOnPasswordReset: true,
		},
		user: {
			additionalFields: {
				city: { type: 'string', required: false, input: false },
			},
		},
		session: {
			expiresIn: 60 * 60 * 24 * 30,
			updateAge: 60 * 60 * 24,
		},
		advanced: {
			ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] },
			useSecureCookies: env.SITE_URL.startsWith('https://'),
		},
		plugins: [admin({ defaultRole: 'user', adminRoles: ['admin'] })],
		databaseHooks: {
			user: {
				create: {
					before: async (user) => ({
						data: {
							...user,
							role: adminEmails.has(user.email.toLowerCase()) ? 'admin' : 'user',
						},
					}),
				},
			},
		},
	})
}

export type Auth = ReturnType<typeof createAuth>
