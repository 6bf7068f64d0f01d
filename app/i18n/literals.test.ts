import fs from 'node:fs'
import path from 'node:path'
import { parseSync } from 'vite'
import { describe, expect, it } from 'vitest'

/*
 * Every French string a person reads lives in the one locale file: a sentence written in the code
 * escapes the locale file's typography check, its key check and any later translation. This scans
 * app/, server/ and the data tools' command line (tests aside) and refuses the text written out there: any text between JSX
 * tags, any text attribute (a label, a title, an alt…), and any string that reads as French (an
 * accented letter, guillemets, or a French word among others). What is French but not for people
 * to read (an accent table, a word list, an identifier) is allowed below, each with its reason.
 */
const repoDir = path.resolve(import.meta.dirname, '../..')
const SCANNED = ['app', 'server']
/** The command-line front of the site's data tools (app/platform/ops), which speaks to the operator. */
const SCANNED_FILES = ['scripts/site-data.ts']

/** French for « the text has an accent, guillemets, French spacing, or, as a phrase, a French word ». */
const ACCENTED = /[àâçéèêëîïôûùüÿœæ«»]/i
const FRENCH_WORD =
	/(?<![\w-])(?:le|la|les|des|du|une|est|sont|pas|vous|votre|vos|nous|notre|pour|avec|dans|sur|aux|au|cette|ces|qui|que|plus|moins|et|ou|de|un|ne|mon|ma|mes|son|sa|ses|se|en|par|il|elle|ils|je|leur|ce|bonjour|merci|lien|compte|adresse|fichier|fichiers|erreur|mot|passe|aucun|aucune|trop|sans|puis|mais|inconnu|inconnue|nouveau|nouvelle|appareil|commande|sujet)(?![\w-])/i

/** JSX attributes whose value is read (or heard) by a person. */
const TEXT_ATTRIBUTES = new Set([
	'label',
	'title',
	'alt',
	'placeholder',
	'aria-label',
	'aria-description',
	'aria-roledescription',
	'preview',
	'description',
])

/** French typography: a space before « : ; ! ? » (English has none). */
const SPACED_PUNCTUATION = /[^\s]\s[:;!?](\s|$)/

export function readsAsFrench(text: string): boolean {
	return ACCENTED.test(text) || SPACED_PUNCTUATION.test(text) || (/\s/.test(text.trim()) && FRENCH_WORD.test(text))
}

type AstNode = { type: string; start: number; end: number; [key: string]: unknown }

export interface Literal {
	line: number
	text: string
	/** jsx: text between tags; attribute: a text attribute; string: a string or template literal. */
	kind: 'jsx' | 'attribute' | 'string'
}

/** The children of a node that may hold text, leaving out what is code rather than text (module paths, types, keys). */
function* childrenOf(node: AstNode): Generator<AstNode> {
	for (const [field, value] of Object.entries(node)) {
		if (field === 'source' && /^(Import|Export)/.test(node.type)) continue
		if (node.type === 'ImportExpression' && field === 'source') continue
		if (
			(node.type === 'Property' || node.type === 'PropertyDefinition' || node.type === 'MethodDefinition') &&
			field === 'key' &&
			!node.computed
		)
			continue
		if (field === 'typeAnnotation' || field === 'typeParameters' || field === 'typeArguments' || node.type.startsWith('TS')) {
			// Type-level strings ('a' | 'b') are never shown; expressions inside `x as T` are.
			if (node.type !== 'TSAsExpression' && node.type !== 'TSSatisfiesExpression' && node.type !== 'TSNonNullExpression') continue
			if (field !== 'expression') continue
		}
		for (const item of Array.isArray(value) ? value : [value]) {
			if (typeof item === 'object' && item !== null && typeof (item as AstNode).type === 'string') yield item as AstNode
		}
	}
}

/** The French text written out in one source file. */
export function frenchLiterals(fileName: string, source: string): Literal[] {
	const found: Literal[] = []
	const lineOf = (offset: number) => source.slice(0, offset).split('\n').length
	const visit = (node: AstNode) => {
		if (node.type === 'JSXText') {
			const text = (node.value as string).trim()
			if (/\p{L}/u.test(text)) found.push({ line: lineOf(node.start), text, kind: 'jsx' })
			return
		}
		if (node.type === 'JSXAttribute') {
			const name = node.name as AstNode & { name?: string; namespace?: unknown }
			const value = node.value as AstNode | null
			if (value?.type === 'Literal' && typeof value.value === 'string' && TEXT_ATTRIBUTES.has(String(name.name))) {
				if (/\p{L}/u.test(value.value)) found.push({ line: lineOf(value.start), text: value.value, kind: 'attribute' })
				return
			}
		}
		let text: string | null = null
		if (node.type === 'Literal' && typeof node.value === 'string') text = node.value
		else if (node.type === 'TemplateLiteral') text = (node.quasis as { value: { cooked: string } }[]).map((q) => q.value.cooked).join('{}')
		if (text !== null && readsAsFrench(text)) found.push({ line: lineOf(node.start), text, kind: 'string' })
		for (const child of childrenOf(node)) visit(child)
	}
	const parsed = parseSync(fileName, source)
	for (const statement of (parsed.program as unknown as { body: AstNode[] }).body) visit(statement)
	return found
}

/**
 * French that is not text for people, found by the scan: each entry names its file, a piece of
 * the literal, and why it stays in the code.
 */
const NOT_FOR_PEOPLE: { file: string; text: string; why: string }[] = [
	{
		file: 'app/components/logo.tsx',
		text: 'à',
		why: 'a little word a monogram skips (« Rendez-vous à Paris » → RP): data of the initials rule',
	},
	{ file: 'app/features/events/admin.server.ts', text: 'àâäáãåç', why: 'the accents a search folds away (a translation table, not text)' },
	{ file: 'app/features/setlist/songs.server.ts', text: 'àâäáãåç', why: 'the accents a search folds away (a translation table, not text)' },
	{
		file: 'app/features/site/markdown.server.ts',
		text: '«\u00a0\u00a0»',
		why: 'the quotation marks the Markdown renderer sets (a typography setting)',
	},
	{
		file: 'app/features/events/calendar.server.ts',
		text: '//Site du groupe//FR',
		why: 'the iCalendar PRODID, an identifier no calendar shows',
	},
	{
		file: 'app/features/events/event-page.tsx',
		text: 'er',
		why: 'the superscript of the date’s own « 1er », which the date format writes',
	},
	{ file: 'app/routes/admin/codes.tsx', text: 'ABCD-EFGH-JKMN', why: 'a code’s shape as a placeholder, in no language' },
	{
		file: 'app/features/events/editor/event-editor-form.tsx',
		text: 'https://',
		why: 'an address’s start as a placeholder, in no language',
	},
	{ file: 'app/platform/csv-in.server.ts', text: '\u2020\u2021\u02c6\u2030', why: 'Windows-1252’s characters 0x80–0x8F, a decoding table' },
	{ file: 'app/platform/csv-in.server.ts', text: '\u2018\u2019\u201c\u201d', why: 'Windows-1252’s characters 0x90–0x9F, a decoding table' },
	{ file: 'app/i18n/units.ts', text: 'must be a group of strings', why: 'an English build error about translation.json itself' },
]

function sourceFiles(): string[] {
	return SCANNED_FILES.concat(
		...SCANNED.map((dir) =>
			fs.readdirSync(path.join(repoDir, dir), { withFileTypes: true, recursive: true }).flatMap((entry) => {
				if (!entry.isFile() || !/\.tsx?$/.test(entry.name) || /\.test\.tsx?$/.test(entry.name) || entry.name.endsWith('.d.ts')) return []
				return [path.relative(repoDir, path.join(entry.parentPath, entry.name))]
			}),
		),
	)
}

/** Whether an entry allows this literal: all of its file without a text; a short text as a whole, a longer one as a part. */
const matches = (entry: { file: string; text?: string }, file: string, literal: Literal) =>
	entry.file === file &&
	(entry.text === undefined || (entry.text.length <= 3 ? literal.text === entry.text : literal.text.includes(entry.text)))

describe('French text lives in the locale file', () => {
	const files = sourceFiles()
	const literals = files.flatMap((file) =>
		frenchLiterals(file, fs.readFileSync(path.join(repoDir, file), 'utf8')).map((literal) => ({ file, literal })),
	)

	it('finds the sources', () => {
		expect(files.length).toBeGreaterThan(300)
		expect(files).toContain('server/main.ts')
		expect(files).toContain('scripts/site-data.ts')
	})

	it('no French text for people is written in app/ or server/ outside translation.json', () => {
		const left = literals
			.filter(({ file, literal }) => !NOT_FOR_PEOPLE.some((entry) => matches(entry, file, literal)))
			.map(({ file, literal }) => `${file}:${literal.line} (${literal.kind}) ${JSON.stringify(literal.text.slice(0, 90))}`)
		expect(left, 'move these into public/locales/fr-FR/translation.json and use t(), lazyT() or getT()').toEqual([])
	})

	it('every allowed entry still allows something', () => {
		const needless = NOT_FOR_PEOPLE.filter((entry) => !literals.some(({ file, literal }) => matches(entry, file, literal)))
		expect(needless.map((entry) => `${entry.file}: ${entry.text}`)).toEqual([])
	})
})

describe('the French scan itself', () => {
	it('finds text between tags, text attributes, and French strings', () => {
		const source = [
			`import { x } from './à-côté.ts'`,
			`type Answer = 'oui' | 'non'`,
			`const labels = { 'mot-de-passe': 1 }`,
			`const message = 'Le fichier est vide.'`,
			'const wait = `dans ${minutes} minutes`',
			`const id = 'form-mot-de-passe'`,
			`log.info('site ready on a port')`,
			`const accent = 'Arrêté'`,
			`export const View = () => <p aria-label="Fermer" className="text-sm">Bonjour {name}, <b>{t('a.b')}</b></p>`,
		].join('\n')
		expect(frenchLiterals('x.tsx', source)).toEqual([
			{ line: 4, text: 'Le fichier est vide.', kind: 'string' },
			{ line: 5, text: 'dans {} minutes', kind: 'string' },
			{ line: 8, text: 'Arrêté', kind: 'string' },
			{ line: 9, text: 'Fermer', kind: 'attribute' },
			{ line: 9, text: 'Bonjour', kind: 'jsx' },
		])
	})

	it('tells English and identifiers from French', () => {
		expect(readsAsFrench('the member’s avatar (its files are deleted by a job)')).toBe(false)
		expect(readsAsFrench('12px system-ui, sans-serif')).toBe(false)
		expect(readsAsFrench('periode-du')).toBe(false)
		expect(readsAsFrench('Trop de requêtes.')).toBe(true)
		expect(readsAsFrench('Confirmer mon adresse')).toBe(true)
		expect(readsAsFrench('« {} »')).toBe(true)
		expect(readsAsFrench('Nouveau message : {}')).toBe(true)
		expect(readsAsFrench('Error: {}')).toBe(false)
	})
})
