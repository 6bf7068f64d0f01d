import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { refuseWeakPassword } from './password-policy.server.ts'

describe('refuseWeakPassword', () => {
	it('refuses a weak password next to its field, once its dictionaries are loaded', async () => {
		const schema = z
			.object({ email: z.string(), password: z.string() })
			.superRefine(await refuseWeakPassword('password', (value) => ({ email: value.email })))
		const weak = schema.safeParse({ email: 'ada@exemple.fr', password: 'chocolat2026' })
		expect(weak.success).toBe(false)
		expect(weak.error?.issues).toEqual([expect.objectContaining({ path: ['password'], message: expect.stringMatching(/trop courant/) })])
		expect(schema.safeParse({ email: 'jean.dupont@exemple.fr', password: 'xx-jean.dupont-4417' }).error?.issues[0]?.message).toMatch(
			/votre nom/,
		)
		expect(schema.safeParse({ email: 'ada@exemple.fr', password: 'zorglub-mistral-4417' }).success).toBe(true)
	})

	it('leaves a password of the wrong length to its own message', async () => {
		const schema = z.object({ password: z.string() }).superRefine(await refuseWeakPassword('password', () => ({})))
		expect(schema.safeParse({ password: 'aaaa' }).success).toBe(true)
	})
})
