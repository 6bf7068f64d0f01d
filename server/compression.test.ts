import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { compressResponse, preferredEncoding } from './compression.ts'
import { inlineScriptHashes } from './page-cache.ts'

describe('preferredEncoding', () => {
	it('takes brotli, then gzip, by the weights the client gives', () => {
		expect(preferredEncoding('gzip, deflate, br, zstd')).toBe('br')
		expect(preferredEncoding('gzip')).toBe('gzip')
		expect(preferredEncoding('br;q=0, gzip')).toBe('gzip')
		expect(preferredEncoding('gzip;q=1, br;q=0.5')).toBe('gzip')
		expect(preferredEncoding('*')).toBe('br')
		expect(preferredEncoding('*, br;q=0')).toBe('gzip')
		expect(preferredEncoding('br;q=0, gzip;q=0')).toBe('identity')
		expect(preferredEncoding('identity')).toBe('identity')
		expect(preferredEncoding('compress, deflate')).toBe('identity')
		expect(preferredEncoding('br;q=abc')).toBe('identity')
		expect(preferredEncoding(undefined)).toBe('identity')
		expect(preferredEncoding('')).toBe('identity')
	})
})

describe('compressResponse', () => {
	const html = '<!DOCTYPE html><p>' + 'Concert à Angers. '.repeat(200) + '</p>'
	const request = (encoding: string, method = 'GET') => new Request('http://x/', { method, headers: { 'accept-encoding': encoding } })
	const page = (headers: Record<string, string> = {}) =>
		new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8', ...headers } })

	it('compresses a rendered page for a browser that takes it, and says it varies', async () => {
		const br = compressResponse(request('br, gzip'), page({ etag: '"abc"' }))
		expect(br.headers.get('content-encoding')).toBe('br')
		expect(br.headers.get('vary')).toBe('Accept-Encoding')
		expect(br.headers.get('etag')).toBe('W/"abc"')
		expect(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()).toBe(html)
		const gz = compressResponse(request('gzip'), page({ vary: 'Cookie' }))
		expect(gz.headers.get('vary')).toBe('Cookie, Accept-Encoding')
		expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(html)
	})

	it('leaves alone what must not or need not be compressed', () => {
		const untouched = [
			compressResponse(request('identity'), page()),
			compressResponse(request('br'), new Response(html, { headers: { 'content-type': 'text/event-stream' } })),
			compressResponse(request('br'), new Response(html, { headers: { 'content-type': 'image/webp' } })),
			compressResponse(request('br'), page({ 'content-encoding': 'gzip' })),
			compressResponse(request('br'), page({ 'content-length': '12' })),
			compressResponse(request('br'), page({ 'cache-control': 'no-transform' })),
		]
		for (const response of untouched) expect(response.headers.get('content-encoding') ?? 'none').not.toBe('br')
	})
})

describe('inlineScriptHashes', () => {
	it('hashes the content of every inline script, not those with a src', () => {
		const hashes = inlineScriptHashes(
			'<script>window.a=1</script><script type="module">import("/x.js")</script><script src="/y.js"></script><script type="application/ld+json">{"@type":"MusicEvent"}</script>',
		)
		expect(hashes).toHaveLength(3)
		// echo -n 'window.a=1' | openssl dgst -sha256 -binary | base64
		expect(hashes[0]).toBe('WpNQcWxgTJamkluTtRGYllok20MyGquJpWh9YXWGA4E=')
	})
})
