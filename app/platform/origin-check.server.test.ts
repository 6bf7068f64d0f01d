import { describe, expect, it } from 'vitest'
import { isCrossSite, originCheckMiddleware } from './origin-check.server.ts'

const SITE = 'https://groupe.example'

function request(method: string, headers: Record<string, string> = {}, url = `${SITE}/auth/signin`) {
	return new Request(url, { method, headers })
}

describe('isCrossSite', () => {
	it.each(['GET', 'HEAD', 'OPTIONS'])('lets a %s through, whatever it says', (method) => {
		expect(isCrossSite(request(method, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }), SITE)).toBe(false)
	})

	it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('refuses a cross-site %s', (method) => {
		expect(isCrossSite(request(method, { origin: 'https://evil.example' }), SITE)).toBe(true)
		expect(isCrossSite(request(method, { 'sec-fetch-site': 'cross-site' }), SITE)).toBe(true)
	})

	it('refuses a same-site sibling (another subdomain is another origin)', () => {
		expect(isCrossSite(request('POST', { 'sec-fetch-site': 'same-site', origin: 'https://shop.groupe.example' }), SITE)).toBe(true)
	})

	it('refuses the opaque "null" origin (sandboxed frames, data: URLs)', () => {
		expect(isCrossSite(request('POST', { origin: 'null' }), SITE)).toBe(true)
		expect(isCrossSite(request('POST', { origin: 'null', 'sec-fetch-site': 'cross-site' }), SITE)).toBe(true)
	})

	it('accepts a plain form from one of its own no-referrer pages (Origin « null », Sec-Fetch-Site same-origin)', () => {
		expect(isCrossSite(request('POST', { origin: 'null', 'sec-fetch-site': 'same-origin' }), SITE)).toBe(false)
	})

	it('refuses another scheme or port of the same host', () => {
		expect(isCrossSite(request('POST', { origin: 'http://groupe.example' }), SITE)).toBe(true)
		expect(isCrossSite(request('POST', { origin: 'https://groupe.example:8443' }), SITE)).toBe(true)
	})

	it('accepts the site’s own origin', () => {
		expect(isCrossSite(request('POST', { origin: SITE, 'sec-fetch-site': 'same-origin' }), SITE)).toBe(false)
		expect(isCrossSite(request('POST', { origin: SITE }), `${SITE}/`)).toBe(false)
	})

	it('accepts the origin the request was addressed to (a direct address, a second name)', () => {
		expect(isCrossSite(request('POST', { origin: 'http://127.0.0.1:3000' }, 'http://127.0.0.1:3000/api/me'), SITE)).toBe(false)
	})

	it('accepts a client that is not a browser (no Origin, no Sec-Fetch-Site, so no one else’s cookies)', () => {
		expect(isCrossSite(request('POST'), SITE)).toBe(false)
		expect(isCrossSite(request('POST', { 'sec-fetch-site': 'none' }), SITE)).toBe(false)
	})
})

describe('originCheckMiddleware', () => {
	it('throws a 403 with a French message for a cross-site POST', () => {
		let caught: unknown
		try {
			originCheckMiddleware({ request: request('POST', { 'sec-fetch-site': 'cross-site' }) })
		} catch (error) {
			caught = error
		}
		expect(caught).toMatchObject({
			data: { error: 'Requête refusée : elle ne vient pas de ce site.' },
			init: { status: 403 },
		})
	})

	it('lets a same-origin POST through', () => {
		expect(() => originCheckMiddleware({ request: request('POST', { 'sec-fetch-site': 'same-origin' }) })).not.toThrow()
	})
})
