import { describe, expect, it } from 'vitest'
import { markdownToText, renderMarkdown } from './markdown.server.ts'

describe('renderMarkdown', () => {
	it('moves every heading down so that the highest takes the level asked, keeping the outline', () => {
		const html = renderMarkdown('# Programme\n\nTexte.\n\n## Première partie\n\n#### Détail', { topHeading: 3 })
		expect(html).toContain('<h3>Programme</h3>')
		expect(html).toContain('<h4>Première partie</h4>')
		expect(html).toContain('<h6>Détail</h6>')
		expect(html).not.toMatch(/<h[12]/)
	})

	it('leaves headings that already sit low enough, and escapes raw HTML', () => {
		expect(renderMarkdown('## Cookies\n\n<b>gras</b>')).toBe('<h2>Cookies</h2>\n<p>&lt;b&gt;gras&lt;/b&gt;</p>\n')
	})

	it('gives the text without markup for share previews', () => {
		expect(markdownToText('## Infos\n\nUn **concert** [unique](https://x.fr).')).toBe('Infos\nUn concert unique.')
	})

	it('makes a table focusable, so that a table wider than a phone scrolls from the keyboard', () => {
		const html = renderMarkdown('| Cookie | Durée |\n| --- | --- |\n| flash | 60 s |\n')
		expect(html).toMatch(/^<table tabindex="0">/)
		expect(html).toContain('<td>flash</td>')
	})
})
