import { createElement, Suspense, use } from 'react'
import { renderToPipeableStream, renderToString } from 'react-dom/server'
import { describe, expect, test } from 'vitest'
import { awaitsData, wholeBody, wholeDocumentOf, wholeDocumentResponse } from './document-body.server.ts'

describe('awaitsData', () => {
	test('is false when every loader and action answered with plain data', () => {
		expect(awaitsData({ loaderData: {}, actionData: null })).toBe(false)
		expect(
			awaitsData({
				loaderData: { root: { user: null, band: { name: 'x' } }, 'routes/dashboard/home': { contents: [] } },
				actionData: null,
			}),
		).toBe(false)
		expect(awaitsData({ loaderData: { root: null, page: 'texte', count: 3 }, actionData: { page: { ok: true } } })).toBe(false)
	})

	test('is true when a loader or an action handed over a promise, itself or as one of its values', () => {
		expect(awaitsData({ loaderData: { root: {}, page: { later: Promise.resolve(1) } }, actionData: null })).toBe(true)
		expect(awaitsData({ loaderData: { page: Promise.resolve({}) }, actionData: null })).toBe(true)
		expect(awaitsData({ loaderData: {}, actionData: { page: { receipt: Promise.resolve('ok') } } })).toBe(true)
	})
})

describe('wholeBody', () => {
	function render(element: ReturnType<typeof createElement>): Promise<Buffer> {
		return new Promise((resolve, reject) => {
			const { pipe } = renderToPipeableStream(element, {
				onAllReady: () => pipe(wholeBody((body) => resolve(Buffer.from(body)))),
				onShellError: reject,
			})
		})
	}

	test('hands over the whole page React wrote, in one piece', async () => {
		// Some 60 kB: React writes it in many chunks.
		const items = Array.from({ length: 1_500 }, (_, k) => createElement('li', { key: k }, `Concert n° ${k} — Été`))
		const page = createElement('ul', null, items)
		const body = await render(page)
		expect(body.byteLength).toBeGreaterThan(40_000)
		expect(body.toString('utf8')).toBe(renderToString(page))
	})

	test('includes what a Suspense boundary resolved after the shell', async () => {
		const later = new Promise<string>((resolve) => setTimeout(() => resolve('la suite'), 20))
		function Later() {
			return createElement('p', null, use(later))
		}
		const body = (
			await render(createElement('main', null, createElement(Suspense, { fallback: 'attente' }, createElement(Later))))
		).toString('utf8')
		expect(body).toContain('<p>la suite</p>')
		expect(body).not.toContain('attente')
	})
})

describe('wholeDocumentResponse', () => {
	const page = () => new TextEncoder().encode('<!doctype html><p>Été</p>') as Uint8Array<ArrayBuffer>

	test('keeps the very bytes for the server, uncopied, with their length', () => {
		const bytes = page()
		const response = wholeDocumentResponse(bytes, { status: 200, headers: new Headers({ 'Content-Type': 'text/html' }) })
		expect(wholeDocumentOf(response)).toBe(bytes)
		expect(response.headers.get('content-length')).toBe(String(bytes.byteLength))
		expect(response.status).toBe(200)
	})

	test('gives the same page to whoever reads its body instead (the page cache), and then no longer to the server', async () => {
		const bytes = page()
		const response = wholeDocumentResponse(bytes, { status: 200, headers: new Headers() })
		expect(await response.text()).toBe('<!doctype html><p>Été</p>')
		expect(wholeDocumentOf(response)).toBeUndefined()
	})

	test('gives the bytes to a copy as well', async () => {
		const response = wholeDocumentResponse(page(), { status: 200, headers: new Headers() })
		const copy = response.clone()
		expect(await copy.text()).toBe(await response.text())
	})

	test('is answered by another response of the app as undefined', () => {
		expect(wholeDocumentOf(new Response('x'))).toBeUndefined()
	})
})
