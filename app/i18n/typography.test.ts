import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

/*
 * French typography in the one locale file: a space before « : ; ! ? », and inside « », is a
 * non-breaking one (U+00A0, or the narrow U+202F), so a line never starts with a colon or a
 * guillemet on a small screen (« déjà saisi / : il ne reste qu’à valider »).
 */
const translationFile = path.resolve(import.meta.dirname, '../../public/locales/fr-FR/translation.json')

/** Every string of the file, with its dotted key. */
function strings(tree: unknown, prefix = ''): Array<[string, string]> {
	if (typeof tree === 'string') return [[prefix, tree]]
	if (typeof tree !== 'object' || tree === null) return []
	return Object.entries(tree).flatMap(([key, value]) => strings(value, prefix ? `${prefix}.${key}` : key))
}

/** A breaking space (or none at all after a word) where French wants a non-breaking one. */
const BREAKING = /[ \t](?=[:;!?»])|«(?=[ \t])/

export function breakingSpaces(tree: unknown): string[] {
	return strings(tree)
		.filter(([, value]) => BREAKING.test(value))
		.map(([key, value]) => `${key}: ${JSON.stringify(value)}`)
}

describe('the locale file’s typography', () => {
	it('has a non-breaking space before every « : ; ! ? » and inside every « »', () => {
		const tree: unknown = JSON.parse(fs.readFileSync(translationFile, 'utf8'))
		expect(strings(tree).length).toBeGreaterThan(1000)
		expect(breakingSpaces(tree)).toEqual([])
	})

	it('finds a plain space before a colon, a question mark and a closing guillemet', () => {
		expect(
			breakingSpaces({ a: 'Le code est déjà saisi : validez.', b: { c: 'Vraiment ?' }, d: '« Publier »', e: 'Fin\u00a0: ok\u202f!' }),
		).toEqual(['a: "Le code est déjà saisi : validez."', 'b.c: "Vraiment ?"', 'd: "« Publier »"'])
	})
})
