import fs from 'node:fs'
import path from 'node:path'
import { parseSync } from 'vite'
import { describe, expect, it } from 'vitest'
import type { Resources } from './i18n/translate.ts'
import { stringUnits, unitHolds } from './i18n/units.ts'

/*
 * Every key the code (app/ and server/) asks for exists in the one translation file, and every key
 * of that file is asked for somewhere: a missing key shows its raw name to visitors, an unused one rots.
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
	// The Node server (server/) answers some requests itself, and the command-line tools (scripts/) speak, in the same strings.
	const files = [
		...sourceFiles(appDir),
		...sourceFiles(path.resolve(appDir, '../server')),
		...sourceFiles(path.resolve(appDir, '../scripts')),
	]
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

/*
 * The browser gets only the strings the routes on screen declare (i18n/route-strings.ts). A key the
 * browser renders from a unit its page did not load shows raw, and breaks hydration: so every route
 * must declare (itself, or through a parent route or the root) the unit of every key its screen can
 * render. Its screen is its module and, following imports, every module it brings to the browser.
 * Code that cannot reach the browser is left out: *.server.* modules, the server-only exports of a
 * route module (loader, action, middleware, headers), and any top-level statement that uses what a
 * *.server.* module exports (React Router refuses such code in the browser's build).
 */
type AstNode = { type: string; start: number; end: number; [key: string]: unknown }

/** Every node under this one (itself included). */
function* nodesOf(value: unknown): Generator<AstNode> {
	if (Array.isArray(value)) {
		for (const item of value) yield* nodesOf(item)
		return
	}
	if (typeof value !== 'object' || value === null) return
	if (typeof (value as AstNode).type === 'string') yield value as AstNode
	for (const child of Object.values(value)) if (typeof child === 'object' && child !== null) yield* nodesOf(child)
}

const SERVER_ONLY_EXPORTS = new Set(['loader', 'action', 'middleware', 'headers'])

interface BrowserCode {
	/** Keys the browser's code may render: written out, or the fixed start of a built one (`contact.subjects.`). */
	keys: string[]
	/** Calls whose key the scan cannot read (t(key)): which unit they need is unknown. */
	unknown: string[]
	/** The modules this one brings to the browser. */
	imports: string[]
	/** The units a route module declares: `export const handle = routeStrings('a', 'b.c')`; null when it declares none. */
	declared: string[] | null
}

function resolveImport(from: string, specifier: string): string | null {
	const bare = specifier.split('?')[0]!
	let target: string
	if (bare.startsWith('#app/')) target = path.join(appDir, bare.slice('#app/'.length))
	else if (bare.startsWith('.')) target = path.resolve(path.dirname(from), bare)
	else return null
	for (const candidate of [target, `${target}.ts`, `${target}.tsx`]) {
		if (/\.tsx?$/.test(candidate) && fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate
	}
	return null
}

const isServerModule = (file: string) => /\.server\.tsx?$/.test(file)

async function browserCodeOf(file: string): Promise<BrowserCode> {
	const source = fs.readFileSync(file, 'utf8')
	const parsed = parseSync(path.basename(file), source)
	const program = parsed.program as unknown as { body: AstNode[] }
	const module = parsed.module

	// What the module takes from *.server.* modules: code that uses it stays on the server.
	const serverNames = new Set<string>()
	for (const entry of module.staticImports) {
		const target = resolveImport(file, entry.moduleRequest.value)
		if (!target || !isServerModule(target)) continue
		// Types are erased: only values tie code to the server.
		for (const item of entry.entries) if (!item.isType) serverNames.add(item.localName.value)
	}
	const declaredName = (statement: AstNode): string | undefined => {
		const declaration = (statement.declaration ?? statement) as AstNode & {
			id?: { name: string }
			declarations?: { id: { name?: string } }[]
		}
		return declaration.id?.name ?? declaration.declarations?.[0]?.id.name
	}
	const browserStatements = program.body.filter((statement) => {
		if (statement.type === 'ImportDeclaration') return false
		if (statement.type === 'ExportNamedDeclaration' && SERVER_ONLY_EXPORTS.has(declaredName(statement) ?? '')) return false
		for (const node of nodesOf(statement)) {
			if ((node.type === 'Identifier' || node.type === 'JSXIdentifier') && serverNames.has(node.name as string)) return false
		}
		return true
	})

	const keys: string[] = []
	const unknown: string[] = []
	const used = new Set<string>()
	const imports = new Set<string>()
	let declared: string[] | null = null
	for (const statement of browserStatements) {
		if (statement.type === 'ExportNamedDeclaration' && declaredName(statement) === 'handle') {
			let init = (statement.declaration as { declarations: { init: AstNode }[] }).declarations[0]!.init
			// `hydrated(routeStrings(…))`: the same units, on a route that also asks for React (app/hydration.ts).
			const wrapper = init.callee as AstNode | undefined
			if (init.type === 'CallExpression' && wrapper?.name === 'hydrated') init = ((init.arguments ?? []) as AstNode[])[0]!
			const callee = init.callee as AstNode | undefined
			const args = (init.arguments ?? []) as AstNode[]
			if (init.type !== 'CallExpression' || callee?.name !== 'routeStrings' || args.some((arg) => typeof arg.value !== 'string')) {
				throw new Error(
					`${path.relative(appDir, file)}: write the handle as routeStrings('unit', …) with units written out (in hydrated(…) if it asks for React)`,
				)
			}
			declared = args.map((arg) => arg.value as string)
		}
		for (const node of nodesOf(statement)) {
			if (node.type === 'Identifier' || node.type === 'JSXIdentifier') used.add(node.name as string)
			if (node.type === 'ImportExpression') {
				const target = resolveImport(file, (node.source as AstNode).value as string)
				if (target) imports.add(target)
			}
			if (node.type !== 'CallExpression') continue
			const callee = node.callee as AstNode
			if (callee.type !== 'Identifier' || (callee.name !== 't' && callee.name !== 'lazyT')) continue
			const first = (node.arguments as AstNode[])[0]
			if (!first) continue
			if (first.type === 'Literal' && typeof first.value === 'string') keys.push(first.value)
			else if (first.type === 'TemplateLiteral') {
				const quasis = first.quasis as { value: { cooked: string } }[]
				const start = quasis[0]!.value.cooked
				if ((first.expressions as unknown[]).length === 0) keys.push(start)
				// Its fixed start, up to the last dot: `contact.subjects.` (some key under contact.subjects).
				else if (start.includes('.')) keys.push(start.slice(0, start.lastIndexOf('.') + 1))
				else unknown.push(source.slice(node.start, node.end))
			} else unknown.push(source.slice(node.start, node.end))
		}
	}
	// Imports whose names the browser's code uses (or imported for their effect), and re-exports.
	for (const entry of module.staticImports) {
		const target = resolveImport(file, entry.moduleRequest.value)
		if (!target || isServerModule(target)) continue
		const names = entry.entries.filter((item) => !item.isType).map((item) => item.localName.value)
		if (entry.entries.length === 0 || names.some((name) => used.has(name))) imports.add(target)
	}
	for (const entry of module.staticExports.flatMap((item) => item.entries)) {
		const target = entry.moduleRequest && !entry.isType ? resolveImport(file, entry.moduleRequest.value) : null
		if (target && !isServerModule(target)) imports.add(target)
	}
	return { keys, unknown, imports: [...imports], declared }
}

interface RouteEntry {
	file: string
	children?: RouteEntry[]
}

/** Each screen of the route table, with the route modules above it (the root first). */
async function screens(): Promise<{ file: string; chain: string[] }[]> {
	const { default: routes } = (await import('./routes.ts')) as { default: RouteEntry[] }
	const found: { file: string; chain: string[] }[] = [{ file: 'root.tsx', chain: ['root.tsx'] }]
	const walk = (entries: RouteEntry[], above: string[]) => {
		for (const entry of entries) {
			const chain = [...above, entry.file]
			// Resource routes (.ts) answer with data or a file, never a screen.
			if (entry.file.endsWith('.tsx')) found.push({ file: entry.file, chain })
			walk(entry.children ?? [], chain)
		}
	}
	walk(routes, ['root.tsx'])
	return found
}

/** Where each key comes from, for the module and what it brings to the browser. */
async function keysOnScreen(file: string, codeOf: (file: string) => Promise<BrowserCode>) {
	const seen = new Set<string>()
	const keys: { key: string; file: string }[] = []
	const unknown: { call: string; file: string }[] = []
	const visit = async (current: string) => {
		if (seen.has(current)) return
		seen.add(current)
		const code = await codeOf(current)
		const relative = path.relative(appDir, current)
		keys.push(...code.keys.map((key) => ({ key, file: relative })))
		unknown.push(...code.unknown.map((call) => ({ call, file: relative })))
		for (const next of code.imports) await visit(next)
	}
	await visit(path.join(appDir, file))
	return { keys, unknown }
}

/**
 * What is wrong with the units of one screen: keys that no unit declared above it or by it holds
 * (one line per group of strings, naming the smallest unit that would do), and units it declares
 * that neither its screen nor the screens below it use.
 */
function checkScreen(input: {
	keys: { key: string; file: string }[]
	declaredAbove: string[]
	declaredHere: string[]
	/** Keys of the screens below this one, which may rely on what it declares. */
	keysBelow?: string[]
}) {
	const declared = [...input.declaredAbove, ...input.declaredHere]
	const missing = new Map<string, { count: number; example: string }>()
	for (const { key, file } of input.keys) {
		if (declared.some((unit) => unitHolds(unit, key))) continue
		// A key straight under a namespace (`contact.title`, or any key under `contact.`) needs the
		// namespace; a deeper one (`contact.subjects.booking`, `contact.subjects.`) its group will do.
		const parts = key.split('.')
		const unit = parts.length >= 3 && parts[1] ? `${parts[0]}.${parts[1]}` : parts[0]!
		const seen = missing.get(unit)
		if (seen) seen.count++
		else missing.set(unit, { count: 1, example: `${key} (${file})` })
	}
	const used = [...input.keys.map(({ key }) => key), ...(input.keysBelow ?? [])]
	return {
		undeclared: [...missing].map(([unit, { count, example }]) => `« ${unit} »: ${count} key(s), e.g. ${example}`).sort(),
		needless: input.declaredHere.filter((unit) => !used.some((key) => unitHolds(unit, key) || `${unit}.`.startsWith(key))).sort(),
	}
}

describe('the strings each screen loads in the browser', () => {
	const cache = new Map<string, Promise<BrowserCode>>()
	const codeOf = (file: string) => {
		let code = cache.get(file)
		if (!code) cache.set(file, (code = browserCodeOf(file)))
		return code
	}
	const units = stringUnits(JSON.parse(fs.readFileSync(translationFile, 'utf8')) as Resources)

	it('every screen declares the unit of every key its browser code can render, and no unit it does not use', async () => {
		const problems: string[] = []
		const all = await screens()
		const onScreen = new Map(await Promise.all(all.map(async (screen) => [screen.file, await keysOnScreen(screen.file, codeOf)] as const)))
		const declaredOf = async (file: string) => (await codeOf(path.join(appDir, file))).declared ?? []
		for (const screen of all) {
			const declaredAbove = (await Promise.all(screen.chain.slice(0, -1).map(declaredOf))).flat()
			const declaredHere = await declaredOf(screen.file)
			for (const unit of declaredHere)
				if (!units.has(unit)) problems.push(`${screen.file} declares « ${unit} », not a unit of translation.json`)
			const { keys, unknown } = onScreen.get(screen.file)!
			const keysBelow = all
				.filter((other) => other !== screen && other.chain.includes(screen.file))
				.flatMap((other) => onScreen.get(other.file)!.keys.map(({ key }) => key))
			const result = checkScreen({ keys, declaredAbove, declaredHere, keysBelow })
			problems.push(...result.undeclared.map((need) => `${screen.file} must declare ${need}`))
			problems.push(...result.needless.map((unit) => `${screen.file} declares « ${unit} », used neither on its screen nor below it`))
			problems.push(...unknown.map(({ call, file }) => `${screen.file}: ${file} builds a key the check cannot read: ${call}`))
		}
		expect(problems).toEqual([])
	}, 30_000)

	it('finds the screens, their keys and the units they declare', async () => {
		const all = await screens()
		expect(all.length).toBeGreaterThan(30)
		expect((await codeOf(path.join(appDir, 'root.tsx'))).declared).toContain('common')
		const signIn = await keysOnScreen('routes/auth/signin.tsx', codeOf)
		expect(signIn.keys.some(({ key }) => key.startsWith('auth.'))).toBe(true)
	}, 30_000)
})

describe('the screen check itself', () => {
	const write = (name: string, text: string) => {
		const dir = fs.mkdtempSync(path.join(appDir, '.i18n-check-'))
		const file = path.join(dir, name)
		fs.writeFileSync(file, text)
		return { file, remove: () => fs.rmSync(dir, { recursive: true, force: true }) }
	}

	it('reads the browser code, leaving out what only the server runs', async () => {
		const { file, remove } = write(
			'route.tsx',
			[
				`import { getT } from '#app/platform/i18n.server.ts'`,
				`import { routeStrings } from '#app/i18n/route-strings.ts'`,
				`import { Badge } from '#app/components/ui/badge.tsx'`,
				`import type { Route } from './+types/route'`,
				`export const handle = routeStrings('events', 'newsletter.signup')`,
				`export async function loader() { const t = getT(); return { title: t('admin.events.metaTitle') } }`,
				`function serverHelper() { return getT()('setlist.copyName') }`,
				`export default function Screen() {`,
				`  const { t } = useTranslation()`,
				"  return <Badge>{t('events.list.title')}{t(`contact.subjects.${s}`)}{t(key)}</Badge>",
				`}`,
			].join('\n'),
		)
		try {
			const code = await browserCodeOf(file)
			expect(code.declared).toEqual(['events', 'newsletter.signup'])
			expect(code.keys).toEqual(['events.list.title', 'contact.subjects.'])
			expect(code.unknown).toEqual(['t(key)'])
			expect(code.imports.map((target) => path.relative(appDir, target))).toEqual(['i18n/route-strings.ts', 'components/ui/badge.tsx'])
		} finally {
			remove()
		}
	})

	it('reports a key of an undeclared unit, and a unit declared for nothing', () => {
		const keys = [
			{ key: 'events.list.title', file: 'a.tsx' },
			{ key: 'admin.events.status.scheduled', file: 'b.tsx' },
			{ key: 'contact.subjects.', file: 'a.tsx' },
		]
		expect(
			checkScreen({
				keys,
				declaredAbove: ['common'],
				declaredHere: ['events', 'contact', 'setlist', 'codes'],
				keysBelow: ['codes.redeem.title'],
			}),
		).toEqual({
			undeclared: ['« admin.events »: 1 key(s), e.g. admin.events.status.scheduled (b.tsx)'],
			needless: ['setlist'],
		})
		// A group holds its keys; a key prefix wider than the group is not held by it.
		const wide = checkScreen({
			keys: [
				{ key: 'contact.', file: 'c.tsx' },
				{ key: 'contact.title', file: 'c.tsx' },
			],
			declaredAbove: [],
			declaredHere: ['contact.subjects'],
		})
		expect(wide).toEqual({ undeclared: ['« contact »: 2 key(s), e.g. contact. (c.tsx)'], needless: [] })
	})
})
