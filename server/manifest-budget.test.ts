import { describe, expect, it } from 'vitest'
import { createManifestBudget, pathsAskedFor, SMALL } from './manifest-budget.ts'

const ask = (count: number, from = 0) => `?version=abc&paths=${Array.from({ length: count }, (_, k) => `/p${from + k}`).join(',')}`

describe('the /__manifest budget', () => {
	it('counts the distinct paths a query asks about', () => {
		expect(pathsAskedFor(ask(3))).toBe(3)
		expect(pathsAskedFor('?paths=/a,/a,,/b&version=x')).toBe(2)
		expect(pathsAskedFor('?version=x')).toBe(0)
	})

	it('lets an address ask up to its budget per window, then refuses until the window ends', () => {
		const allow = createManifestBudget({ paths: 100, windowMs: 1_000 })
		expect(allow('203.0.113.7', ask(60), 0)).toBe(true)
		expect(allow('203.0.113.7', ask(40, 60), 10)).toBe(true)
		expect(allow('203.0.113.7', ask(20, 100), 20)).toBe(false)
		// Another address has its own budget.
		expect(allow('198.51.100.2', ask(100), 30)).toBe(true)
		// A new window, a new budget.
		expect(allow('203.0.113.7', ask(20, 100), 1_000)).toBe(true)
	})

	it('refuses one request asking for more than the whole budget', () => {
		const allow = createManifestBudget({ paths: 100, windowMs: 1_000 })
		expect(allow('203.0.113.7', ask(101), 0)).toBe(false)
		expect(allow('203.0.113.7', ask(100), 1)).toBe(true)
	})

	it('always answers a small request (a followed link), without counting it', () => {
		const allow = createManifestBudget({ paths: 100, windowMs: 1_000 })
		expect(allow('203.0.113.7', ask(100), 0)).toBe(true)
		expect(allow('203.0.113.7', ask(SMALL + 1, 100), 1)).toBe(false)
		for (let k = 0; k < 50; k++) expect(allow('203.0.113.7', ask(SMALL, 200 + k * SMALL), 2 + k)).toBe(true)
	})

	it('forgets the least recently seen address once it remembers too many', () => {
		const allow = createManifestBudget({ paths: 40, windowMs: 60_000, addresses: 2 })
		expect(allow('a', ask(40), 0)).toBe(true)
		expect(allow('b', ask(40), 1)).toBe(true)
		expect(allow('a', ask(20), 2)).toBe(false)
		expect(allow('c', ask(20), 3)).toBe(true) // « b » is forgotten, « a » (seen last) is kept
		expect(allow('a', ask(20), 4)).toBe(false)
		expect(allow('b', ask(20), 5)).toBe(true)
	})
})
