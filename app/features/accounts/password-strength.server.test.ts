import { describe, expect, it } from 'vitest'
import { passwordWeakness } from './password-strength.server.ts'

const TOO_COMMON = 'Ce mot de passe est trop courant. Choisissez-en un autre, par exemple une phrase de quelques mots.'
const PERSONAL = 'Le mot de passe ne doit pas reprendre votre nom ou votre adresse e-mail.'

describe('passwordWeakness', () => {
	it.each(['correct cheval agrafe pile', 'Le train de 8 h 12 sent le café', 'zorglub-mistral-4417', 'kV9#pq2!Lw0z'])(
		'accepts %j',
		(password) => {
			expect(passwordWeakness(password, { email: 'ada@exemple.fr', name: 'Ada' })).toBeNull()
		},
	)

	it.each([
		['a leaked password', 'password1234'],
		['a leaked password, in capitals', 'PASSWORD1234'],
		['a keyboard walk', 'azertyuiop12'],
		['a leaked password with decorations', '!!azertyuiop2026!!'],
		['a French word with digits', 'chocolat2026'],
		['a French word with symbols on both ends', '***musique***'],
		['an accented French word', 'félicitations'],
		['an accented French word, capitalised and decorated', 'Félicitations2026!'],
		['another accented word', 'bibliothèque!!'],
		['one character repeated', 'aaaaaaaaaaaa'],
		['three characters', 'abcabcabccba'],
		['a repeated motif', 'azerazerazer'],
		['a repeated longer motif', 'xk7qxk7qxk7q'],
		['digits only', '121212121212'],
	])('refuses %s', (_label, password) => {
		expect(passwordWeakness(password)).toBe(TOO_COMMON)
	})

	it.each([
		['a keyboard walk zxcvbn knows (qwerty)', 'qwertyuiop123'],
		['a sequence', 'abcdefghijklm'],
		['a date with a word', 'juillet14071989'],
	])('refuses %s as easy to guess', (_label, password) => {
		expect(passwordWeakness(password)).not.toBeNull()
	})

	it('says why zxcvbn refuses what the lists let through', () => {
		expect(passwordWeakness('abcdefghijklm')).toMatch(/facile à deviner/)
	})

	it('refuses the e-mail address’s local part', () => {
		expect(passwordWeakness('xx-jean.dupont-4417', { email: 'jean.dupont@exemple.fr' })).toBe(PERSONAL)
		expect(passwordWeakness('XX-JEAN.DUPONT-4417', { email: 'jean.dupont@exemple.fr' })).toBe(PERSONAL)
	})

	it('does not refuse a short local part that happens to appear', () => {
		expect(passwordWeakness('zorglub-ada-mistral', { email: 'ada@exemple.fr' })).toBeNull()
	})

	it('refuses the name, decorated', () => {
		expect(passwordWeakness('Zorglubette2026!', { name: 'Zorglubette' })).toBe(PERSONAL)
		expect(passwordWeakness('Zorglubette2026!', { name: 'Quelqu’un' })).toBeNull()
	})
})
