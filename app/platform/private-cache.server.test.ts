import { describe, expect, it } from 'vitest'
import { privateCacheMiddleware } from './private-cache.server.ts'

const page =
	(headers: HeadersInit = {}) =>
	async () =>
		new Response('<html></html>', { headers: { 'Content-Type': 'text/html', ...headers } })
const request = (cookie?: string) => new Request('http://x/dashboard', { headers: cookie ? { cookie } : {} })

describe('privateCacheMiddleware', () => {
	it('marks the answer to a signed-in request private, no-store, whatever the route said', async () => {
		const response = await privateCacheMiddleware(
			{ request: request('__Secure-better-auth.session_token=abc.def') },
			page({ 'Cache-Control': 'public, max-age=300' }),
		)
		expect(response.headers.get('cache-control')).toBe('private, no-store')
		const plain = await privateCacheMiddleware({ request: request('better-auth.session_token=abc') }, page())
		expect(plain.headers.get('cache-control')).toBe('private, no-store')
	})
	it('marks an answer that sets a cookie, or reads a flash, the same way', async () => {
		expect((await privateCacheMiddleware({ request: request() }, page({ 'Set-Cookie': 'flash=x' }))).headers.get('cache-control')).toBe(
			'private, no-store',
		)
		expect((await privateCacheMiddleware({ request: request('flash=abc') }, page())).headers.get('cache-control')).toBe('private, no-store')
	})
	it('leaves an anonymous visitor’s page to its route', async () => {
		const response = await privateCacheMiddleware({ request: request('other=1') }, page({ 'Cache-Control': 'public, max-age=300' }))
		expect(response.headers.get('cache-control')).toBe('public, max-age=300')
	})
})
