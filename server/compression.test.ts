import zlib, { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { compressResponse, compressWhole, preferredEncoding } from './compression.ts'
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

describe('compressWhole', () => {
	const request = (encoding: string, method = 'GET') => new Request('http://x/', { method, headers: { 'accept-encoding': encoding } })
	const page = (text: string) => new Response(text, { headers: { 'content-type': 'text/html; charset=utf-8', etag: '"v1"' } })

	it('compresses a whole page at once, with its compressed length, as small as with brotli’s default window', async () => {
		for (const repeat of [40, 400, 4_000]) {
			const html =
				'<!DOCTYPE html>' + Array.from({ length: repeat }, (_, k) => `<p>Concert n° ${k} à Angers, ${k % 7} rappels.</p>`).join('')
			const bytes = Buffer.from(html)
			const out = await compressWhole(request('br'), page(html), bytes)
			expect(out?.headers.get('content-encoding')).toBe('br')
			expect(out?.headers.get('content-length')).toBe(String(out?.body.byteLength))
			expect(out?.headers.get('etag')).toBe('W/"v1"')
			expect(brotliDecompressSync(out!.body).toString()).toBe(html)
			const withDefaultWindow = zlib.brotliCompressSync(bytes, {
				params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT },
			})
			expect(out!.body.byteLength, `${bytes.byteLength} bytes`).toBeLessThanOrEqual(Math.ceil(withDefaultWindow.byteLength * 1.01))
		}
		const gz = await compressWhole(
			request('gzip'),
			page('<p>' + 'Été. '.repeat(500) + '</p>'),
			Buffer.from('<p>' + 'Été. '.repeat(500) + '</p>'),
		)
		expect(gunzipSync(gz!.body).toString()).toBe('<p>' + 'Été. '.repeat(500) + '</p>')
	})

	it('leaves alone what is sent as it is', async () => {
		const html = '<p>' + 'x'.repeat(5_000) + '</p>'
		expect(await compressWhole(request('identity'), page(html), Buffer.from(html))).toBeNull()
		expect(await compressWhole(request('br', 'HEAD'), page(html), Buffer.from(html))).toBeNull()
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
