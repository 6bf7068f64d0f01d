import { describe, expect, it } from 'vitest'
import { frenchInteger } from './french-integer.ts'

describe('frenchInteger', () => {
	it('writes what toLocaleString("fr-FR") writes, without Intl', () => {
		for (const value of [0, 7, 42, 999, 1000, 5000, 50_000, 123_456, 1_000_000, 987_654_321, -1234]) {
			expect(frenchInteger(value)).toBe(value.toLocaleString('fr-FR'))
		}
	})
	it('leaves a fraction to Intl', () => {
		expect(frenchInteger(1234.5)).toBe((1234.5).toLocaleString('fr-FR'))
	})
})
