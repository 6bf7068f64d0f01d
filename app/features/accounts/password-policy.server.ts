import type { z } from 'zod'
import { PASSWORD_MAX, PASSWORD_MIN } from '#app/platform/password-limits.ts'

/**
 * The server's check of a new password, as a Zod refinement of a form's schema: the reason goes
 * next to the password field. `who` names the account (its address and name), when known.
 *
 * The check itself (password-strength.server.ts) is imported here, on the first password checked: its
 * dictionaries (common passwords, French words: 1 MB of the server's code) are decompressed as their
 * packages are evaluated, work that only sign-ups and password changes need, and that held up every
 * start of the server before its first answer.
 */
export async function refuseWeakPassword<Value>(key: keyof Value & string, who: (value: Value) => { email?: string; name?: string }) {
	const { passwordWeakness } = await import('./password-strength.server.ts')
	return (value: Value, ctx: z.RefinementCtx) => {
		const password = String(value[key] ?? '')
		// One message at a time: a password of the wrong length already has its own.
		if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) return
		const weakness = passwordWeakness(password, who(value))
		if (weakness) ctx.addIssue({ code: 'custom', path: [key], message: weakness })
	}
}
