import { describe, expect, test } from 'vitest'
import { rememberMatches, type PathMatcher } from './route-match-memo.server.ts'

/** A matcher that answers every path with one match and counts how often it really matched. */
class CountingMatcher implements PathMatcher {
	calls = 0
	routes = 'v1'
	match(location: unknown, allowPartial = false) {
		this.calls++
		const path = typeof location === 'string' ? location.split(/[?#]/)[0]! : (location as { pathname: string }).pathname
		if (path === '/none') return null
		return [{ params: { path }, pathname: path, route: { id: `${this.routes}${allowPartial ? ' partial' : ''}` } }]
	}
	update(routes: unknown) {
		this.routes = String(routes)
	}
}
rememberMatches(CountingMatcher.prototype)

describe('remembered route matches', () => {
	test('a path is matched once; a query string, a fragment or a location object of it is the same path', () => {
		const matcher = new CountingMatcher()
		const first = matcher.match('/dashboard')
		expect(matcher.match('/dashboard')).toEqual(first)
		expect(matcher.match('/dashboard?tab=2#top')).toEqual(first)
		expect(matcher.match({ pathname: '/dashboard', search: '?x' })).toEqual(first)
		expect(matcher.calls).toBe(1)
		expect(matcher.match('/none')).toBeNull()
		expect(matcher.match('/none')).toBeNull()
		expect(matcher.calls).toBe(2)
	})

	test('partial matching is remembered apart', () => {
		const matcher = new CountingMatcher()
		expect(matcher.match('/a')?.[0]).toMatchObject({ route: { id: 'v1' } })
		expect(matcher.match('/a', true)?.[0]).toMatchObject({ route: { id: 'v1 partial' } })
		expect(matcher.calls).toBe(2)
	})

	test('each caller gets its own array; the shared matches cannot be written to', () => {
		const matcher = new CountingMatcher()
		const a = matcher.match('/x')!
		const b = matcher.match('/x')!
		expect(a).not.toBe(b)
		a.pop()
		expect(matcher.match('/x')).toHaveLength(1)
		const match = b[0] as { params: Record<string, string> }
		expect(() => {
			match.params.path = '/elsewhere'
		}).toThrow(TypeError)
		expect(matcher.match('/x')?.[0]).toMatchObject({ params: { path: '/x' } })
	})

	test('new routes drop what was remembered; matchers do not share answers', () => {
		const matcher = new CountingMatcher()
		matcher.match('/x')
		matcher.update('v2')
		expect(matcher.match('/x')?.[0]).toMatchObject({ route: { id: 'v2' } })
		expect(matcher.calls).toBe(2)
		const other = new CountingMatcher()
		other.match('/x')
		expect(other.calls).toBe(1)
	})

	test('at most 500 paths are kept: made-up paths push the oldest out, memory does not grow', () => {
		const matcher = new CountingMatcher()
		matcher.match('/first')
		for (let i = 0; i < 500; i++) matcher.match(`/made-up/${i}`)
		expect(matcher.calls).toBe(501)
		matcher.match('/made-up/499')
		expect(matcher.calls).toBe(501)
		matcher.match('/first')
		expect(matcher.calls).toBe(502)
	})

	test('patching twice does not remember twice', () => {
		expect(rememberMatches(CountingMatcher.prototype)).toBe(true)
		const matcher = new CountingMatcher()
		matcher.match('/y')
		matcher.match('/y')
		expect(matcher.calls).toBe(1)
	})
})
