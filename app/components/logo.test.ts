import { describe, expect, test } from 'vitest'
import { initials } from './logo.tsx'

describe('the monogram’s letters', () => {
	test('one word: its first letter; more: the first letters of the first two that count', () => {
		expect(initials('Mira')).toBe('M')
		expect(initials('Les Nuits Fauves')).toBe('NF')
		expect(initials('The Black Keys')).toBe('BK')
		expect(initials("L'Impératrice")).toBe('I')
		expect(initials('élan vital')).toBe('ÉV')
	})

	test('asked again, or for another name in between, the answer follows the name', () => {
		expect(initials('Les Nuits Fauves')).toBe('NF')
		expect(initials('Mira')).toBe('M')
		expect(initials('Les Nuits Fauves')).toBe('NF')
		expect(initials('')).toBe('?')
		expect(initials('   ')).toBe('?')
	})
})
