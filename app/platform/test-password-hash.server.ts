import { scrypt } from 'node:crypto'
import { randomToken, sameSecret } from './random-token.server.ts'

/**
 * Better Auth's own password scheme (scrypt, r = 16, p = 1, a 64-byte key, stored as `salt:key` in
 * hex) at another cost N than its 16,384. Tests only: the platform uses it when
 * TEST_PASSWORD_HASH_COST is set, which parseEnv keeps under NODE_ENV=test alone; every other
 * server hashes with Better Auth's default.
 */
export function scryptPasswords(cost: number) {
	const derive = (password: string, salt: string) =>
		new Promise<Buffer>((resolve, reject) =>
			scrypt(password.normalize('NFKC'), salt, 64, { N: cost, r: 16, p: 1, maxmem: 128 * cost * 16 * 2 }, (error, key) =>
				error ? reject(error) : resolve(key),
			),
		)
	return {
		async hash(password: string): Promise<string> {
			const salt = randomToken(16, 'hex')
			return `${salt}:${(await derive(password, salt)).toString('hex')}`
		},
		async verify({ hash, password }: { hash: string; password: string }): Promise<boolean> {
			const [salt, key] = hash.split(':')
			if (!salt || !key) return false
			return sameSecret((await derive(password, salt)).toString('hex'), key.toLowerCase())
		},
	}
}
