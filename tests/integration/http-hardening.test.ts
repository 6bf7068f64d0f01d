import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMigratedTestDatabase, databaseKind, type TestDatabase } from '../support/database.ts'
import { postChunked } from '../support/chunked.ts'
import { ensureBuild, TEST_BUILD_DIR, isRunning, startSiteServer, type SiteServer } from '../support/site-server.ts'

/*
 * What an attacker sends to the real HTTP server (server/index.ts on a production build): bodies
 * without an end, methods and hosts no browser sends. Each gets a 4xx and a short French answer,
 * never a 500, a stack trace or the server's memory.
 */
const kind = databaseKind()
const MB = 1024 * 1024

let server: SiteServer
let database: TestDatabase

/** One raw HTTP/1.1 exchange, for what fetch() refuses to send (TRACE, a broken Host). */
function raw(origin: string, request: string): Promise<string> {
	const { hostname, port } = new URL(origin)
	return new Promise((resolve, reject) => {
		let answer = ''
		const socket = net.connect(Number(port), hostname, () => socket.end(request))
		socket.setEncoding('utf8')
		socket.on('data', (part: string) => (answer += part))
		socket.on('end', () => resolve(answer))
		socket.on('error', (error) => (answer ? resolve(answer) : reject(error)))
		socket.setTimeout(10_000, () => socket.destroy(new Error('no answer')))
	})
}

// The HTTP path does not depend on the database: this file runs once, in the PostgreSQL project.
describe.runIf(kind === 'postgres')(`the HTTP server against hostile requests on ${kind}`, () => {
	beforeAll(async () => {
		await ensureBuild()
		database = await createMigratedTestDatabase()
		server = await startSiteServer({
			buildDir: TEST_BUILD_DIR,
			dataDir: database.dataDir,
			env: { DATABASE_URL: database.databaseUrl, LOG_LEVEL: 'info' },
		})
	}, 300_000)

	afterAll(async () => {
		await server?.stop()
		if (server) expect(isRunning(server.pid)).toBe(false)
		await database?.dispose()
	})

	describe('methods and hosts no browser sends', () => {
		it('answers TRACE and PROPFIND with a 405 and the methods it serves, never a stack trace', async () => {
			for (const method of ['TRACE', 'PROPFIND']) {
				const answer = await raw(server.origin, `${method} / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`)
				expect(answer, method).toMatch(/^HTTP\/1\.1 405 /)
				expect(answer).toMatch(/\r\nAllow: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS\r\n/i)
				expect(answer).toContain('Méthode non autorisée.')
				expect(answer).not.toMatch(/\bat \S+ \(|Error:/)
			}
		})

		it('leaves a method HTTP does not know to Node’s parser: a bare 400', async () => {
			const answer = await raw(server.origin, `CONNECTX / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`)
			expect(answer).toMatch(/^HTTP\/1\.1 400 /)
			expect(answer).not.toMatch(/\bat \S+ \(|Error:/)
		})

		it('answers a path far longer or deeper than any of the site’s with a 414, before any page is rendered', async () => {
			for (const path of ['/a'.repeat(4_000), `/${'x'.repeat(2_000)}`]) {
				const response = await fetch(server.origin + path, {
					method: 'POST',
					headers: { origin: server.origin, 'content-type': 'application/x-www-form-urlencoded' },
					body: 'champ=valeur',
				})
				expect(response.status, path.slice(0, 20)).toBe(414)
				expect(await response.text()).toBe('Adresse trop longue.')
			}
			// A made-up address of an ordinary depth still goes to the landing page.
			const ordinary = await fetch(`${server.origin}/une/page/qui/n-existe/pas`, { redirect: 'manual' })
			expect(ordinary.status).toBe(302)
		})

		it('answers a Host with an impossible port with a 400, never a 500', async () => {
			for (const host of ['x:99999', 'exemple.fr:0']) {
				const answer = await raw(server.origin, `GET / HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)
				expect(answer, host).toMatch(/^HTTP\/1\.1 400 /)
				expect(answer).not.toMatch(/\bat \S+ \(|Error:/)
			}
		})
	})

	describe('cross-site form posts', () => {
		it('get the site’s French 403 page, and one short line in the log', async () => {
			const before = server.output().length
			const response = await fetch(`${server.origin}/auth/signin`, {
				method: 'POST',
				headers: { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
				body: new URLSearchParams({ email: 'x@exemple.fr', password: 'y' }),
			})
			expect(response.status).toBe(403)
			const html = await response.text()
			expect(html).toContain('Requête refusée')
			expect(html).toContain('ne vient pas de ce site')
			await new Promise((resolve) => setTimeout(resolve, 200))
			// This request's lines (the background jobs, started after the first answer, log their own).
			const reqId = response.headers.get('x-request-id')
			expect(reqId).toBeTruthy()
			const logged = server
				.output()
				.slice(before)
				.trim()
				.split('\n')
				.filter((line) => line && JSON.parse(line).reqId === reqId && JSON.parse(line).msg !== 'request')
			expect(logged).toHaveLength(1)
			expect(logged[0]).toContain('cross-site')
			expect(logged[0]).not.toContain('stack')
			expect(JSON.parse(logged[0]!).level).toBeLessThan(50)
		})
	})

	describe('what the log and the caches keep', () => {
		it('writes no mailed token, nor a provider’s code, into the request log', async () => {
			const secret = 'Zq8xTokenQuiNeDoitPasFuir123456'
			await (await fetch(`${server.origin}/auth/claim?mode=resetPassword&token=${secret}`)).arrayBuffer()
			await (await fetch(`${server.origin}/api/auth/callback/oidc?code=${secret}&state=${secret}`, { redirect: 'manual' })).arrayBuffer()
			await new Promise((resolve) => setTimeout(resolve, 200))
			const lines = server
				.output()
				.split('\n')
				.filter((line) => line.includes('"msg":"request"'))
			expect(lines.some((line) => line.includes('/auth/claim?mode=resetPassword&token=[redacted]'))).toBe(true)
			const leaks = server
				.output()
				.split('\n')
				.filter((line) => line.includes(secret))
			expect(leaks).toEqual([])
		})

		it('marks pages and their .data answers private, no-store for a visitor with a session cookie', async () => {
			const cookie = 'better-auth.session_token=quelconque.signature'
			for (const path of ['/', '/events', '/_root.data', '/events.data']) {
				const response = await fetch(`${server.origin}${path}`, { headers: { cookie } })
				await response.arrayBuffer()
				expect(response.headers.get('cache-control'), path).toBe('private, no-store')
			}
		})
	})

	describe('request bodies', () => {
		it('cuts a chunked body (no Content-Length) to /auth/signin at its small limit with a 413', async () => {
			// 32 MB: more than loopback's socket buffers can hold (several MB each way), so a client
			// that sent it all would mean the server read it all.
			const result = await postChunked(`${server.origin}/auth/signin`, 32 * MB)
			expect(result.status).toBe(413)
			expect(result.body).toContain('Envoi trop volumineux.')
			// Stopped long before the whole body: the server never read it all.
			expect(result.sent).toBeLessThan(32 * MB)
		})

		it('cuts a chunked body to Better Auth’s endpoints the same way', async () => {
			// The providers' return is the one Better Auth endpoint left open (Apple posts its form there).
			const result = await postChunked(`${server.origin}/api/auth/callback/apple`, 8 * MB)
			expect(result.status).toBe(413)
		})

		it('refuses a declared length over the route’s limit before reading anything', async () => {
			const response = await fetch(`${server.origin}/auth/signup`, {
				method: 'POST',
				headers: { origin: server.origin, 'content-type': 'application/x-www-form-urlencoded' },
				body: `name=${'a'.repeat(200 * 1024)}`,
			})
			expect(response.status).toBe(413)
		})

		it('still takes an ordinary form, and keeps answering after the refusals', async () => {
			const response = await fetch(`${server.origin}/auth/signin`, {
				method: 'POST',
				headers: { origin: server.origin, 'content-type': 'application/x-www-form-urlencoded' },
				body: new URLSearchParams({ email: 'personne@exemple.fr', password: 'pas le bon mot de passe' }),
			})
			expect(response.status).toBe(400)
			expect(await response.text()).toContain('Adresse e-mail ou mot de passe incorrect')
			expect((await fetch(`${server.origin}/healthz`)).status).toBe(200)
		})
	})

	// Last: its requests fill the log the tests above read.
	describe('route discovery', () => {
		it('sends the route table as one file: no /__manifest to match paths for anyone', async () => {
			// React Router names its manifest file after the build's version (react-router.config.ts:
			// routeDiscovery « initial », docs/decisions/0031-route-table-sent-whole.md).
			const manifest = fs.readdirSync(path.join(TEST_BUILD_DIR, 'client', 'assets')).find((file) => /^manifest-\w+\.js$/.test(file))
			const version = /^manifest-(\w+)\.js$/.exec(manifest ?? '')?.[1]
			expect(version).toBeTruthy()
			const file = await fetch(`${server.origin}/assets/${manifest}`)
			expect(file.status).toBe(200)
			expect(await file.text()).toContain('routes/public/events')
			// 1,000 made-up paths: an unknown path like any other (the catch-all's redirect to « / »),
			// without any route matched for them.
			const asked = await fetch(
				`${server.origin}/__manifest?version=${version}&paths=${Array.from({ length: 1_000 }, (_, k) => `/${k.toString(36)}`).join(',')}`,
				{ redirect: 'manual' },
			)
			expect(asked.status).toBe(302)
			expect(new URL(asked.headers.get('location') ?? '', server.origin).pathname).toBe('/')
			expect(await asked.text()).not.toContain('routes/public/events')
		})
	})
})
