/*
 * The part of a stylesheet that one page uses: what a public page carries inline in its <head>
 * (components/stylesheet.tsx) instead of the whole public sheet. A page with no script costs the
 * browser its HTML and its CSS: parsing 48 kB of CSS and matching every element against it is a
 * large part of the work before and just after the first paint (bench/RESULTS-first-paint.md,
 * docs/decisions/0033-critical-css.md), and a page uses a third of it.
 *
 * A style rule is kept when one of its selectors can match the page: every class and element name
 * it needs is on the page, so the `hover:`, `focus-visible:`, `md:`… variants of a class the page
 * uses stay with it. What a selector needs: its classes and type selectors outside parentheses and
 * inside `:is()` / `:where()`; not those inside `:not()`, `:has()` or an attribute selector (kept
 * without them). A rule that sets only custom properties (the theme's `:root { --x: … }`) keeps the
 * ones that what is kept uses, directly or through another; `@property` and `@keyframes` likewise.
 * `@media`, `@supports`, `@layer`, `@container` and `@starting-style` blocks are filtered inside
 * and left out when empty; any other at-rule (`@font-face`) and statement is kept whole.
 *
 * The page's classes are the tokens of its `class` attributes and of its `data-*` attributes: an
 * island that gives an element a class at run time must find it there (islands/share.ts reads
 * `data-share-status`). Whatever is not understood is kept: over-keeping costs bytes, missing a rule
 * would change the look.
 *
 * The stylesheet is the one Tailwind writes and Vite minifies (flat rules, no comments but the
 * licence): the parser below reads that, not any CSS.
 */

interface StyleRule {
	kind: 'rule'
	text: string
	/** Per selector of the list: the classes it needs (empty: always kept). */
	needs: string[][]
	/** A rule that only sets custom properties (`:root { --x: … }`): its selector, its declarations. */
	selector?: string
	variables?: { name: string; text: string }[]
}
interface GroupRule {
	kind: 'group'
	prelude: string
	children: Node[]
}
interface OtherRule {
	kind: 'other'
	text: string
	/** `@property --x` / `@keyframes x`: kept only if that name is used by what is kept. */
	declares?: string
}
type Node = StyleRule | GroupRule | OtherRule

const GROUPS = /^@(media|supports|layer|container|starting-style)\b/

/** The index of the quote that closes the string opening at `start`. */
function stringEnd(css: string, start: number): number {
	const quote = css[start]
	for (let i = start + 1; i < css.length; i++) {
		if (css[i] === '\\') i++
		else if (css[i] === quote) return i
	}
	return css.length
}

/**
 * The index of the first of `stops` in `css` from `from` outside strings and escapes, at the depth
 * of `from` (parentheses, brackets and braces opened after it are skipped), or css.length.
 */
function scan(css: string, from: number, stops: string): number {
	let depth = 0
	for (let i = from; i < css.length; i++) {
		const c = css[i]!
		if (c === '\\') i++
		else if (c === '"' || c === "'") i = stringEnd(css, i)
		else if (depth === 0 && stops.includes(c)) return i
		else if (c === '(' || c === '[' || c === '{') depth++
		else if (c === ')' || c === ']' || c === '}') depth--
	}
	return css.length
}

/** `text` cut at its top-level `separator`s (outside strings, parentheses and brackets). */
function split(text: string, separator: string): string[] {
	const parts: string[] = []
	for (let at = 0; at <= text.length;) {
		const end = scan(text, at, separator)
		parts.push(text.slice(at, end))
		at = end + 1
	}
	return parts
}

function parse(css: string): Node[] {
	const nodes: Node[] = []
	let at = 0
	while (at < css.length) {
		if (/\s/.test(css[at]!)) {
			at++
			continue
		}
		if (css.startsWith('/*', at)) {
			const end = css.indexOf('*/', at + 2)
			const stop = end === -1 ? css.length : end + 2
			nodes.push({ kind: 'other', text: css.slice(at, stop) })
			at = stop
			continue
		}
		const open = scan(css, at, '{;')
		const prelude = css.slice(at, open).trim()
		if (css[open] !== '{') {
			// A statement (`@layer a, b;`, `@charset`, `@import`): kept as it is.
			nodes.push({ kind: 'other', text: css.slice(at, open + 1) })
			at = open + 1
			continue
		}
		const close = scan(css, open + 1, '}')
		const block = css.slice(open + 1, close)
		if (GROUPS.test(prelude)) {
			nodes.push({ kind: 'group', prelude, children: parse(block) })
		} else if (prelude.startsWith('@')) {
			const declares = /^@(?:property|keyframes|-webkit-keyframes)\s+([^\s{]+)/.exec(prelude)?.[1]
			nodes.push({ kind: 'other', text: css.slice(at, close + 1), declares })
		} else {
			const rule: StyleRule = { kind: 'rule', text: css.slice(at, close + 1), needs: split(prelude, ',').map(classesNeeded) }
			const declarations = split(block, ';').filter((declaration) => declaration.trim())
			if (declarations.length > 0 && declarations.every((declaration) => declaration.trim().startsWith('--'))) {
				rule.selector = prelude
				rule.variables = declarations.map((text) => ({ name: text.slice(0, text.indexOf(':')).trim(), text }))
			}
			nodes.push(rule)
		}
		at = close + 1
	}
	return nodes
}

/** A character of a CSS name: ASCII letter, digit, `-`, `_`, or anything past ASCII. */
const IDENT_CHAR = /[\w-]|[^\p{ASCII}]/u
/** Pseudo-classes whose selector arguments must match too (a class there is needed). */
const MATCHING = /:(is|where|matches|-webkit-any)$/

/**
 * The classes a selector needs, unescaped (`.md\\:flex` → `md:flex`). A class inside `:not()`,
 * `:has()` or any other function but `:is()` and `:where()` is not counted: kept without it.
 */
function classesNeeded(selector: string): string[] {
	const classes: string[] = []
	// For each open parenthesis or bracket: whether what is inside must match.
	const open: boolean[] = []
	for (let i = 0; i < selector.length; i++) {
		const c = selector[i]!
		if (c === '\\') i++
		else if (c === '"' || c === "'") i = stringEnd(selector, i)
		else if (c === '(') open.push(MATCHING.test(selector.slice(0, i)) && !open.includes(false))
		else if (c === '[') open.push(false)
		else if (c === ')' || c === ']') open.pop()
		else if (/[a-z]/i.test(c) && !open.includes(false) && /(^|[\s>+~(])$/.test(selector.slice(0, i))) {
			// A type selector (`table`, `abbr:where([title])`): needs that element, noted `<table>`.
			const tag = /^[a-z][a-z0-9-]*/i.exec(selector.slice(i))![0]
			classes.push(`<${tag.toLowerCase()}>`)
			i += tag.length - 1
		} else if (c === '.' && !open.includes(false)) {
			let name = ''
			let j = i + 1
			while (j < selector.length) {
				const d = selector[j]!
				if (d === '\\') {
					const hex = /^[0-9a-fA-F]{1,6}\s?/.exec(selector.slice(j + 1, j + 8))
					if (hex) {
						name += String.fromCodePoint(parseInt(hex[0], 16))
						j += 1 + hex[0].length
					} else {
						name += selector[j + 1] ?? ''
						j += 2
					}
				} else if (IDENT_CHAR.test(d)) {
					name += d
					j++
				} else break
			}
			if (name) classes.push(name)
			i = j - 1
		}
	}
	return classes
}

const parsed = new Map<string, Node[]>()

function parsedSheet(css: string): Node[] {
	let nodes = parsed.get(css)
	if (!nodes) {
		nodes = parse(css)
		parsed.set(css, nodes)
	}
	return nodes
}

/** The custom properties `text` names (`var(--x)`, `--x:`…). */
function variablesIn(text: string): string[] {
	return text.match(/--[\w-]+/g) ?? []
}

/**
 * The rules of the stylesheet `css` that a page with those classes can use (see above).
 * `variables`: custom properties the page itself uses (in its `style` attributes).
 */
export function criticalCss(css: string, classes: ReadonlySet<string>, variables: Iterable<string> = []): string {
	const matches = (rule: StyleRule) => rule.needs.some((needs) => needs.every((name) => classes.has(name)))
	// What the page's rules use: custom properties and names (animations).
	const used = new Set(variables)
	const variableRules: StyleRule[] = []
	let usedText = ''
	const visit = (nodes: Node[]) => {
		for (const node of nodes) {
			if (node.kind === 'group') visit(node.children)
			else if (node.kind === 'rule' && matches(node)) {
				if (node.variables) variableRules.push(node)
				else {
					usedText += node.text
					for (const name of variablesIn(node.text)) used.add(name)
				}
			}
		}
	}
	const nodes = parsedSheet(css)
	visit(nodes)
	// A custom property is kept when something kept uses it, perhaps through another one.
	for (let grown = true; grown;) {
		grown = false
		for (const rule of variableRules) {
			for (const variable of rule.variables!) {
				if (!used.has(variable.name)) continue
				for (const name of variablesIn(variable.text.slice(variable.text.indexOf(':')))) {
					if (!used.has(name)) {
						used.add(name)
						grown = true
					}
				}
			}
		}
	}
	const write = (nodes: Node[]): string => {
		let out = ''
		for (const node of nodes) {
			if (node.kind === 'group') {
				const inner = write(node.children)
				if (inner) out += `${node.prelude}{${inner}}`
			} else if (node.kind === 'rule') {
				if (!matches(node)) continue
				if (!node.variables) out += node.text
				else {
					const kept = node.variables.filter((variable) => used.has(variable.name))
					if (kept.length > 0) out += `${node.selector}{${kept.map((variable) => variable.text).join(';')}}`
				}
			} else if (!node.declares) out += node.text
			else if (node.declares.startsWith('--') ? used.has(node.declares) : usesName(usedText, node.declares)) out += node.text
		}
		return out
	}
	return write(nodes)
}

function usesName(css: string, name: string): boolean {
	return new RegExp(`(?:^|[^\\w-])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`).test(css)
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }

function decodeEntities(text: string): string {
	return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
		if (name[0] === '#')
			return String.fromCodePoint(name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1)))
		return ENTITIES[name] ?? whole
	})
}

/**
 * The class names a page's HTML can give its elements (`class` and `data-*` attribute tokens), and
 * its elements' names as `<name>`.
 */
export function classesOf(html: string): Set<string> {
	const classes = new Set<string>()
	for (const match of html.matchAll(/<([a-z][a-z0-9-]*)/gi)) classes.add(`<${match[1]!.toLowerCase()}>`)
	for (const match of html.matchAll(/\s(?:class|data-[\w-]+)="([^"]*)"/g)) {
		for (const token of decodeEntities(match[1]!).split(/\s+/)) if (token) classes.add(token)
	}
	return classes
}

/** The custom properties a page's `style` attributes use (`var(--x)`). */
export function variablesOf(html: string): Set<string> {
	const variables = new Set<string>()
	for (const match of html.matchAll(/\sstyle="([^"]*)"/g))
		for (const name of match[1]!.match(/var\(--[\w-]+/g) ?? []) variables.add(name.slice(4))
	return variables
}

/**
 * A whole document with `mark` (in its inline <style>: components/stylesheet.tsx) replaced by the
 * rules of `sheet` it uses; unchanged without the mark. Once per render: a cached page pays it once.
 */
export function withCriticalCss(document: Uint8Array<ArrayBuffer>, sheet: string, mark: string): Uint8Array<ArrayBuffer> {
	if (Buffer.from(document.buffer, document.byteOffset, document.byteLength).indexOf(mark) === -1) return document
	const html = new TextDecoder().decode(document)
	const at = html.indexOf(mark)
	const before = html.slice(0, at)
	const after = html.slice(at + mark.length)
	const page = before + after
	return new TextEncoder().encode(before + criticalCss(sheet, classesOf(page), variablesOf(page)) + after)
}
