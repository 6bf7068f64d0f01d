import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMigratedTestDatabase, databaseKind, type TestDatabase } from '../support/database.ts'
import { ensureBuild, setUpFirstAdmin, TEST_BUILD_DIR, startSiteServer, type SiteServer } from '../support/site-server.ts'

/*
 * A page rendered per request whose loaders hand over no promise is sent whole, with its length
 * (app/platform/document-body.server.ts), through React's and React Router's public APIs alone.
 */
const kind = databaseKind()
const PASSWORD = 'un long mot de passe du groupe 2026'

let database: TestDatabase
let site: SiteServer
let adminCookie = ''

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
			if (path.startsWith('/dashboard')) {
				// React Router's data script is complete: the loaders' data, then the end of its stream.
				expect(html, path).toContain('window.__reactRouterContext.streamController.enqueue(')
				expect(html).toContain('window.__reactRouterContext.streamController.close()')
			} else {
				// A public page runs no React, even for a signed-in member (app/hydration.ts): its one script
				// is the island that follows a sign-out in another tab.
				expect(html, path).not.toContain('__reactRouterContext')
				expect(html.match(/<script\b[^>]*>/g), path).toEqual([expect.stringMatching(/src="\/assets\/follow-session-[\w-]+\.js"/)])
			}
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

	it('renders a lazy part on its first request too, whole', async () => {
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
