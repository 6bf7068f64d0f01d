import { describe, expect, it } from 'vitest'
import { safeRedirect } from './redirect.ts'

describe('safeRedirect', () => {
	it.each([
		['/dashboard', '/dashboard'],
		['/dashboard/admin?tab=codes#top', '/dashboard/admin?tab=codes#top'],
		['/events/42', '/events/42'],
		['/', '/'],
		// Normalised by the URL parser, and still on this site.
		['/a/../dashboard', '/dashboard'],
		['/%2F%2Fevil.example', '/%2F%2Fevil.example'],
	])('keeps the same-site path %j', (target, expected) => {
		expect(safeRedirect(target)).toBe(expected)
	})

	it.each([
		['protocol-relative', '//evil.example'],
		['protocol-relative with path', '//evil.example/dashboard'],
		['backslash after the slash', '/\\evil.example'],
		['backslashes only', '\\\\evil.example'],
		['backslash later in the path', '/foo\\..\\\\evil.example'],
		['absolute https', 'https://evil.example'],
		['absolute http on the same host name', 'http://localhost:3000/dashboard'],
		['javascript:', 'javascript:alert(1)'],
		['data:', 'data:text/html,<script>alert(1)</script>'],
		['no leading slash', 'evil.example'],
		['relative path', 'dashboard'],
		['tab inside //', '/\t/evil.example'],
		['newline inside //', '/\n/evil.example'],
		['carriage return', '/\r/evil.example'],
		['NUL', '/\u0000/evil.example'],
		['DEL', '/\u007f/evil.example'],
		['space', '/ /evil.example'],
		['leading space', ' //evil.example'],
		['empty', ''],
		['too long', `/${'a'.repeat(2048)}`],
	])('refuses %s', (_label, target) => {
		expect(safeRedirect(target)).toBe('/dashboard')
	})

	it('never returns a value that leaves the site, whatever the encoding trick', () => {
		const tricks = [
			'/%2f%2fevil.example',
			'/%5cevil.example',
			'/%5c%5cevil.example',
			'/%09/evil.example',
			'/.//evil.example',
			'/..//evil.example',
			'/./\\evil.example',
			'/%2e%2e/%2f/evil.example',
			'///evil.example',
			'/\u3000/evil.example',
			'/\uff0f\uff0fevil.example',
		]
		for (const trick of tricks) {
			const result = safeRedirect(trick)
			// A browser resolving the answer against the site must stay on the site.
			expect(new URL(result, 'https://site.example').origin, trick).toBe('https://site.example')
			expect(result.startsWith('//'), trick).toBe(false)
			expect(result.includes('\\'), trick).toBe(false)
		}
	})

	it.each([undefined, null, 42, { toString: () => '/dashboard' }, ['/dashboard']])('refuses a non-string %j', (target) => {
		expect(safeRedirect(target)).toBe('/dashboard')
	})

	it('uses the given fallback', () => {
		expect(safeRedirect('//evil.example', '/')).toBe('/')
		expect(safeRedirect(null, '/auth/signin')).toBe('/auth/signin')
	})
})
