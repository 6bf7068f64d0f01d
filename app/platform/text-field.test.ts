import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { getT } from './i18n.server.ts'
import { hasUnsafeCharacters, textField, unsafeTextMessage, withoutUnsafeCharacters } from './text-field.ts'

describe('textField', () => {
	it('refuses a NUL byte, other control characters and bidi overrides, in French', () => {
		for (const bad of ['a\u0000b', 'a\u0007', '\u001b[31m', 'x\u007f', 'x\u0085', 'gpj\u202eexe', '\u2066a\u2069', 'a\nb', 'a\tb']) {
			const result = textField().trim().max(80).safeParse(bad)
			expect(result.success, JSON.stringify(bad)).toBe(false)
			expect(result.error?.issues[0]?.message).toBe(getT()('errors.form.unsafeText'))
			expect(unsafeTextMessage()).toContain('caractères invisibles')
		}
	})
	it('keeps line breaks and tabs in multi-line text, and refuses the rest', () => {
		expect(textField({ multiline: true }).safeParse('Ligne 1\r\nLigne 2\n\tretrait').success).toBe(true)
		expect(textField({ multiline: true }).safeParse('a\u0000').success).toBe(false)
		expect(textField({ multiline: true }).safeParse('a\u202e').success).toBe(false)
	})
	it('accepts every ordinary text: accents, emoji, right-to-left scripts, non-breaking spaces', () => {
		for (const good of ['Élodie Œuvre', 'Les Étoiles 🎸', 'فرقة', 'שלום', '12\u00a0€', 'l’été « là »', 'a\u200db'])
			expect(textField().trim().safeParse(good).success, good).toBe(true)
	})
	it('chains like z.string(), with its own message for a missing value', () => {
		const schema = z.object({ name: textField({ error: 'Indiquez un nom.' }).trim().min(1, 'Indiquez un nom.') })
		expect(schema.safeParse({}).error?.issues[0]?.message).toBe('Indiquez un nom.')
		expect(schema.parse({ name: '  Zoé  ' })).toEqual({ name: 'Zoé' })
	})
	it('cleans a search text instead of refusing it', () => {
		expect(withoutUnsafeCharacters('con\u0000cert\u202e')).toBe('concert')
		expect(hasUnsafeCharacters('concert')).toBe(false)
	})
})
