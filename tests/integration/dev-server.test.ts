import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMigratedTestDatabase, databaseKind, type TestDatabase } from '../support/database.ts'
import { isRunning, ROOT, startSiteServer, type SiteServer } from '../support/site-server.ts'

/*
 * `npm run dev` is the production server with Vite inside (docs/decisions/0025-one-server-in-development.md):
 * started as `node server/index.ts --dev` with no build, it answers through server/ as production
 * does (request ids, security headers, the request guard, the page cache), and Vite's own requests
 * and hot reload go through that same server and port. If development ever goes back to a server
 * of its own, these fail.
 */
const kind = databaseKind()
// Which database is behind does not change how development is served: once, on the default one.
const once = kind === 'pglite'

let server: SiteServer
let database: TestDatabase

describe.runIf(once)(`the development server (npm run dev) on ${kind}`, () => {
	beforeAll(async () => {
		database = await createMigratedTestDatabase()
		server = await startSiteServer({
			development: true,
			dataDir: database.dataDir,
			env: { DATABASE_URL: database.databaseUrl },
			startTimeoutMs: 120_000,
		})
	}, 180_000)

	afterAll(async () => {
		await server?.stop()
		if (server) expect(isRunning(server.pid)).toBe(false)
		await database?.dispose()
	})

	it('is what `npm run dev` starts', () => {
		const { scripts } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
		expect(scripts.dev).toMatch(/(^|&& )node server\/index\.ts --dev$/)
	})

	it('renders the French home page through server/: request id, security headers, page cache', async () => {
		const response = await fetch(`${server.origin}/`)
		const html = await response.text()
		expect(response.status).toBe(200)
		expect(response.headers.get('content-type')).toMatch(/^text\/html/)
		expect(html).toMatch(/^<!DOCTYPE html><html lang="fr"/)
		// Development it is: the styles come from Vite (the sources and React Router's critical CSS), not
		// a build's hashed assets. A public page runs no React, in development as in production
		// (docs/decisions/0027-html-first-public-pages.md): at most an island of its own, from the sources.
		expect(html).toContain('href="/app/styles/public.css"')
		expect(html).toContain('/@react-router/critical.css')
		expect(html).not.toContain('virtual:react-router')
		for (const [, src] of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) expect(src).toMatch(/^\/app\/islands\//)
		// Headers that server/main.ts and server/page-cache.ts add, which React Router alone never sends.
		expect(response.headers.get('x-request-id')).toMatch(/^[\w-]{8,}$/)
		expect(response.headers.get('x-frame-options')).toBe('DENY')
		expect(response.headers.get('x-content-type-options')).toBe('nosniff')
		expect(response.headers.get('x-page-cache')).toMatch(/^(miss|hit)$/)
		const again = await fetch(`${server.origin}/`)
		await again.arrayBuffer()
		expect(again.headers.get('x-page-cache')).toBe('hit')
	})

	it('answers /healthz and refuses what no browser sends, as production does', async () => {
		const health = await fetch(`${server.origin}/healthz`)
		await health.arrayBuffer()
		expect(health.status).toBe(200)
		expect(health.headers.get('x-request-id')).toBeTruthy()
		// The request guard (server/request-guard.ts) runs before Vite sees anything.
		const refused = await fetch(`${server.origin}/`, { method: 'PROPFIND' })
		expect(refused.status).toBe(405)
		expect(await refused.text()).toContain('Méthode non autorisée.')
	})

	it('serves Vite’s modules and its hot-reload socket on the same port, behind the same headers', async () => {
		const client = await fetch(`${server.origin}/@vite/client`)
		expect(client.status).toBe(200)
		expect(client.headers.get('content-type')).toMatch(/javascript/)
		expect(client.headers.get('x-request-id')).toBeTruthy()
		expect(client.headers.get('x-frame-options')).toBe('DENY')
		await client.arrayBuffer()
		// Vite's liveness probe of its hot-reload WebSocket: accepted, then closed by Vite.
		const closed = await new Promise<number>((resolve, reject) => {
			const socket = new WebSocket(server.origin.replace(/^http/, 'ws') + '/', 'vite-ping')
			socket.addEventListener('close', (event) => resolve(event.code))
			socket.addEventListener('error', () => reject(new Error('the hot-reload socket was refused')))
		})
		expect(closed).toBe(1000)
	})

	it('stops through the server’s own shutdown on Ctrl-C', async () => {
		// SIGINT: the shutdown of docs/decisions/0019-shutdown.md, which exits 0 once the database is
		// closed. (A SIGTERM is also heard by the Vite servers React Router's plugin starts, which exit
		// the process as soon as they are closed: the ADR of this test says so.)
		await server.stop(30_000, 'SIGINT')
		expect(await server.exited).toEqual({ code: 0, signal: null })
	})
})
