import { describe, expect, it } from 'vitest'
import { parseProfileUpdate } from './profile.server.ts'
import { CITY_MAX, NAME_MAX } from './rules.ts'

describe('parseProfileUpdate (the updateUserData payload)', () => {
	it('accepts values to set and fields to clear', () => {
		expect(parseProfileUpdate({ values: { name: '  Ada Lovelace ', city: 'Lyon' } })).toEqual({
			ok: true,
			values: { name: 'Ada Lovelace', city: 'Lyon' },
			clear: [],
		})
		expect(parseProfileUpdate({ valuesToClear: ['city', 'image'] })).toEqual({ ok: true, values: {}, clear: ['city', 'image'] })
		expect(parseProfileUpdate({ values: { name: 'Ada' }, valuesToClear: ['city'] })).toEqual({
			ok: true,
			values: { name: 'Ada' },
			clear: ['city'],
		})
	})

	it('accepts an empty update', () => {
		expect(parseProfileUpdate({})).toEqual({ ok: true, values: {}, clear: [] })
	})

	it.each([
		['role', { values: { role: 'admin' } }],
		['id', { values: { id: 'someone-else' } }],
		['email', { values: { email: 'new@exemple.fr' } }],
		['emailVerified', { values: { emailVerified: true } }],
		['banned', { values: { banned: false } }],
		['image', { values: { image: 'https://evil.example/x.png' } }],
		// Names every plain object inherits: still unknown fields, not a crash.
		['__proto__', JSON.parse('{"values": {"__proto__": {"role": "admin"}}}')],
		['constructor', { values: { constructor: 'x' } }],
		['toString', { values: { toString: 'x' } }],
		['hasOwnProperty', { values: { hasOwnProperty: 'x' } }],
	])('refuses to set %s, naming the field', (field, body) => {
		const result = parseProfileUpdate(body)
		expect(result).toMatchObject({ ok: false, field })
		expect(result.ok === false && result.reason).toContain(field)
	})

	it.each([
		['role', { valuesToClear: ['role'] }],
		['email', { valuesToClear: ['email'] }],
		['name', { valuesToClear: ['name'] }],
		['42', { valuesToClear: [42] }],
	])('refuses to clear %s, naming the field', (field, body) => {
		expect(parseProfileUpdate(body)).toMatchObject({ ok: false, field })
	})

	it('refuses an unknown top-level field, naming it', () => {
		const result = parseProfileUpdate({ values: { name: 'Ada' }, role: 'admin' })
		expect(result).toEqual({ ok: false, field: 'role', reason: 'Champ inconnu : role.' })
	})

	it('refuses a field both set and cleared', () => {
		expect(parseProfileUpdate({ values: { city: 'Lyon' }, valuesToClear: ['city'] })).toMatchObject({ ok: false, field: 'city' })
	})

	it.each([
		['a string', 'hello', '(body)'],
		['an array', [], '(body)'],
		['null', null, '(body)'],
		['values as an array', { values: ['name'] }, 'values'],
		['values as a string', { values: 'name=Ada' }, 'values'],
		['valuesToClear as a string', { valuesToClear: 'city' }, 'valuesToClear'],
	])('refuses %s', (_label, body, field) => {
		expect(parseProfileUpdate(body)).toMatchObject({ ok: false, field })
	})

	it('checks the values themselves, in French', () => {
		expect(parseProfileUpdate({ values: { name: '   ' } })).toEqual({
			ok: false,
			field: 'name',
			reason: 'Le nom ne peut pas être vide.',
		})
		expect(parseProfileUpdate({ values: { name: 'x'.repeat(NAME_MAX + 1) } })).toMatchObject({ ok: false, field: 'name' })
		expect(parseProfileUpdate({ values: { name: 'x'.repeat(NAME_MAX) } })).toMatchObject({ ok: true })
		expect(parseProfileUpdate({ values: { city: 'x'.repeat(CITY_MAX + 1) } })).toEqual({
			ok: false,
			field: 'city',
			reason: `La ville ne peut pas dépasser ${CITY_MAX} caractères.`,
		})
		expect(parseProfileUpdate({ values: { city: 42 } })).toEqual({ ok: false, field: 'city', reason: '« city » doit être un texte.' })
	})
})
