import { and, eq, gt } from 'drizzle-orm'
import type { Db } from '#app/platform/db/client.server.ts'
import { user, verification } from '#app/platform/db/schema.ts'

/** The shape every e-mailed token has (random or signed, URL-safe); anything else is refused unread. */
export const TOKEN_PATTERN = /^[A-Za-z0-9._-]{16,2048}$/

/** Whether a password-reset token is still waiting to be used (Better Auth keeps it until then). */
export async function isResetTokenLive(db: Db, token: string): Promise<boolean> {
	if (!TOKEN_PATTERN.test(token)) return false
	const [row] = await db
		.select({ id: verification.id })
		.from(verification)
		.where(and(eq(verification.identifier, `reset-password:${token}`), gt(verification.expiresAt, new Date())))
		.limit(1)
	return Boolean(row)
}

/** Whose password a live reset token would change (Better Auth keeps the user's id as its value). */
export async function resetTokenOwner(db: Db, token: string): Promise<{ email: string; name: string } | null> {
	if (!TOKEN_PATTERN.test(token)) return null
	const [row] = await db
		.select({ email: user.email, name: user.name })
		.from(verification)
		.innerJoin(user, eq(user.id, verification.value))
		.where(and(eq(verification.identifier, `reset-password:${token}`), gt(verification.expiresAt, new Date())))
		.limit(1)
	return row ?? null
}
