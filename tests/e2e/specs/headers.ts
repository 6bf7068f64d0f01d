/* Security headers on documents, and how hashed assets are served (immutable, pre-compressed). */
import assert from 'node:assert/strict'
import http from 'node:http'
import { after, before, describe, test } from 'node:test'
import zlib from 'node:zlib'
import type { BrowserContext } from 'playwright-core'
import { signInAdmin } from '../support/accounts.ts'
import { closeAll, h, newVisitor } from '../support/harness.ts'

function directives(csp: string): Map<string, string[]> {
	const map = new Map<string, string[]>()
	for (const part of csp.split(';')) {
		const [name, ...values] = part.trim().split(/\s+/)
		if (name) map.set(name.toLowerCase(), values)
	}
	return map
}

/** A raw GET (no automatic decompression), to see exactly what the server sends. */
function rawGet(
	path: string,
	headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
	return new Promise((resolve, reject) => {
		const request = http.get(new URL(path, h.origin), { headers }, (response) => {
			const chunks: Buffer[] = []
			response.on('data', (chunk: Buffer) => chunks.push(chunk))
			response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }))
			response.on('error', reject)
		})
		request.on('error', reject)
		request.setTimeout(10_000, () => request.destroy(new Error(`GET ${path} timed out`)))
	})
}

export function headerSpecs() {
	describe('security headers and static assets', () => {
		let context: BrowserContext
		before(async () => {
			context = await newVisitor()
		})
		after(() => closeAll(context))

		test('a document has a strict CSP (a nonce per rendered page, hashes on a cached one) and the other security headers', async () => {
			const page = await context.newPage()
			// A browser context without cookies: the landing comes from the anonymous page cache.
			const response = await page.goto('/')
			assert.ok(response)
			const headers = await response.allHeaders()
			const csp = headers['content-security-policy']
			assert.ok(csp, 'no Content-Security-Policy on the document')
			const policy = directives(csp)
			const scriptSrc = policy.get('script-src') ?? policy.get('default-src') ?? []
			// The landing sends no script (app/hydration.ts): no inline script to allow by hash, our files only.
			assert.deepEqual(scriptSrc, ["'self'"], `a cached page without scripts allows more than our files: ${csp}`)
			for (const source of [
				scriptSrc,
				directives((await context.request.get('/', { headers: { cookie: 'autre=1' } })).headers()['content-security-policy'] ?? '').get(
					'script-src',
				) ?? [],
			]) {
				assert.ok(!source.includes("'unsafe-inline'"), `script-src must not list 'unsafe-inline': ${csp}`)
				assert.ok(!source.includes("'unsafe-eval'"), `script-src must not list 'unsafe-eval': ${csp}`)
				assert.ok(!source.includes('*') && !source.some((v) => /^https?:$/.test(v)), `script-src is too wide: ${csp}`)
			}
			assert.ok(policy.has('frame-ancestors'), `no frame-ancestors: ${csp}`)
			assert.deepEqual(policy.get('object-src'), ["'none'"], `object-src should be 'none': ${csp}`)
			assert.equal(headers['x-content-type-options'], 'nosniff')
			assert.ok(headers['referrer-policy'], 'no Referrer-Policy')
			assert.match(headers['content-type'] ?? '', /^text\/html/)
			await page.close()
		})

		test('every script of a rendered page carries its nonce, new per response; a cached public page has no inline script to allow', async () => {
			// A signed-in page is rendered for its visitor, and runs React in the browser (app/hydration.ts).
			const member = await newVisitor()
			await signInAdmin(member)
			const first = await member.request.get('/dashboard')
			const second = await member.request.get('/dashboard')
			assert.equal(first.status(), 200)
			const nonceOf = (csp: string | undefined) => /'nonce-([^']+)'/.exec(csp ?? '')?.[1]
			const nonce = nonceOf(first.headers()['content-security-policy'])
			assert.ok(nonce)
			assert.notEqual(nonce, nonceOf(second.headers()['content-security-policy']), 'the nonce must not be reused')
			const html = await first.text()
			const scripts = [...html.matchAll(/<script\b([^>]*)>/gi)].map((m) => m[1] ?? '')
			assert.ok(scripts.length > 0, 'the document has no script at all')
			for (const attributes of scripts) {
				const src = /\bsrc="([^"]+)"/.exec(attributes)?.[1]
				const scriptNonce = /\bnonce="([^"]+)"/.exec(attributes)?.[1]
				if (src) assert.ok(src.startsWith('/'), `a script from elsewhere: ${src}`)
				assert.equal(scriptNonce, nonce, `a <script${attributes}> without the response's nonce`)
			}

			await closeAll(member)

			// A rendered public page (any cookie) has a fresh nonce too; its only scripts are its islands
			// (the town field's suggestions on the landing), files of the site's own carrying that nonce.
			const rendered = await context.request.get('/', { headers: { cookie: 'autre=1' } })
			const renderedNonce = nonceOf(rendered.headers()['content-security-policy'])
			assert.ok(renderedNonce)
			for (const [, attributes] of (await rendered.text()).matchAll(/<script\b([^>]*)>/gi)) {
				assert.match(attributes!, /\bsrc="\/assets\/[\w-]+\.js"/, `a public page's script that is not an island: <script${attributes}>`)
				assert.equal(/\bnonce="([^"]+)"/.exec(attributes!)?.[1], renderedNonce)
			}

			// The cached landing: the same bytes for everyone, so no nonce, and no script to allow by hash
			// (an inline script of a cached page is allowed by its hash: the event page's JSON-LD, specs/events.ts).
			const cached = await context.request.get('/')
			const cachedHtml = await cached.text()
			assert.doesNotMatch(cachedHtml, /\snonce=/, 'a cached page carries a nonce every visitor sees')
			assert.doesNotMatch(cachedHtml, /<script\b(?![^>]*\bsrc="\/assets\/)/i, 'the cached landing sends a script other than an island')
		})

		test('error pages and redirects carry the security headers too', async () => {
			const notFound = await context.request.post('/nope', { form: { a: '1' }, headers: { origin: h.origin } })
			assert.equal(notFound.status(), 404)
			assert.ok(notFound.headers()['content-security-policy'], 'the 404 page has no CSP')
			assert.equal(notFound.headers()['x-content-type-options'], 'nosniff')
			const redirect = await context.request.get('/nope', { maxRedirects: 0 })
			assert.equal(redirect.status(), 302)
			assert.equal(redirect.headers()['x-content-type-options'], 'nosniff')
		})

		test('a hashed asset is served immutable, and Brotli-compressed when asked', async () => {
			const html = await (await context.request.get('/')).text()
			const asset = /(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/.exec(html)?.[1]
			assert.ok(asset, 'no hashed /assets/ file referenced by the landing page')
			assert.match(asset, /-[A-Za-z0-9_-]{6,}\.(js|css)$/, `not a hashed file name: ${asset}`)

			const plain = await rawGet(asset)
			assert.equal(plain.status, 200)
			assert.match(String(plain.headers['cache-control']), /immutable/)
			assert.match(String(plain.headers['cache-control']), /max-age=31536000/)
			assert.equal(plain.headers['content-encoding'], undefined, 'compressed although the client did not ask')

			const br = await rawGet(asset, { 'accept-encoding': 'br' })
			assert.equal(br.status, 200)
			assert.equal(br.headers['content-encoding'], 'br')
			assert.match(String(br.headers['cache-control']), /immutable/)
			assert.match(String(br.headers['vary']), /accept-encoding/i)
			assert.ok(br.body.length < plain.body.length, 'the Brotli body is not smaller')
			assert.ok(zlib.brotliDecompressSync(br.body).equals(plain.body), 'the Brotli body does not decompress to the file')

			const gzip = await rawGet(asset, { 'accept-encoding': 'gzip' })
			assert.equal(gzip.headers['content-encoding'], 'gzip')
			assert.ok(zlib.gunzipSync(gzip.body).equals(plain.body))
		})

		test('an unknown file under /assets/ is a plain 404, not the landing page', async () => {
			const response = await rawGet('/assets/nope-12345678.js')
			assert.equal(response.status, 404)
		})
	})
}
