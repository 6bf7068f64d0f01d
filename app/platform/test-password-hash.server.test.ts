import { hashPassword, verifyPassword } from 'better-auth/crypto'
import { describe, expect, it } from 'vitest'
import { parseEnv } from './env.server.ts'
import { scryptPasswords } from './test-password-hash.server.ts'

describe('the tests’ password hashing', () => {
	it('is Better Auth’s scheme: at its cost, each side verifies what the other hashed', async () => {
		const same = scryptPasswords(16_384)
		expect(await verifyPassword({ hash: await same.hash('cheval agrafe pile'), password: 'cheval agrafe pile' })).toBe(true)
		expect(await same.verify({ hash: await hashPassword('cheval agrafe pile'), password: 'cheval agrafe pile' })).toBe(true)
	})

	it('at a low cost, accepts the password and refuses any other', async () => {
		const cheap = scryptPasswords(1024)
		const hash = await cheap.hash('cheval agrafe pile')
		expect(hash).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/)
		expect(await cheap.verify({ hash, password: 'cheval agrafe pile' })).toBe(true)
		expect(await cheap.verify({ hash, password: 'cheval agrafe pilE' })).toBe(false)
		expect(await cheap.verify({ hash: 'pas un hachage', password: 'cheval agrafe pile' })).toBe(false)
	})

	it('is chosen under NODE_ENV=test only: no server can be told to hash passwords cheaply', () => {
		expect(parseEnv({ NODE_ENV: 'test', TEST_PASSWORD_HASH_COST: '1024' }).TEST_PASSWORD_HASH_COST).toBe(1024)
		expect(parseEnv({ NODE_ENV: 'production', TEST_PASSWORD_HASH_COST: '1024' }).TEST_PASSWORD_HASH_COST).toBeUndefined()
		expect(parseEnv({ TEST_PASSWORD_HASH_COST: '1024' }).TEST_PASSWORD_HASH_COST).toBeUndefined()
		expect(() => parseEnv({ NODE_ENV: 'test', TEST_PASSWORD_HASH_COST: '1000' })).toThrow(/TEST_PASSWORD_HASH_COST/)
	})
})
