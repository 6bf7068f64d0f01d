import { describe, expect, test } from 'vitest'
import { createHash, createHmac } from 'node:crypto'
import { hashToken, hmac, newId, newLinkToken, newSecret, newShortId, randomToken, sameSecret } from './random-token.server.ts'

describe('randomToken', () => {
	test('gives the length asked for, in the encoding asked for', () => {
		expect(randomToken(12)).toMatch(/^[A-Za-z0-9_-]{16}$/)
		expect(randomToken(16, 'base64')).toMatch(/^[A-Za-z0-9+/]{22}==$/)
		expect(Buffer.from(randomToken(32), 'base64url')).toHaveLength(32)
		expect(randomToken(12, 'hex')).toMatch(/^[0-9a-f]{24}$/)
	})

	test('never hands out the same bytes twice, across many refills of the pool', () => {
		// 20,000 × 12 bytes is some 60 refills of the 4 kB pool; sizes that do not divide it cross its end.
		const seen = new Set<string>()
		for (let i = 0; i < 20_000; i++) seen.add(randomToken(i % 2 === 0 ? 12 : 13))
		expect(seen.size).toBe(20_000)
	})

	test('its bytes look uniform', () => {
		const counts = Array.from({ length: 256 }, () => 0)
		for (let i = 0; i < 2_000; i++) for (const byte of Buffer.from(randomToken(64), 'base64url')) counts[byte]! += 1
		// 128,000 bytes: 500 expected per value; a stuck or zero-filled pool is far outside this.
		expect(Math.min(...counts)).toBeGreaterThan(350)
		expect(Math.max(...counts)).toBeLessThan(650)
	})

	test('refuses sizes it was not made for', () => {
		for (const bytes of [0, -1, 1.5, 257, Number.NaN]) expect(() => randomToken(bytes)).toThrow(RangeError)
	})
})

describe('ids, secrets and what the database keeps of them', () => {
	test('ids and secrets have the sizes their columns and links expect', () => {
		expect(newId()).toMatch(/^[A-Za-z0-9_-]{16}$/)
		expect(newShortId()).toMatch(/^[A-Za-z0-9_-]{12}$/)
		expect(newSecret()).toMatch(/^[A-Za-z0-9_-]{43}$/)
		expect(new Set(Array.from({ length: 1000 }, newShortId)).size).toBe(1000)
	})

	test('a token’s hash is its SHA-256, in the encoding its column has always kept', () => {
		// Hashes stored before this module existed must still match: codes' links in base64url, the
		// newsletter's confirmation links and the set-up link in hex.
		const token = 'jeton-de-test'
		expect(hashToken(token)).toBe(createHash('sha256').update(token).digest('base64url'))
		expect(hashToken(token, 'hex')).toBe(createHash('sha256').update(token).digest('hex'))
		// FIPS 180-2's test vector for « abc ».
		expect(hashToken('abc', 'hex')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
		expect(Buffer.from(hashToken('abc'), 'base64url').toString('hex')).toBe(hashToken('abc', 'hex'))
		const { token: link, hash } = newLinkToken()
		expect(hash).toBe(hashToken(link))
		expect(hash).not.toContain(link)
	})

	test('an HMAC is HMAC-SHA256 in base64url, under a text or a binary key', () => {
		expect(hmac('secret', 'message')).toBe(createHmac('sha256', 'secret').update('message').digest('base64url'))
		const key = Buffer.alloc(32, 7)
		expect(hmac(key, 'a\nb')).toBe(createHmac('sha256', key).update('a\nb').digest('base64url'))
	})

	test('compares secrets: the same text only, never an empty expected one', () => {
		const secret = newSecret()
		expect(sameSecret(secret, secret)).toBe(true)
		expect(sameSecret(`${secret}x`, secret)).toBe(false)
		expect(sameSecret(secret.slice(0, -1), secret)).toBe(false)
		expect(sameSecret('', secret)).toBe(false)
		expect(sameSecret('', '')).toBe(false)
		expect(sameSecret('anything', '')).toBe(false)
		// Another spelling of the same bytes is not the same signature.
		expect(sameSecret(Buffer.from('abc').toString('base64'), Buffer.from('abc').toString('base64url'))).toBe(true)
		expect(sameSecret('YWJj=', 'YWJj')).toBe(false)
	})
})
