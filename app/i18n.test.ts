import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

/*
 * Every key the code asks for exists in the one translation file, and every key of that file is
 * asked for somewhere: a missing key shows its raw name to visitors, an unused one rots.
 */
const appDir = import.meta.dirname
const translationFile = path.resolve(appDir, '../public/locales/fr-FR/translation.json')

/**
 * Keys the code only reaches through an expression (`t(`errors.${kind}.title`)`), which a scan
 * cannot see. Each one says where it is used.
 */
const DYNAMIC_KEYS: Record<string, string> = {
	// The claim page's title, per mode of its link: t(`auth.claim.${mode}.metaTitle`) and `.title`.
	'auth.claim.verifyEmail.metaTitle': 'app/routes/auth/claim.tsx',
	'auth.claim.verifyEmail.title': 'app/routes/auth/claim.tsx',
	'auth.claim.resetPassword.metaTitle': 'app/routes/auth/claim.tsx',
	'auth.claim.resetPassword.title': 'app/routes/auth/claim.tsx',
	'auth.claim.setup.metaTitle': 'app/routes/auth/claim.tsx',
	'auth.claim.setup.title': 'app/routes/auth/claim.tsx',
	'auth.claim.reward.metaTitle': 'app/routes/auth/claim.tsx',
	'auth.claim.reward.title': 'app/routes/auth/claim.tsx',
	'auth.claim.newsletter.metaTitle': 'app/routes/auth/claim.tsx',
	'auth.claim.newsletter.title': 'app/routes/auth/claim.tsx',
}

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/

/** Dotted keys of a nested translation object ("auth.signin.title"). */
function flattenKeys(tree: unknown, prefix = ''): string[] {
	if (typeof tree !== 'object' || tree === null) return [prefix]
	return Object.entries(tree).flatMap(([key, value]) => flattenKeys(value, prefix ? `${prefix}.${key}` : key))
}

interface KeyUses {
	/** Keys written out as string literals: t('a.b'), getT()('a.b'), lazyT('a.b'), i18n.t("a.b"), i18nKey="a.b". */
	literal: string[]
	/** Keys that may be used but need not exist: a flash message's optional `.body`. */
	optional: string[]
	/** Calls whose key is an expression: t(key), t(`a.${b}`). */
	dynamic: string[]
}

const CALL = /(?:\bt|\bgetT\(\)|\blazyT)\(\s*/g

/** The translation keys a source file uses. */
function keysUsedIn(source: string): KeyUses {
	const literal: string[] = []
	const optional: string[] = []
	const dynamic: string[] = []
	for (const match of source.matchAll(CALL)) {
		const rest = source.slice(match.index + match[0].length)
		const quoted = /^(['"])([^'"\n\\]+)\1/.exec(rest)
		if (quoted) literal.push(quoted[2]!)
		else if (!rest.startsWith(')')) dynamic.push(rest.split('\n')[0]!.trim())
	}
	for (const match of source.matchAll(/\bi18nKey=(?:\{\s*)?(['"])([^'"\n]+)\1/g)) literal.push(match[2]!)
	// A flash message names its key (app/platform/flash.server.ts); the root shows `.title` and `.body`.
	for (const match of source.matchAll(/\b(?:redirectWithFlash|flashHeader)\([^;]*?\bkey:\s*(['"])([^'"\n]+)\1/g)) {
		literal.push(`${match[2]}.title`)
		optional.push(`${match[2]}.body`)
	}
	// …or is built apart, as a flash object (`{ type: 'success', key: '…' }`) handed to it later.
	for (const match of source.matchAll(/\{\s*type:\s*(['"])(?:success|info|error)\1,\s*key:\s*(['"])([^'"\n]+)\2/g)) {
		if (literal.includes(`${match[3]}.title`)) continue
		literal.push(`${match[3]}.title`)
		optional.push(`${match[3]}.body`)
	}
	return { literal, optional, dynamic }
}

function compareKeys(input: { used: string[]; optional?: string[]; defined: string[]; allowed: string[] }) {
	const defined = new Set(input.defined)
	const used = new Set([...input.used, ...input.allowed])
	const mayBeUsed = new Set([...used, ...(input.optional ?? [])])
	const exists = (key: string) => defined.has(key) || defined.has(`${key}_other`)
	const isUsed = (key: string) => mayBeUsed.has(key) || mayBeUsed.has(key.replace(PLURAL_SUFFIX, ''))
	return {
		missing: [...used].filter((key) => !exists(key)).sort(),
		unused: input.defined.filter((key) => !isUsed(key)).sort(),
		/** Allow-listed keys that the scan finds written out anyway: the entry is no longer needed. */
		needlesslyAllowed: input.allowed.filter((key) => input.used.includes(key)).sort(),
	}
}

function sourceFiles(dir: string): string[] {
	return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).flatMap((entry) => {
		if (!entry.isFile() || !/\.tsx?$/.test(entry.name) || /\.test\.tsx?$/.test(entry.name)) return []
		return [path.join(entry.parentPath, entry.name)]
	})
}

describe('translation keys', () => {
	const files = sourceFiles(appDir)
	const uses = files.map((file) => ({ file: path.relative(appDir, file), ...keysUsedIn(fs.readFileSync(file, 'utf8')) }))
	const defined = flattenKeys(JSON.parse(fs.readFileSync(translationFile, 'utf8')))

	it('finds the code and the translation file', () => {
		expect(files.length).toBeGreaterThan(10)
		expect(uses.flatMap((u) => u.literal).length).toBeGreaterThan(20)
		expect(defined.length).toBeGreaterThan(20)
	})

	it('every key used in app/ exists in translation.json, and every key there is used', () => {
		const result = compareKeys({
			used: uses.flatMap((u) => u.literal),
			optional: uses.flatMap((u) => u.optional),
			defined,
			allowed: Object.keys(DYNAMIC_KEYS),
		})
		expect(result.missing, 'keys used by the code but missing from translation.json').toEqual([])
		expect(result.unused, 'keys of translation.json that no code uses (or add them to DYNAMIC_KEYS)').toEqual([])
		expect(result.needlesslyAllowed, 'DYNAMIC_KEYS entries the code now writes out').toEqual([])
	})

	it('every translation is a non-empty string', () => {
		const tree = JSON.parse(fs.readFileSync(translationFile, 'utf8')) as Record<string, unknown>
		for (const key of defined) {
			const value = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], tree)
			expect(typeof value === 'string' && value.trim() !== '', key).toBe(true)
		}
	})
})

describe('the key scanner itself', () => {
	it('finds literal keys in every form the code uses', () => {
		const source = [
			`const { t } = useTranslation()`,
			`<h1>{t('auth.signin.title')}</h1>`,
			`title: getT()("auth.signin.metaTitle"),`,
			`label={t( 'a.b', { name })}`,
			`i18n.t('c.d')`,
			`<Trans i18nKey="e.f" />`,
			`return redirectWithFlash('/auth/signin', {`,
			`	type: 'info', key: 'auth.flash.checkInbox' })`,
		].join('\n')
		const uses = keysUsedIn(source)
		expect(uses.literal).toEqual(['auth.signin.title', 'auth.signin.metaTitle', 'a.b', 'c.d', 'e.f', 'auth.flash.checkInbox.title'])
		expect(uses.optional).toEqual(['auth.flash.checkInbox.body'])
	})

	it('tells dynamic keys apart, and ignores look-alikes', () => {
		const source = "t(`errors.${kind}.title`)\nt(key)\nsplit('a.b')\nformat('x.y')\nconst x = getT()"
		const uses = keysUsedIn(source)
		expect(uses.literal).toEqual([])
		expect(uses.dynamic).toEqual(['`errors.${kind}.title`)', 'key)'])
	})

	it('reports a missing key, an unused key and a needless allow-list entry', () => {
		const result = compareKeys({
			used: ['a.one', 'a.missing', 'b.count'],
			optional: ['f.body', 'g.body'],
			defined: ['a.one', 'a.unused', 'b.count_one', 'b.count_other', 'c.dynamic', 'f.body'],
			allowed: ['c.dynamic', 'a.one'],
		})
		expect(result).toEqual({ missing: ['a.missing'], unused: ['a.unused'], needlesslyAllowed: ['a.one'] })
	})

	it('reads nested keys', () => {
		expect(flattenKeys({ a: { b: 'x', c: { d: 'y' } }, e: 'z' })).toEqual(['a.b', 'a.c.d', 'e'])
	})
})
