import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { ServerBuild } from 'react-router'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPageCache, deferHydration, inlineScriptHashes, type PageCacheApp } from './page-cache.ts'

/* What React Router's <Scripts> writes for a page (the shape of its module script), trimmed. */
const routeModulesScript = [
	';',
	'import * as route0 from "/assets/root-A1.js";',
	'import * as route1_clientLoader from "/assets/layout-client-B2.js";',
	'import * as route1_main from "/assets/layout-C3.js";',
	'const route1 = {...route1_clientLoader,...route1_main};',
	'import * as route2 from "/assets/events-D4.js";',
	'  window.__reactRouterManifest = {"entry":{}};',
	'  window.__reactRouterRouteModules = {"root":route0,"routes/public/layout":route1,"routes/public/events":route2};',
	'',
	'import("/assets/entry.client-E5.js");',
].join('\n')
const page = (script: string) =>
	`<!DOCTYPE html><html lang="fr"><head></head><body><main>Concerts</main><script>window.__reactRouterContext = {};</script><script type="module" async="">${script}</script></body></html>`

describe('deferHydration', () => {
	it('turns the static imports into dynamic ones that wait for the page to load', () => {
		const html = deferHydration(page(routeModulesScript))
		const script = /<script type="module" async="">([\s\S]*?)<\/script>/.exec(html)![1]!
		expect(script).not.toMatch(/^\s*import\s+[^(]/m)
		expect(script).toContain("addEventListener('load'")
		expect(script).toContain("observer.observe({ type: 'paint' })")
		expect(script).toContain('setTimeout(go, 3000)')
		expect(script).toContain(
			'const [route0, route1_clientLoader, route1_main, route2] = await Promise.all([import("/assets/root-A1.js"), import("/assets/layout-client-B2.js"), import("/assets/layout-C3.js"), import("/assets/events-D4.js")]);',
		)
		// The rest of React Router's script is kept, in order, after the imports.
		expect(script.indexOf('const route1 = {...route1_clientLoader,...route1_main};')).toBeGreaterThan(script.indexOf('Promise.all'))
		expect(script.trimEnd().endsWith('import("/assets/entry.client-E5.js");')).toBe(true)
		// The page around it, and the other inline script, are untouched.
		expect(html.replace(script, '')).toBe(page(''))
		expect(inlineScriptHashes(html)).toHaveLength(2)
	})

	it('keeps a side-effect import (the manifest, without lazy route discovery)', () => {
		const html = deferHydration(page(`import "/assets/manifest-F6.js";\n${routeModulesScript.slice(2)}`))
		expect(html).toContain(
			'const [_unused0, route0, route1_clientLoader, route1_main, route2] = await Promise.all([import("/assets/manifest-F6.js"),',
		)
	})

	it("rewrites React Router's script only, not another module script before it", () => {
		const other = '<script type="module" async="">import "/assets/other.js";</script>'
		const html = deferHydration(page(routeModulesScript).replace('<main>', `${other}<main>`))
		expect(html).toContain(other)
		expect(html).toContain('await Promise.all([import("/assets/root-A1.js")')
	})

	it('leaves a page alone when the script is missing or reads otherwise', () => {
		const noScript = '<!DOCTYPE html><html><body><p>Hors ligne</p></body></html>'
		expect(deferHydration(noScript)).toBe(noScript)
		const odd = page(routeModulesScript.replace('import * as route2 from', 'import { default as route2 } from'))
		expect(deferHydration(odd)).toBe(odd)
	})
})

/* A route table with one cacheable page, and the app's side of the cache, for createPageCache. */
const oneRoute = {
	routes: Object.fromEntries(
		[
			{ id: 'root', parentId: undefined, path: '', module: {} },
			{ id: 'events', parentId: 'root', path: 'events', module: {} },
		].map((r) => [r.id, r]),
	),
} as unknown as ServerBuild
const cacheApp: PageCacheApp = {
	routeIds: new Set(['events']),
	fillHeader: 'x-fill',
	policy: () => "default-src 'self'",
	generation: () => 0,
	onChange: () => () => {},
	changed: async () => {},
}

/** `handle` served on a loopback port while the tests of the describe around run. */
function serve(cache: { close(): void }, handle: http.RequestListener) {
	const server = http.createServer(handle)
	const site = { origin: '' }
	beforeAll(async () => {
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
		site.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
	})
	afterAll(() => {
		cache.close()
		server.close()
	})
	return site
}

describe('serveHit', () => {
	let renders = 0
	const cache = createPageCache({
		build: oneRoute,
		app: cacheApp,
		render: async () => {
			renders++
			return new Response('<!DOCTYPE html><html><body><main>Concerts</main></body></html>', {
				headers: { 'content-type': 'text/html; charset=utf-8', 'x-frame-options': 'SAMEORIGIN' },
			})
		},
		siteUrl: 'http://127.0.0.1',
		serverHeaders: { 'X-Frame-Options': 'DENY', 'X-Content-Type-Options': 'nosniff' },
	})
	let ids = 0
	const site = serve(cache, (req, res) => {
		if (cache.serveHit(req, res, `id-${++ids}`)) return
		res.setHeader('x-served', 'full')
		if (!cache.take(req, res, () => res.end('fallback'))) res.end('not cached')
	})

	it('answers a stored page at once with its prepared headers, the server’s own and a request id of its own', async () => {
		const miss = await fetch(`${site.origin}/events`)
		expect(miss.headers.get('x-page-cache')).toBe('miss')
		expect(miss.headers.get('x-served')).toBe('full')
		const html = await miss.text()
		const first = await fetch(`${site.origin}/events`, { headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } })
		const second = await fetch(`${site.origin}/events`)
		for (const hit of [first, second]) {
			expect(hit.status).toBe(200)
			expect(hit.headers.get('x-page-cache')).toBe('hit')
			expect(hit.headers.get('x-served')).toBeNull()
			// The page's own value of a header the server also sets wins, and is sent once.
			expect(hit.headers.get('x-frame-options')).toBe('SAMEORIGIN')
			expect(hit.headers.get('x-content-type-options')).toBe('nosniff')
			expect(await hit.text()).toBe(html)
		}
		expect(first.headers.get('content-encoding')).toBe('br')
		expect(first.headers.get('x-request-id')).not.toBe(second.headers.get('x-request-id'))
		expect(second.headers.get('x-request-id')).toMatch(/^id-\d+$/)
		expect(renders).toBe(1)
	})

	it('answers 304 to the current copy, and leaves a cookie, a query, a POST or another path to the full way', async () => {
		const etag = (await fetch(`${site.origin}/events`, { headers: { 'accept-encoding': 'br' } })).headers.get('etag')!
		const same = await fetch(`${site.origin}/events`, { headers: { 'if-none-match': etag } })
		expect(same.status).toBe(304)
		expect(same.headers.get('x-request-id')).toMatch(/^id-\d+$/)
		expect(same.headers.get('x-content-type-options')).toBe('nosniff')
		for (const [path, init] of [
			['/events', { headers: { cookie: 'session_token=x' } }],
			['/events?page=2', {}],
			['/events', { method: 'POST', body: 'x' }],
			['/ailleurs', {}],
		] as const) {
			const response = await fetch(site.origin + path, init)
			expect(response.headers.get('x-served')).toBe('full')
			await response.arrayBuffer()
		}
	})
})

describe('serveHit, a page past its time', () => {
	let clock = 0
	let renders = 0
	let rendered: Promise<void> = Promise.resolve()
	const addresses: (string | null)[] = []
	const cache = createPageCache({
		build: oneRoute,
		app: cacheApp,
		render: async (request) => {
			const n = ++renders
			addresses.push(request.headers.get('x-client-address'))
			await rendered
			return new Response(`<!DOCTYPE html><html><body><main>Rendu ${n}</main></body></html>`, {
				headers: { 'content-type': 'text/html; charset=utf-8' },
			})
		},
		siteUrl: 'http://127.0.0.1',
		clientAddress: () => '203.0.113.7',
		now: () => clock,
	})
	const site = serve(cache, (req, res) => {
		if (cache.serveHit(req, res, 'id-1')) return
		res.setHeader('x-served', 'full')
		if (!cache.take(req, res, () => res.end('fallback'))) res.end('not cached')
	})
	const get = async (headers: Record<string, string> = {}) => {
		const response = await fetch(`${site.origin}/events`, { headers })
		return {
			status: response.status,
			cache: response.headers.get('x-page-cache'),
			served: response.headers.get('x-served'),
			etag: response.headers.get('etag'),
			html: await response.text(),
		}
	}

	it('is answered at once, stale, while one render in the background refreshes it; then the new one is', async () => {
		expect(await get()).toMatchObject({ cache: 'miss', served: 'full' })
		clock = 61_000
		let finish!: () => void
		rendered = new Promise((resolve) => (finish = resolve))
		const stale = await get()
		expect(stale).toMatchObject({ status: 200, cache: 'stale', served: null, html: expect.stringContaining('Rendu 1') })
		for (let k = 0; k < 2; k++)
			expect(await get()).toMatchObject({ cache: 'stale', served: null, html: expect.stringContaining('Rendu 1') })
		expect(await get({ 'if-none-match': stale.etag! })).toMatchObject({ status: 304, cache: 'stale', served: null })
		expect(renders).toBe(2)
		expect(addresses[1]).toBe('203.0.113.7')
		finish()
		// The new page is kept once compressed (brotli at its best: slow on a busy machine).
		let next = await get()
		for (let k = 0; k < 100 && next.cache === 'stale'; k++) {
			await new Promise((resolve) => setTimeout(resolve, 20))
			next = await get()
		}
		expect(next).toMatchObject({ cache: 'hit', served: null, html: expect.stringContaining('Rendu 2') })
	})

	it('is left to the full way once its grace has passed too', async () => {
		clock += 121_000
		expect(await get()).toMatchObject({ cache: 'miss', served: 'full', html: expect.stringContaining('Rendu 3') })
	})
})

describe('a page past its time', () => {
	let clock = 0
	let renders = 0
	/** Each render waits for this before answering (a slow render under load). */
	let rendered: Promise<void> = Promise.resolve()
	let status = 200
	const cache = createPageCache({
		build: oneRoute,
		app: cacheApp,
		render: async () => {
			const n = ++renders
			await rendered
			return new Response(`<!DOCTYPE html><html><body><main>Rendu ${n}</main></body></html>`, {
				status,
				headers: { 'content-type': 'text/html; charset=utf-8' },
			})
		},
		siteUrl: 'http://127.0.0.1',
		now: () => clock,
	})
	const site = serve(cache, (req, res) => {
		if (!cache.take(req, res, () => res.end('fallback'))) res.end('not cached')
	})
	const get = async () => {
		const response = await fetch(`${site.origin}/events`)
		return { status: response.status, cache: response.headers.get('x-page-cache'), html: await response.text() }
	}

	it('is served at once while one render refreshes it, then the new one is', async () => {
		expect(await get()).toMatchObject({ cache: 'miss', html: expect.stringContaining('Rendu 1') })
		clock = 61_000
		let finish!: () => void
		rendered = new Promise((resolve) => (finish = resolve))
		// Three visitors while the refresh has not finished: the old page, one render for them all.
		for (let k = 0; k < 3; k++) expect(await get()).toMatchObject({ cache: 'stale', html: expect.stringContaining('Rendu 1') })
		expect(renders).toBe(2)
		finish()
		await new Promise((resolve) => setTimeout(resolve, 50))
		expect(await get()).toMatchObject({ cache: 'hit', html: expect.stringContaining('Rendu 2') })
	})

	it('is not served once the grace has passed too: the visitor waits for the render', async () => {
		clock += 121_000
		expect(await get()).toMatchObject({ cache: 'miss', html: expect.stringContaining('Rendu 3') })
	})

	it('goes when its refresh is no longer a page to keep', async () => {
		clock += 61_000
		status = 404
		expect(await get()).toMatchObject({ cache: 'stale', html: expect.stringContaining('Rendu 3') })
		await new Promise((resolve) => setTimeout(resolve, 50))
		const next = await get()
		expect(next.status).toBe(404)
		expect(next.cache).toBeNull()
	})
})
