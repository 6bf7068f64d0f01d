/*
 * The part of a stylesheet that one page uses: what a public page carries inline in its <head>
 * (components/stylesheet.tsx) instead of the whole public sheet. A page with no script costs the
 * browser its HTML and its CSS: parsing 48 kB of CSS and matching every element against it is a
 * large part of the work before and just after the first paint (`git show 933c0a5:bench/RESULTS-first-paint.md`,
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
 * The sheet is read by postcss, its selectors by postcss-selector-parser (the parsers of Vite's and
 * Tailwind's own tooling); each rule is written back as the sheet had it.
 */
import postcss, { type ChildNode } from 'postcss'
import selectorParser from 'postcss-selector-parser'

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

/** At-rules whose block holds rules: filtered inside, left out when nothing in them is kept. */
const GROUPS = new Set(['media', 'supports', 'layer', 'container', 'starting-style'])
/** At-rules that declare a name the kept rules may use: kept only then. */
const DECLARING = new Set(['property', 'keyframes', '-webkit-keyframes'])

/** The sheet as postcss read it, turned into what criticalCss needs, each node's text as written. */
function parse(nodes: ChildNode[]): Node[] {
	const out: Node[] = []
	for (const node of nodes) {
		if (node.type === 'atrule' && GROUPS.has(node.name) && node.nodes) {
			const prelude = `@${node.name}${node.raws.afterName ?? ''}${node.params}${node.raws.between ?? ''}`
			out.push({ kind: 'group', prelude, children: parse(node.nodes) })
		} else if (node.type === 'atrule') {
			// A statement (`@layer a,b;`) is written without the semicolon its parent's block adds.
			const text = node.nodes ? node.toString() : `${node.toString()};`
			out.push({ kind: 'other', text, declares: DECLARING.has(node.name) ? node.params.trim() : undefined })
		} else if (node.type === 'rule') {
			const rule: StyleRule = { kind: 'rule', text: node.toString(), needs: node.selectors.map(classesNeeded) }
			const declarations = node.nodes.filter((child) => child.type === 'decl')
			if (declarations.length > 0 && declarations.length === node.nodes.length && declarations.every((d) => d.prop.startsWith('--'))) {
				rule.selector = node.selector
				rule.variables = declarations.map((d) => ({ name: d.prop, text: d.toString() }))
			}
			out.push(rule)
		} else out.push({ kind: 'other', text: node.toString() })
	}
	return out
}

/** Pseudo-classes whose selector arguments must match too (a class there is needed). */
const MATCHING = new Set([':is', ':where', ':matches', ':-webkit-any'])

/**
 * The classes a selector needs, unescaped (`.md\:flex` → `md:flex`), and its type selectors as
 * `<name>` (`table`, `abbr:where([title])`). A class or type inside `:not()`, `:has()` or any other
 * pseudo-class with arguments but `:is()` and `:where()` is not counted: the rule is kept without it.
 */
function classesNeeded(selector: string): string[] {
	const needs: string[] = []
	const counted = (node: selectorParser.Node) => {
		for (let parent = node.parent; parent; parent = parent.parent)
			if (parent.type === 'pseudo' && !MATCHING.has(parent.value.toLowerCase())) return false
		return true
	}
	selectorParser((root) => {
		root.walk((node) => {
			if (node.type === 'class' && counted(node)) needs.push(node.value)
			else if (node.type === 'tag' && counted(node)) needs.push(`<${node.value.toLowerCase()}>`)
		})
	}).processSync(selector)
	return needs
}

const parsed = new Map<string, Node[]>()

function parsedSheet(css: string): Node[] {
	let nodes = parsed.get(css)
	if (!nodes) {
		nodes = parse(postcss.parse(css).nodes)
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
