import { createElement, lazy, Suspense, use } from 'react'
import { renderToPipeableStream, renderToString } from 'react-dom/server'
import { describe, expect, test } from 'vitest'
import { awaitsData, leftToTheBrowser, readDataScript, wholeBody } from './document-body.server.ts'

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

describe('readDataScript', () => {
	const encoder = new TextEncoder()
	function streamOf(...parts: Uint8Array[]) {
		return new ReadableStream<Uint8Array>({
			start(controller) {
				for (const part of parts) controller.enqueue(part)
				controller.close()
			},
		})
	}

	test('reads the whole data stream into the cache React Router looks in first, characters split across pieces included', async () => {
		const bytes = encoder.encode('[{"titre":"Été à Paris"}]')
		const context = { serverHandoffStream: streamOf(bytes.slice(0, 12), bytes.slice(12, 13), bytes.slice(13)), renderMeta: {} }
		expect(await readDataScript(context)).toBe(true)
		const cached = context.renderMeta as { streamCache?: Record<number, { result?: { done: boolean; value: string } }> }
		expect(cached.streamCache?.[0]?.result).toEqual({ done: true, value: '[{"titre":"Été à Paris"}]' })
		expect(cached.streamCache?.[1]).toBeUndefined()
	})

	test('leaves each render a stream of its own to take a reader of (a page may be rendered twice)', async () => {
		const context = { serverHandoffStream: streamOf(encoder.encode('[]')), renderMeta: {} }
		await readDataScript(context)
		const first = context.serverHandoffStream.getReader()
		const second = { ...context }.serverHandoffStream.getReader()
		expect(await first.read()).toEqual({ done: true, value: undefined })
		expect(await second.read()).toEqual({ done: true, value: undefined })
	})

	test('is false when there is no data stream or no render state', async () => {
		expect(await readDataScript({ renderMeta: {} })).toBe(false)
		expect(await readDataScript({ serverHandoffStream: streamOf() })).toBe(false)
	})
})

describe('leftToTheBrowser', () => {
	test('is true when a part suspended during renderToString, false otherwise', async () => {
		const Lazy = lazy(() => Promise.resolve({ default: () => createElement('figure', null, 'graphique') }))
		const page = () => createElement('main', null, createElement(Suspense, { fallback: 'attente' }, createElement(Lazy)))
		expect(leftToTheBrowser(renderToString(page()))).toBe(true)
		await new Promise((resolve) => setTimeout(resolve, 0))
		// Loaded now: the same page renders whole.
		const html = renderToString(page())
		expect(html).toContain('<figure>graphique</figure>')
		expect(leftToTheBrowser(html)).toBe(false)
		expect(leftToTheBrowser(renderToString(createElement('p', null, '<!--$!--> écrit par un visiteur')))).toBe(false)
	})
})
