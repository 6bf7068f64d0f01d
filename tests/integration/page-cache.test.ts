import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { CACHEABLE_ROUTE_IDS } from '#app/cacheable-pages.ts'
import translation from '../../public/locales/fr-FR/translation.json'
import { createMigratedTestDatabase, databaseKind, type TestDatabase } from '../support/database.ts'
import { cookiesOf, ensureBuild, setUpFirstAdmin, TEST_BUILD_DIR, startSiteServer, type SiteServer } from '../support/site-server.ts'

/*
 * The anonymous page cache through the real HTTP server (server/index.ts on a production build):
 * a cookie-less visitor gets the shared copy; a signed-in visitor, a flash message and a form's
 * errors are rendered for that one visitor and are never kept for anyone else; an admin's write
 * empties the cache at once, on every instance (two instances on one PostgreSQL).
 */
const kind = databaseKind()
const CACHE = 'x-page-cache'
const PASSWORD = 'un long mot de passe du groupe 2026'

let database: TestDatabase
let a: SiteServer
/** A second instance on the same database (PostgreSQL only); on PGlite, the same one. */
let b: SiteServer
let adminCookie = ''
/** The flash cookie of the set-up redirect (« Vous êtes administrateur »). */
let flashCookie = ''
let eventId = ''

function get(server: SiteServer, path: string, headers: Record<string, string> = {}, method = 'GET') {
	return fetch(server.origin + path, { method, headers, redirect: 'manual' })
}

async function page(server: SiteServer, path: string, headers: Record<string, string> = {}) {
	const response = await get(server, path, headers)
	return { response, status: response.status, cache: response.headers.get(CACHE), html: await response.text() }
}

/** A form posted by a browser on the site (Origin set, as every cookie-carrying POST needs). */
function post(server: SiteServer, path: string, fields: Record<string, string>, cookie = '') {
	return fetch(server.origin + path, {
		method: 'POST',
		headers: { origin: server.origin, 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
		body: new URLSearchParams(fields),
		redirect: 'manual',
	})
}

const cookieHeader = (jar: Record<string, string>) =>
	Object.entries(jar)
		.map(([name, value]) => `${name}=${value}`)
		.join('; ')

function eventForm(intent: string): Record<string, string> {
	return {
		intent,
		title: 'Concert surprise au Chabada',
		status: 'scheduled',
		startsAt: '2030-05-16T20:30',
		doorsAt: '',
		endsAt: '',
		venueName: 'Le Chabada',
		address: '',
		postalCode: '49100',
		city: 'Angers',
		country: 'FR',
		latitude: '',
		longitude: '',
		ticketUrl: '',
		priceText: '',
		description: '',
	}
}

async function start(): Promise<SiteServer> {
	// At info level the server logs the mails it cannot send (no SMTP here): the confirmation link is read there.
	return startSiteServer({
		buildDir: TEST_BUILD_DIR,
		dataDir: database.dataDir,
		// The link-in-bio page is served only when configured: a dead loopback address (never followed here).
		env: { DATABASE_URL: database.databaseUrl, LOG_LEVEL: 'info', LINK_IN_BIO_URL: 'http://127.0.0.1:9/' },
	})
}

beforeAll(async () => {
	await ensureBuild()
	database = await createMigratedTestDatabase()
	a = await start()
	b = kind === 'postgres' ? await start() : a
	// The first admin, through the set-up link the last started instance wrote to its log.
	const jar = await setUpFirstAdmin(b, { name: 'Régie du groupe', email: 'regie@exemple.fr', password: PASSWORD })
	adminCookie = `better-auth.session_token=${jar['better-auth.session_token']}`
	expect(adminCookie).toMatch(/session_token=.+/)
	flashCookie = `flash=${jar.flash}`
	expect(jar.flash).toBeTruthy()
}, 240_000)

afterAll(async () => {
	await a?.stop()
	if (b && b !== a) await b.stop()
	await database?.dispose()
})

describe(`the anonymous page cache on ${kind}`, () => {
	it('lists only routes that exist in the build', () => {
		// Node loads the build as the server does (~1 s); imported here, Vite's module runner would
		// transform its megabytes of bundled code first (~10 s on a busy machine).
		const script = 'const build = await import(process.argv[1]); console.log(JSON.stringify(Object.keys(build.routes)))'
		const bundle = pathToFileURL(path.join(process.cwd(), TEST_BUILD_DIR, 'server', 'index.js')).href
		const routeIds = JSON.parse(
			execFileSync(process.execPath, ['--input-type=module', '-e', script, bundle], { encoding: 'utf8' }),
		) as string[]
		for (const id of CACHEABLE_ROUTE_IDS) expect(routeIds).toContain(id)
	})

	it('serves one copy to every cookie-less visitor, with a policy that allows exactly its inline scripts', async () => {
		const first = await page(a, '/events')
		expect(first.status).toBe(200)
		expect(['miss', 'hit']).toContain(first.cache)
		const second = await page(a, '/events')
		expect(second.cache).toBe('hit')
		expect(second.html).toBe(first.html)
		// No nonce in shared bytes, no 'unsafe-inline'.
		expect(second.html).not.toMatch(/\snonce=/)
		const policy = second.response.headers.get('content-security-policy')!
		const scriptSrc = policy.split(';').find((d) => d.trim().startsWith('script-src'))!
		expect(scriptSrc).not.toContain('unsafe-inline')
		expect(scriptSrc).not.toContain('nonce-')
		// A public page sends no script (app/hydration.ts): nothing to allow, no module to preload.
		expect(second.html).not.toMatch(/<script\b/)
		expect(second.html).not.toContain('rel="modulepreload"')
		// The link-in-bio page has an inline script of its own (its timed redirect): allowed by its hash.
		await page(a, '/banner')
		const banner = await page(a, '/banner')
		expect(banner.cache).toBe('hit')
		expect(banner.html).not.toMatch(/\snonce=/)
		const bannerScripts = banner.response.headers
			.get('content-security-policy')!
			.split(';')
			.find((d) => d.trim().startsWith('script-src'))!
		expect(bannerScripts).not.toContain('unsafe-inline')
		const inline = [...banner.html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter((m) => !/\ssrc=/.test(m[1]!))
		expect(inline.length).toBeGreaterThan(0)
		for (const match of inline) {
			const hash = createHash('sha256').update(match[2]!).digest('base64')
			expect(bannerScripts).toContain(`'sha256-${hash}'`)
		}
		// Security headers of every response are there too, and each answer has an id of its own.
		expect(second.response.headers.get('x-content-type-options')).toBe('nosniff')
		expect(second.response.headers.get('x-frame-options')).toBe('DENY')
		expect(second.response.headers.get('permissions-policy')).toContain('camera=()')
		const third = await page(a, '/events')
		expect(third.cache).toBe('hit')
		expect(third.response.headers.get('x-request-id')).toMatch(/^[\w-]{16}$/)
		expect(third.response.headers.get('x-request-id')).not.toBe(second.response.headers.get('x-request-id'))
		expect(second.response.headers.get('vary')).toMatch(/Accept-Encoding/)
		expect(second.response.headers.get('vary')).toMatch(/Cookie/)
	})

	it('never serves or keeps a signed-in page', async () => {
		const member = await post(a, '/auth/signup', {
			name: 'Camille Fan',
			email: 'camille.fan@exemple.fr',
			password: PASSWORD,
			acceptPrivacy: 'on',
		})
		expect(member.status).toBe(302)
		// No session before the address is proved: the confirmation link, from the mail the server logged.
		const tokens = [...a.output().matchAll(/auth\/claim\?mode=verifyEmail(?:&|\\u0026|&amp;)token=([\w.-]+)/g)]
		const token = tokens.at(-1)?.[1]
		expect(token, 'a confirmation link in the log').toBeTruthy()
		const confirmed = await post(a, `/auth/claim?${new URLSearchParams({ mode: 'verifyEmail', token: token! })}`, { password: PASSWORD })
		expect(confirmed.status).toBe(200)
		const cookie = cookieHeader(cookiesOf(confirmed))
		expect(cookie).toMatch(/session_token=/)
		for (const path of ['/', '/events', '/policies/privacy']) {
			await page(a, path) // the shared copy is there
			const mine = await page(a, path, { cookie })
			expect(mine.status).toBe(200)
			expect(mine.cache).toBeNull()
			// Rendered for this member: « Mon compte » (the page sends no data script with their address: app/hydration.ts).
			expect(mine.html).toContain(translation.site.nav.myAccount)
			expect(mine.response.headers.get('content-security-policy')).toMatch(/'nonce-[^']+'/)
			const anonymous = await page(a, path)
			expect(anonymous.cache).toBe('hit')
			expect(anonymous.html).not.toContain('camille.fan@exemple.fr')
			expect(anonymous.html).not.toContain(translation.site.nav.myAccount)
		}
		// Any cookie at all, even one the site does not know, is rendered for its visitor.
		expect((await page(a, '/', { cookie: 'autre=1' })).cache).toBeNull()
	})

	it('never serves or keeps a flash message', async () => {
		const title = translation.auth.flash.adminReady.title
		for (const path of ['/', '/auth/signin']) {
			expect((await page(a, path)).html).not.toContain(title)
			// A flash cookie alone (no session): rendered for that visitor, with the message (in words:
			// the root translates it on the server).
			const flashed = await page(a, path, { cookie: flashCookie })
			expect(flashed.cache).toBeNull()
			expect(flashed.html).toContain(title)
			const anonymous = await page(a, path)
			expect(anonymous.cache).toBe('hit')
			expect(anonymous.html).not.toContain(title)
		}
	})

	it("never serves or keeps a form's errors", async () => {
		const refused = await post(a, '/auth/signin', { email: 'quelquun@exemple.fr', password: 'pas le bon mot de passe' })
		expect(refused.status).toBe(400)
		expect(refused.headers.get(CACHE)).toBeNull()
		expect(await refused.text()).toContain(translation.auth.errors.invalidCredentials)
		const anonymous = await page(a, '/auth/signin')
		expect(anonymous.cache).toBe('hit')
		expect(anonymous.html).not.toContain(translation.auth.errors.invalidCredentials)
		expect(anonymous.html).not.toContain('quelquun@exemple.fr')
	})

	it('renders requests with a query string for their visitor', async () => {
		const withQuery = await page(a, '/auth/signin?redirectTo=%2Fdashboard%2Fsettings')
		expect(withQuery.status).toBe(200)
		expect(withQuery.cache).toBeNull()
		expect(withQuery.html).toContain('/dashboard/settings')
		expect((await page(a, '/auth/signin')).html).not.toContain('/dashboard/settings')
	})

	it('answers each Accept-Encoding with the same page, HEAD without a body, a Range with the whole page', async () => {
		const plain = await page(a, '/')
		const body = Buffer.from(plain.html)
		const br = await get(a, '/', { 'accept-encoding': 'gzip, deflate, br' })
		expect(br.headers.get('content-encoding')).toBe('br')
		// fetch() decodes by itself: read the raw bytes through the content length instead.
		expect(Buffer.from(await br.arrayBuffer()).equals(body)).toBe(true)
		const gz = await get(a, '/', { 'accept-encoding': 'gzip' })
		expect(gz.headers.get('content-encoding')).toBe('gzip')
		expect(Buffer.from(await gz.arrayBuffer()).equals(body)).toBe(true)
		for (const refused of ['br;q=0, gzip;q=0', 'identity', 'compress']) {
			const identity = await get(a, '/', { 'accept-encoding': refused })
			expect(identity.headers.get('content-encoding')).toBeNull()
			expect(Buffer.from(await identity.arrayBuffer()).equals(body)).toBe(true)
		}
		expect((await get(a, '/', { 'accept-encoding': '*' })).headers.get('content-encoding')).toBe('br')

		const head = await get(a, '/', { 'accept-encoding': 'br' }, 'HEAD')
		expect(head.status).toBe(200)
		expect(head.headers.get('content-length')).toBe(br.headers.get('content-length'))
		expect((await head.arrayBuffer()).byteLength).toBe(0)

		const ranged = await get(a, '/', { range: 'bytes=0-9' })
		expect(ranged.status).toBe(200)
		expect(Buffer.from(await ranged.arrayBuffer()).equals(body)).toBe(true)

		// The compressed bytes decode to the page itself.
		const raw = await rawBytes(a, '/', 'br')
		expect(brotliDecompressSync(raw).equals(body)).toBe(true)
		const rawGzip = await rawBytes(a, '/', 'gzip')
		expect(gunzipSync(rawGzip).equals(body)).toBe(true)
	})

	it("answers 304 to a visitor's current copy, 200 to one from an older deploy", async () => {
		const current = await get(a, '/events', { 'accept-encoding': 'br' })
		const etag = current.headers.get('etag')!
		await current.arrayBuffer()
		expect(etag).toMatch(/^"[\w-]+-br"$/)
		const same = await get(a, '/events', { 'if-none-match': etag })
		expect(same.status).toBe(304)
		expect(same.headers.get('etag')).toBeTruthy()
		expect(await same.text()).toBe('')
		expect((await get(a, '/events', { 'if-none-match': `W/${etag}` })).status).toBe(304)
		const old = await get(a, '/events', { 'if-none-match': '"Zm9ybWVyLWRlcGxveQ-br", W/"autre"' })
		expect(old.status).toBe(200)
		expect((await old.text()).length).toBeGreaterThan(1000)
	})

	it('forgets a page as soon as an admin changes it, on every instance, and never shows a draft', async () => {
		const created = await post(a, '/dashboard/admin/events/new', eventForm('publish'), adminCookie)
		expect(created.status).toBe(302)
		eventId = /\/dashboard\/admin\/events\/([\w-]{12})/.exec(created.headers.get('location') ?? '')?.[1] ?? ''
		expect(eventId).not.toBe('')
		// Both instances now hold the list and the page with the show.
		for (const server of [a, b]) {
			await vi.waitFor(async () => expect((await page(server, '/events')).html).toContain('Concert surprise au Chabada'), {
				timeout: 10_000,
			})
			await page(server, `/events/${eventId}`)
			expect((await page(server, `/events/${eventId}`)).cache).toBe('hit')
			expect((await page(server, '/events')).cache).toBe('hit')
		}

		const withdrawn = await post(a, `/dashboard/admin/events/${eventId}`, eventForm('unpublish'), adminCookie)
		expect(withdrawn.status).toBeLessThan(400)
		// The instance that took the write: at once.
		expect((await page(a, `/events/${eventId}`)).status).toBe(404)
		expect((await page(a, '/events')).html).not.toContain('Concert surprise au Chabada')
		// The other one: as soon as the signal arrives (LISTEN/NOTIFY).
		await vi.waitFor(async () => expect((await page(b, `/events/${eventId}`)).status).toBe(404), { timeout: 5_000 })
		expect((await page(b, '/events')).html).not.toContain('Concert surprise au Chabada')
	})
})

/** The body as sent on the wire, without fetch()'s decoding. */
async function rawBytes(server: SiteServer, path: string, encoding: string): Promise<Buffer> {
	const http = await import('node:http')
	return new Promise((resolve, reject) => {
		http
			.get(server.origin + path, { headers: { 'accept-encoding': encoding } }, (res) => {
				const chunks: Buffer[] = []
				res.on('data', (chunk: Buffer) => chunks.push(chunk))
				res.on('end', () => resolve(Buffer.concat(chunks)))
				res.on('error', reject)
			})
			.on('error', reject)
	})
}
