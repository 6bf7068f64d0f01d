import { describe, expect, test } from 'vitest'
import { privatePageMeta } from './page-meta.ts'

describe('privatePageMeta', () => {
	test('titles the page and keeps it out of search engines', () => {
		expect(privatePageMeta('Morceaux · Le Groupe')).toEqual([{ title: 'Morceaux · Le Groupe' }, { name: 'robots', content: 'noindex' }])
	})

	test('gives no title without loader data (a refused POST), so no page is titled « undefined »', () => {
		expect(privatePageMeta(undefined, { name: 'referrer', content: 'no-referrer' })).toEqual([
			{ name: 'robots', content: 'noindex' },
			{ name: 'referrer', content: 'no-referrer' },
		])
	})
})
