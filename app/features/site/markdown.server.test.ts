import { describe, expect, it } from 'vitest'
import { renderMarkdown } from './markdown.server.ts'

describe('renderMarkdown', () => {
	it('makes a table focusable, so that a table wider than a phone scrolls from the keyboard', () => {
		const html = renderMarkdown('| Cookie | Durée |\n| --- | --- |\n| flash | 60 s |\n')
		expect(html).toMatch(/^<table tabindex="0">/)
		expect(html).toContain('<td>flash</td>')
	})
	it('still escapes raw HTML', () => {
		expect(renderMarkdown('<script>alert(1)</script>')).toContain('&lt;script&gt;')
	})
})
