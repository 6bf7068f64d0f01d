import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMigratedTestDatabase, databaseKind, type TestDatabase } from '../support/database.ts'
import { ensureBuild, setUpFirstAdmin, TEST_BUILD_DIR, startSiteServer, type SiteServer } from '../support/site-server.ts'

/*
 * A page is rendered from the routes it needs rather than the whole table
 * (app/platform/render-manifest.server.ts). What the browser is told must not change: the route
 * manifest written in each page is exactly what React Router's lazy discovery promises, the
 * routes matching the page's path and each of its parent paths, as its own /__manifest endpoint
 * (answered from the whole table) gives them.
 */
const kind = databaseKind()
const PASSWORD = 'un long mot de passe du groupe 2026'

let database: TestDatabase
let site: SiteServer
let adminCookie = ''

type RouteEntry = { id: string; parentId?: string; path?: string; index?: boolean; module: string }
type PageManifest = { version: string; routes: Record<string, RouteEntry> }

/** The manifest a page hands the browser (`window.__reactRouterManifest = {…};`). */
function pageManifest(html: string): PageManifest {
	const at = html.indexOf('window.__reactRouterManifest = ')
	expect(at, 'the page writes its route manifest').toBeGreaterThan(-1)
	const start = at + 'window.__reactRouterManifest = '.length
	const end = html.indexOf(';\n', start)
	return JSON.parse(html.slice(start, end)) as PageManifest
}

/** `pathname`, each of its parent paths and « / ». */
function pathAndParents(pathname: string): string[] {
	const segments = pathname.split('/').filter(Boolean)
	return segments.map((_, k) => `/${segments.slice(0, k + 1).join('/')}`).concat('/')
}

/** A form sent by a browser on the site. */
const formPost = (): RequestInit => ({
	method: 'POST',
	headers: { origin: site.origin, 'content-type': 'application/x-www-form-urlencoded' },
	body: 'champ=valeur',
})

/**
 * Renders `path` three times (a path's routes are worked out on its second render; the first is
 * rendered from the whole table) and checks each page's manifest against /__manifest. A visitor's
 * requests carry a cookie unrelated to the site, so that the page cache renders them every time.
 */
async function expectFullTableManifest(path: string, options: { cookie?: string; post?: boolean } = {}) {
	const cookie = options.cookie ?? 'visite=1'
	const init: RequestInit = options.post ? formPost() : { headers: { cookie } }
	let last: { status: number; manifest: PageManifest } | undefined
	for (let render = 1; render <= 3; render++) {
		const response = await fetch(site.origin + path, { ...init, redirect: 'manual' })
		const manifest = pageManifest(await response.text())
		const query = new URLSearchParams({ version: manifest.version, paths: pathAndParents(path).join(',') })
		const fromTable = await fetch(`${site.origin}/__manifest?${query}`)
		expect(fromTable.status).toBe(200)
		const expected = (await fromTable.json()) as Record<string, RouteEntry>
		expect(Object.keys(manifest.routes).sort(), `${path}, render ${render}`).toEqual(Object.keys(expected).sort())
		expect(manifest.routes, `${path}, render ${render}`).toEqual(expected)
		last = { status: response.status, manifest }
	}
	return last!
}

beforeAll(async () => {
	await ensureBuild()
	database = await createMigratedTestDatabase()
	site = await startSiteServer({
		buildDir: TEST_BUILD_DIR,
		dataDir: database.dataDir,
		env: { DATABASE_URL: database.databaseUrl, LOG_LEVEL: 'info' },
	})
	const jar = await setUpFirstAdmin(site, { name: 'Régie du groupe', email: 'regie@exemple.fr', password: PASSWORD })
	expect(jar['better-auth.session_token']).toBeTruthy()
	adminCookie = `better-auth.session_token=${jar['better-auth.session_token']}`
}, 240_000)

afterAll(async () => {
	await site?.stop()
	await database?.dispose()
})

describe(`the route manifest of a rendered page on ${kind}`, () => {
	it('lists, for a visitor, the routes of the page and of its parent paths, no more, no less', async () => {
		for (const path of ['/', '/events', '/events/inconnu', '/auth/signin', '/policies/privacy', '/contact', '/redeem']) {
			const { manifest } = await expectFullTableManifest(path)
			expect(manifest.routes.root).toBeDefined()
		}
	})

	it('does the same for signed-in pages, nested and with parameters, rendered per request', async () => {
		const editor = await expectFullTableManifest('/dashboard/admin/events/new', { cookie: adminCookie })
		expect(editor.status).toBe(200)
		// The page's own branch and the parents' (the dashboard, the admin frame, the landing for « / »).
		for (const id of ['root', 'routes/dashboard/layout', 'routes/admin/layout', 'routes/admin/event-editor', 'routes/public/home'])
			expect(Object.keys(editor.manifest.routes)).toContain(id)
		// …and none of the table's other screens.
		expect(editor.manifest.routes['routes/admin/codes']).toBeUndefined()
		for (const path of [
			'/dashboard',
			'/dashboard/settings',
			'/dashboard/admin/events',
			'/dashboard/admin/setlist/songs',
			'/dashboard/admin/codes/inconnu',
		])
			await expectFullTableManifest(path, { cookie: adminCookie })
	})

	it('does the same for an error page: a form sent to a path no screen answers', async () => {
		const { status, manifest } = await expectFullTableManifest('/une/page/qui/n-existe/pas', { post: true })
		expect(status).toBe(404)
		expect(manifest.routes['routes/public/catch-all']).toBeDefined()
	})
})

/** What a page tells the browser of React Router's settings (`window.__reactRouterContext = {…};`). */
function pageRouterContext(html: string): { basename: string; future: Record<string, unknown>; routeDiscovery: { mode: string } } {
	const start = html.indexOf('window.__reactRouterContext = ')
	expect(start, 'the page writes its router context').toBeGreaterThan(-1)
	const json = html.slice(start + 'window.__reactRouterContext = '.length, html.indexOf(';window.__reactRouterContext.stream', start))
	return JSON.parse(json) as ReturnType<typeof pageRouterContext>
}

describe(`the router settings a page hands the browser on ${kind}`, () => {
	// The server matches paths with React Router's route-pattern matcher; the browser keeps its
	// default one and must never be told to use the other (it would stop at hydration).
	it("leave out the server's own way of matching routes, on every kind of page", async () => {
		const pages: [string, RequestInit][] = [
			['/', {}],
			['/events', {}],
			['/events', { headers: { cookie: 'visite=1' } }],
			['/dashboard', { headers: { cookie: adminCookie } }],
			['/dashboard/admin/events/new', { headers: { cookie: adminCookie } }],
			['/une/page/qui/n-existe/pas', formPost()],
		]
		for (const [path, init] of pages) {
			const response = await fetch(site.origin + path, { ...init, redirect: 'manual' })
			const html = await response.text()
			expect(html, path).not.toContain('routePatternMatching')
			const context = pageRouterContext(html)
			expect(context.basename, path).toBe('/')
			expect(context.routeDiscovery.mode, path).toBe('lazy')
			expect(Object.keys(context.future), path).not.toContain('unstable_routePatternMatching')
		}
	})

	it('while the server itself matches paths with the route-pattern matcher', async () => {
		// The one path the two matchers read differently (app/platform/route-matching.server.test.ts):
		// the default one sends this form to /events, which has no action (405).
		const response = await fetch(`${site.origin}/events//`, { ...formPost(), redirect: 'manual' })
		expect(response.status).toBe(404)
	})
})

describe(`how a page rendered per request is sent on ${kind}`, () => {
	// Pages whose loaders hand over no promise are rendered and sent whole
	// (app/platform/document-body.server.ts): one body with its length, compressed or not.
	it('goes out whole, with its length, and compressed when the browser takes it', async () => {
		for (const path of ['/dashboard', '/dashboard/admin/events', '/policies/privacy']) {
			const plain = await fetch(site.origin + path, { headers: { cookie: adminCookie, 'accept-encoding': 'identity' } })
			expect(plain.status, path).toBe(200)
			const html = await plain.text()
			expect(html, path).toMatch(/^<!DOCTYPE html>.*<\/html>$/s)
			expect(Number(plain.headers.get('content-length')), path).toBe(Buffer.byteLength(html))
			// React Router's data script, read before the render (readDataScript): the loaders' data once.
			expect(html.split('window.__reactRouterContext.streamController.enqueue(').length, path).toBe(2)
			expect(html).toContain('window.__reactRouterContext.streamController.close()')
			expect(html, path).not.toContain('<!--$!-->')

			// Compressed at once, with the length of the compressed bytes (server/respond.ts); Node's
			// fetch decodes brotli itself: the same page.
			const compressed = await fetch(site.origin + path, { headers: { cookie: adminCookie, 'accept-encoding': 'br' } })
			expect(compressed.headers.get('content-encoding'), path).toBe('br')
			const compressedLength = Number(compressed.headers.get('content-length'))
			expect(compressedLength, path).toBeGreaterThan(0)
			expect(compressedLength, path).toBeLessThan(Buffer.byteLength(html) / 2)
			const decoded = await compressed.text()
			expect(decoded.replace(/nonce="[^"]+"/g, '').length, path).toBe(html.replace(/nonce="[^"]+"/g, '').length)
		}
	})

	it('renders a lazy part on its first request too (the page is rendered again, streamed whole)', async () => {
		// The stats screen's chart is a lazy component: the first render of it finds it not loaded.
		for (const round of [1, 2]) {
			const response = await fetch(`${site.origin}/dashboard/admin`, { headers: { cookie: adminCookie, 'accept-encoding': 'identity' } })
			expect(response.status, `request ${round}`).toBe(200)
			const html = await response.text()
			expect(html, `request ${round}`).toMatch(/^<!DOCTYPE html>.*<\/html>$/s)
			expect(html, `request ${round}`).toContain('<figure')
			expect(html, `request ${round}`).not.toContain('<!--$!-->')
			expect(Number(response.headers.get('content-length'))).toBe(Buffer.byteLength(html))
		}
	})

	it('is answered to HEAD with the headers alone', async () => {
		const head = await fetch(`${site.origin}/dashboard`, {
			method: 'HEAD',
			headers: { cookie: adminCookie, 'accept-encoding': 'identity' },
		})
		expect(head.status).toBe(200)
		expect(head.headers.get('content-type')).toBe('text/html; charset=utf-8')
		expect(await head.text()).toBe('')
	})
})
