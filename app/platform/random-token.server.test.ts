import { describe, expect, test } from 'vitest'
import { randomToken } from './random-token.server.ts'

describe('randomToken', () => {
	test('gives the length asked for, in the encoding asked for', () => {
		expect(randomToken(12)).toMatch(/^[A-Za-z0-9_-]{16}$/)
		expect(randomToken(16, 'base64')).toMatch(/^[A-Za-z0-9+/]{22}==$/)
		expect(Buffer.from(randomToken(32), 'base64url')).toHaveLength(32)
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
