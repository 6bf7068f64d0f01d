import { describe, expect, it } from 'vitest'
import { CODE_ALPHABET, CODE_BITS, CODE_LENGTH, formatCode, normalizeCode } from './code-format.ts'
import { randomCodes } from './generate.server.ts'

describe('code format', () => {
	it('has no look-alike characters and at least 50 bits', () => {
		for (const ch of 'ILOU01') expect(CODE_ALPHABET).not.toContain(ch)
		expect(CODE_BITS).toBeGreaterThanOrEqual(50)
	})

	it('reads what people type: case, spaces and dashes do not matter', () => {
		expect(normalizeCode('abcd-efgh-jkmn')).toBe('ABCDEFGHJKMN')
		expect(normalizeCode('  ABCD EFGH  JKMN ')).toBe('ABCDEFGHJKMN')
		expect(normalizeCode('abcd—efgh–jkmn')).toBe('ABCDEFGHJKMN')
		expect(normalizeCode('ＡＢＣＤ-ＥＦＧＨ-ＪＫＭＮ')).toBe('ABCDEFGHJKMN')
	})

	it('refuses what cannot be a code', () => {
		expect(normalizeCode('AB')).toBeNull()
		expect(normalizeCode('A'.repeat(200))).toBeNull()
		expect(normalizeCode('🎸🎸🎸🎸🎸🎸🎸🎸🎸')).toBeNull()
		expect(normalizeCode("' OR 1=1; --")).toBeNull()
		expect(normalizeCode('ABCD<EFGH>JKMN')).toBeNull()
	})

	it('groups by four', () => {
		expect(formatCode('ABCDEFGHJKMN')).toBe('ABCD-EFGH-JKMN')
		expect(formatCode('ABCDEFGHJ')).toBe('ABCD-EFGH-J')
	})

	it('generates codes of the alphabet, evenly spread', () => {
		const codes = randomCodes(20_000)
		expect(new Set(codes).size).toBe(codes.length)
		const counts = new Map<string, number>()
		for (const code of codes) {
			expect(code).toMatch(new RegExp(`^[${CODE_ALPHABET}]{${CODE_LENGTH}}$`))
			for (const ch of code) counts.set(ch, (counts.get(ch) ?? 0) + 1)
		}
		const expected = (codes.length * CODE_LENGTH) / CODE_ALPHABET.length
		for (const ch of CODE_ALPHABET) expect(Math.abs(counts.get(ch)! - expected) / expected).toBeLessThan(0.05)
	})
})
