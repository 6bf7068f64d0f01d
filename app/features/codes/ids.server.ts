import { createHash, randomBytes } from 'node:crypto'

/** A random identifier of 16 URL-safe characters (96 bits). */
export function newId(): string {
	return randomBytes(12).toString('base64url')
}

/** An unguessable token for a link (256 bits), and what the database keeps of it. */
export function newToken(): { token: string; hash: string } {
	const token = randomBytes(32).toString('base64url')
	return { token, hash: hashToken(token) }
}

export function hashToken(token: string): string {
	return createHash('sha256').update(token).digest('base64url')
}
