import { describe, expect, it } from 'vitest'
import { classesOf, criticalCss, variablesOf, withCriticalCss } from './critical-css.server.ts'

// The shape Tailwind and Vite write: layers, escaped variants, media and supports blocks, @property.
const SHEET = [
	'/*! licence */@layer theme,base,components,utilities;',
	'@layer theme{:root,:host{--color-fg:#eee;--color-line:#333;--spacing:.25rem;--color-accent:var(--accent,#f50);--unused:1px}}',
	'@layer base{*,:after,:before{box-sizing:border-box}html{color:var(--color-fg)}table{border-collapse:collapse}abbr:where([title]){text-decoration:underline dotted}}',
	'@layer utilities{.flex{display:flex}.grid{display:grid}.mt-4{margin-top:calc(var(--spacing) * 4)}',
	'.hover\\:text-accent:hover{color:var(--color-accent)}.md\\:grid-cols-2{grid-template-columns:repeat(2,1fr)}',
	'.\\[\\&_svg\\]\\:size-5 svg{width:1.25rem}:where(.space-y-2>:not(:last-child)){margin-block-end:.5rem}',
	'.border-t{border-top-style:var(--tw-border-style);border-top-width:1px}.animate-in{animation:fade-in .2s}',
	'.sr-only:not(.not-sr-only){position:absolute}.group:hover .group-hover\\:underline{text-decoration:underline}',
	'@media (min-width:48rem){.md\\:grid-cols-2{grid-template-columns:repeat(2,1fr)}.md\\:hidden{display:none}}',
	'@supports (color:color-mix(in lab, red, red)){.border-fg\\/40{border-color:color-mix(in oklab, var(--color-fg) 40%, transparent)}}}',
	'@property --tw-border-style{syntax:"*";inherits:false;initial-value:solid}@property --tw-rotate-x{syntax:"*";inherits:false}',
	'@keyframes fade-in{0%{opacity:0}}@keyframes unused{0%{opacity:0}}',
	'@font-face{font-family:Anton;src:url(/assets/anton.woff2)}',
].join('')

function critical(html: string) {
	return criticalCss(SHEET, classesOf(html), variablesOf(html))
}

describe('critical CSS', () => {
	it('keeps the rules of the classes a page uses, with their variants, and drops the others', () => {
		const css = critical(
			'<html><body><div class="flex md:grid-cols-2 hover:text-accent [&amp;_svg]:size-5"><svg></svg></div></body></html>',
		)
		expect(css).toContain('.flex{display:flex}')
		expect(css).toContain('.hover\\:text-accent:hover{')
		expect(css).toContain('@media (min-width:48rem){.md\\:grid-cols-2{')
		expect(css).not.toContain('md\\:hidden')
		expect(css).toContain('.\\[\\&_svg\\]\\:size-5 svg{')
		expect(css).not.toContain('.grid{')
		expect(css).not.toContain('.mt-4')
		expect(css).not.toContain('@supports (color:color-mix')
	})

	it('keeps the base rules of the elements the page has, and the statements and fonts', () => {
		const css = critical('<html><body><p class="flex">x</p></body></html>')
		expect(css).toContain('*,:after,:before{box-sizing:border-box}')
		expect(css).toContain('html{color:var(--color-fg)}')
		expect(css).not.toContain('table{')
		expect(css).not.toContain('abbr')
		expect(css).toContain('@layer theme,base,components,utilities;')
		expect(css).toContain('/*! licence */')
		expect(css).toContain('@font-face{font-family:Anton')
		expect(critical('<html><body><table class="flex"></table></body></html>')).toContain('table{border-collapse:collapse}')
	})

	it('keeps the custom properties, @property and @keyframes that what is kept uses', () => {
		const css = critical('<html><body><p class="hover:text-accent border-t">x</p></body></html>')
		expect(css).toContain('--color-accent:var(--accent,#f50)')
		expect(css).toContain('--color-fg:#eee')
		expect(css).not.toContain('--unused')
		expect(css).not.toContain('--color-line')
		expect(css).not.toContain('--spacing')
		expect(css).toContain('@property --tw-border-style{')
		expect(css).not.toContain('--tw-rotate-x')
		expect(css).not.toContain('@keyframes fade-in')
		expect(critical('<html><body><p class="animate-in">x</p></body></html>')).toContain('@keyframes fade-in{')
		expect(critical('<html><body><p class="animate-in">x</p></body></html>')).not.toContain('@keyframes unused')
		// A variable the page's own style attributes use.
		expect(critical('<html><body><p style="margin:var(--spacing)">x</p></body></html>')).toContain('--spacing:.25rem')
	})

	it('needs the classes of :is() and :where(), not those of :not()', () => {
		expect(critical('<body><ul class="space-y-2"></ul></body>')).toContain(':where(.space-y-2>')
		expect(critical('<body><ul class="flex"></ul></body>')).not.toContain('space-y-2')
		expect(critical('<body><p class="sr-only"></p></body>')).toContain('.sr-only:not(.not-sr-only)')
		expect(critical('<body><p class="group-hover:underline"></p></body>')).not.toContain('group-hover')
		expect(critical('<body><a class="group"><p class="group-hover:underline"></p></a></body>')).toContain('.group:hover .group-hover')
	})

	it('counts the classes an island finds in a data-* attribute', () => {
		expect(critical('<body><p class="sr-only" data-share-status="mt-4 grid"></p></body>')).toContain('.mt-4{')
	})

	it('fills the mark of a whole document, and leaves a document without it as it is', () => {
		const sheet = '.flex{display:flex}.grid{display:grid}'
		const document = new TextEncoder().encode('<html><head><style>/*mark*/</style></head><body><p class="flex">é</p></body></html>')
		expect(new TextDecoder().decode(withCriticalCss(document, sheet, '/*mark*/'))).toBe(
			'<html><head><style>.flex{display:flex}</style></head><body><p class="flex">é</p></body></html>',
		)
		const plain = new TextEncoder().encode('<html><body class="grid"></body></html>')
		expect(withCriticalCss(plain, sheet, '/*mark*/')).toBe(plain)
	})
})
