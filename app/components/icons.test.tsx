import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import * as lucide from 'lucide'
import { describe, expect, test } from 'vitest'
import { drawingMarkup, LogOut, Settings } from './icons.tsx'

describe('icons', () => {
	test('draw Lucide’s icon in a 24-unit box, stroked in the text’s colour, hidden when unlabelled', () => {
		const html = renderToString(<Settings className="size-4 shrink-0" />)
		expect(html).toMatch(
			/^<svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" class="size-4 shrink-0"><g fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="M9.671 4.136[^"]+"><\/path><circle cx="12" cy="12" r="3"><\/circle><\/g><\/svg>$/,
		)
	})

	test('are not hidden when given a name or a role, and take the props they are given', () => {
		const html = renderToString(<LogOut aria-label="Se déconnecter" role="img" strokeWidth={1.5} />)
		expect(html).not.toContain('aria-hidden')
		expect(html).toContain('aria-label="Se déconnecter"')
		expect(html).toContain('<g fill="none" stroke="currentColor" stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round">')
		expect(html.match(/stroke-width/g)).toHaveLength(1)
	})

	test('render the same drawing each time', () => {
		expect(renderToString(<Settings />)).toBe(renderToString(<Settings />))
		expect(
			renderToString(
				<>
					<Settings />
					<Settings />
				</>,
			).split('<circle').length,
		).toBe(3)
	})

	test('write each drawing as React writes its elements, for every Lucide icon', () => {
		let drawings = 0
		for (const value of Object.values(lucide)) {
			if (!Array.isArray(value) || !value.every((entry) => Array.isArray(entry) && typeof entry[0] === 'string')) continue
			const drawing = value as lucide.IconNode
			const byReact = renderToString(createElement('svg', null, ...drawing.map(([tag, attributes]) => createElement(tag, attributes))))
			expect(`<svg>${drawingMarkup(drawing)}</svg>`).toBe(byReact)
			drawings++
		}
		expect(drawings).toBeGreaterThan(1000)
	})
})
