import { describe, expect, it } from 'vitest'
import { contrastRatio, textColourOn } from './colour.ts'

describe('contrastRatio (WCAG)', () => {
	it('gives the known reference values', () => {
		expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5)
		expect(contrastRatio('#ffffff', '#ffffff')).toBeCloseTo(1, 5)
		// The classic AA borderline: #777 on white is just under 4.5.
		expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2)
		expect(contrastRatio('#767676', '#ffffff')).toBeGreaterThanOrEqual(4.5)
	})

	it('does not depend on the order or the case of the colours', () => {
		expect(contrastRatio('#FF5A36', '#000000')).toBeCloseTo(contrastRatio('#000000', '#ff5a36'), 10)
	})
})

describe('textColourOn', () => {
	it.each([
		['#ff5a36', '#000000'],
		['#ffff00', '#000000'],
		['#ffffff', '#000000'],
		['#1d4ed8', '#ffffff'],
		['#000000', '#ffffff'],
		['#7c3aed', '#ffffff'],
	])('on %s writes in %s', (background, expected) => {
		expect(textColourOn(background)).toBe(expected)
	})

	it('always picks a colour that reads at least 4.5:1... or the best one there is', () => {
		for (let grey = 0; grey < 256; grey += 5) {
			const hex = `#${grey.toString(16).padStart(2, '0').repeat(3)}`
			const chosen = contrastRatio(hex, textColourOn(hex))
			const other = contrastRatio(hex, textColourOn(hex) === '#000000' ? '#ffffff' : '#000000')
			expect(chosen, hex).toBeGreaterThanOrEqual(other)
			// Between black and white, one of the two always reaches 4.5 (the worst case is about 4.58).
			expect(chosen, hex).toBeGreaterThanOrEqual(4.5)
		}
	})
})
