import http from 'node:http'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { nodeHeaders, respond } from './respond.ts'

describe('respond', () => {
	const html = `<!DOCTYPE html><html lang="fr">${'<p>Été à Angers, puis Nantes.</p>'.repeat(60)}</html>`
	const bytes = Buffer.from(html)
	let answer: () => { response: Response; whole: Uint8Array | undefined }
	let origin = ''
	const server = http.createServer((req, res) => {
		const { response, whole } = answer()
		const request = new Request(`http://site${req.url}`, { method: req.method, headers: req.headers as Record<string, string> })
		void respond(req, res, request, response, whole)
	})
	beforeAll(async () => {
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
		origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
	})
	afterAll(() => new Promise((resolve) => server.close(resolve)))

	const documentResponse = () => {
		const headers = new Headers({ 'content-type': 'text/html; charset=utf-8', 'content-length': String(bytes.byteLength) })
		headers.append('set-cookie', 'flash=; Max-Age=0; Path=/')
		headers.append('set-cookie', 'theme=dark; Path=/')
		return new Response(bytes, { status: 200, headers })
	}

	it('writes a whole document as its bytes, with its status, its length and each cookie apart', async () => {
		answer = () => ({ response: documentResponse(), whole: bytes })
		const response = await fetch(origin, { headers: { 'accept-encoding': 'identity' } })
		expect(response.status).toBe(200)
		expect(response.headers.get('content-length')).toBe(String(bytes.byteLength))
		expect(response.headers.getSetCookie()).toEqual(['flash=; Max-Age=0; Path=/', 'theme=dark; Path=/'])
		expect(await response.text()).toBe(html)
	})

	it('compresses a whole document at once for a browser that takes it, with its compressed length', async () => {
		answer = () => ({ response: documentResponse(), whole: bytes })
		for (const [encoding, decode] of [
			['br', brotliDecompressSync],
			['gzip', gunzipSync],
		] as const) {
			const raw = await new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
				http
					.get(origin, { headers: { 'accept-encoding': encoding } }, (res) => {
						const chunks: Buffer[] = []
						res.on('data', (chunk: Buffer) => chunks.push(chunk))
						res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }))
					})
					.on('error', reject)
			})
			expect(raw.headers['content-encoding'], encoding).toBe(encoding)
			expect(raw.headers.vary).toBe('Accept-Encoding')
			expect(Number(raw.headers['content-length'])).toBe(raw.body.byteLength)
			expect(raw.body.byteLength).toBeLessThan(bytes.byteLength)
			expect(raw.headers['set-cookie']).toHaveLength(2)
			expect(decode(raw.body).toString()).toBe(html)
		}
	})

	it('answers HEAD with the headers alone', async () => {
		answer = () => ({ response: documentResponse(), whole: bytes })
		const response = await fetch(origin, { method: 'HEAD' })
		expect(response.headers.get('content-length')).toBe(String(bytes.byteLength))
		expect(await response.text()).toBe('')
	})

	it('sends any other response through its body stream', async () => {
		answer = () => ({
			response: new Response(
				new ReadableStream({
					start(controller) {
						controller.enqueue(new TextEncoder().encode('un, '))
						controller.enqueue(new TextEncoder().encode('deux'))
						controller.close()
					},
				}),
				{ status: 201, headers: { 'content-type': 'text/plain' } },
			),
			whole: undefined,
		})
		const response = await fetch(origin)
		expect(response.status).toBe(201)
		expect(await response.text()).toBe('un, deux')
	})
})

describe('nodeHeaders', () => {
	it('keeps one value per header and every Set-Cookie', () => {
		const headers = new Headers({ 'Content-Type': 'text/html' })
		headers.append('Set-Cookie', 'a=1')
		headers.append('Set-Cookie', 'b=2')
		headers.append('Set-Cookie', 'c=3')
		expect(nodeHeaders(headers)).toEqual({ 'content-type': 'text/html', 'set-cookie': ['a=1', 'b=2', 'c=3'] })
	})
})
