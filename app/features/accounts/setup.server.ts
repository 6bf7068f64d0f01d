import { and, eq, ne } from 'drizzle-orm'
import type { Db } from '#app/platform/db/client.server.ts'
import { siteSetting, user } from '#app/platform/db/schema.ts'
import type { Platform } from '#app/platform/platform.server.ts'
import { hashToken, newSecret, sameSecret } from '#app/platform/random-token.server.ts'

/*
 * First run: while the site has no administrator, the server prints a one-time link in its log
 * (only the operator reads it). Opening it creates the first admin account, or makes the signed-in
 * account an admin. A new link replaces the old one at every start; using it deletes it.
 */
const SETTING = 'setup_token'
const TTL_MS = 7 * 24 * 3600 * 1000

/** Whether some account is an admin (other than `except`, the one a set-up is completing for). */
export async function hasAdmin(db: Db, except?: string): Promise<boolean> {
	const [row] = await db
		.select({ id: user.id })
		.from(user)
		.where(except ? and(eq(user.role, 'admin'), ne(user.id, except)) : eq(user.role, 'admin'))
		.limit(1)
	return Boolean(row)
}

/** At start: no admin yet, so a fresh set-up link is made. Returns the link (the server prints it), if any. */
export async function announceSetupLink(platform: Platform): Promise<string | null> {
	const { database, env } = platform
	if (await hasAdmin(database.db)) {
		await database.db.delete(siteSetting).where(eq(siteSetting.key, SETTING))
		return null
	}
	const token = newSecret()
	// Its hash kept in hex, as before (the link is made anew at every start anyway).
	const value = JSON.stringify({ hash: hashToken(token, 'hex'), expiresAt: Date.now() + TTL_MS })
	await database.db.insert(siteSetting).values({ key: SETTING, value }).onConflictDoUpdate({ target: siteSetting.key, set: { value } })
	return `${env.SITE_URL}/auth/claim?mode=setup&token=${token}`
}

/**
 * Whether this set-up token is the current one, unexpired, and the site still has no admin. `forUser`
 * is the account the set-up completes for: an address listed in ADMIN_EMAILS is an admin from its
 * creation (app/platform/auth.server.ts), and that account alone must not spend the link for nothing.
 */
export async function isSetupTokenValid(db: Db, token: string, forUser?: string): Promise<boolean> {
	const [row] = await db.select({ value: siteSetting.value }).from(siteSetting).where(eq(siteSetting.key, SETTING))
	if (!row) return false
	let stored: { hash: string; expiresAt: number }
	try {
		stored = JSON.parse(row.value)
	} catch {
		return false
	}
	if (typeof stored.hash !== 'string' || !sameSecret(hashToken(token, 'hex'), stored.hash)) return false
	if (Date.now() > stored.expiresAt) return false
	return !(await hasAdmin(db, forUser))
}

/** Spends the token (single use) and makes the account an admin, in one transaction. */
export async function completeSetup(db: Db, token: string, userId: string): Promise<boolean> {
	if (!(await isSetupTokenValid(db, token, userId))) return false
	return db.transaction(async (tx) => {
		const deleted = await tx.delete(siteSetting).where(eq(siteSetting.key, SETTING)).returning({ key: siteSetting.key })
		if (deleted.length === 0) return false
		await tx.update(user).set({ role: 'admin' }).where(eq(user.id, userId))
		return true
	})
}
