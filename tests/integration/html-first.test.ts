import { brotliCompressSync } from 'node:zlib'
import type { RouteConfigEntry } from '@react-router/dev/routes'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import routes from '#app/routes.ts'
import translation from '../../public/locales/fr-FR/translation.json'
import { createMigratedTestDatabase, databaseKind, type TestDatabase } from '../support/database.ts'
import { ensureBuild, setUpFirstAdmin, TEST_BUILD_DIR, startSiteServer, type SiteServer } from '../support/site-server.ts'

/*
 * HTML-first public pages (app/hydration.ts, docs/decisions/0027-html-first-public-pages.md),
 * through the real server on a production build: every route of app/routes.ts is opened, and each
 * public page must arrive without a single script (JSON-LD data aside) and without a module
 * preload, whether served from the anonymous page cache or rendered for one visitor; the few
 * islands are named here with what they may send; the signed-in areas keep React Router's scripts.
 */
const kind = databaseKind()
const PASSWORD = 'un long mot de passe du groupe 2026'

let database: TestDatabase
let server: SiteServer
let adminCookie = ''
let flashCookie = ''
let eventId = ''

/** A script the page sends: its attributes and its text. JSON-LD is data, not a script. */
function scriptsOf(html: string): { attributes: string; text: string }[] {
	return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)]
		.map((match) => ({ attributes: match[1]!, text: match[2]! }))
		.filter((script) => !/\btype=["']application\/ld\+json["']/i.test(script.attributes))
}

/** What of a document the browser would download or run as JavaScript. */
function javascriptOf(response: Response, html: string) {
	return {
		scripts: scriptsOf(html),
		modulePreloads:
			(html.match(/<link\b[^>]*\brel=["']?modulepreload/gi) ?? []).length +
			(/modulepreload/i.test(response.headers.get('link') ?? '') ? 1 : 0),
	}
}

/** Every route of the table, with its full path, the module that answers it, and whether it is a page (a .tsx module). */
function walk(entries: readonly RouteConfigEntry[], parent = ''): { path: string; file: string; page: boolean }[] {
	return entries.flatMap((entry) => {
		const path = entry.path === undefined ? parent : `${parent.replace(/\/$/, '')}/${entry.path}`
		const own = entry.children
			? []
			: [{ path: entry.index ? parent || '/' : path || '/', file: entry.file, page: entry.file.endsWith('.tsx') }]
		return [...own, ...walk(entry.children ?? [], path)]
	})
}

/**
 * A path of the route to open: its parameters filled in with a real event, `new` (a screen for a
 * thing not stored yet) or an id nobody has.
 */
function concrete(path: string): string {
	return path
		.replace(/^\/events\/:eventId/, `/events/${eventId}`)
		.replace(/:(eventId|songId|campaignId)(?=\/|$)/g, (_whole, name: string) =>
			name === 'campaignId' && path.includes('/codes/:campaignId/') ? 'inconnu00000' : 'new',
		)
		.replace(/:\w+\??/g, 'inconnu00000')
		.replace(/\/\*$/, '/inconnu')
}

/** The town field's suggestions (app/islands/town-suggest.ts). */
const townSuggest = {
	why: 'the town field’s suggestions (app/islands/town-suggest.ts)',
	// A page may show the field or not (a signed-in visitor's landing, a town link without its token).
	optional: true,
	allows: (script: { attributes: string; text: string }) =>
		/^\s*type="module"\s+src="\/assets\/town-suggest-[\w-]+\.js"(?:\s+nonce="[^"]+")?\s*$/.test(script.attributes) && script.text === '',
}

/** Which public pages carry something that needs a script, and what that script may be. */
const ISLANDS: Record<string, { why: string; optional?: boolean; allows: (script: { attributes: string; text: string }) => boolean }> = {
	'routes/public/home.tsx': townSuggest,
	'routes/public/events.tsx': townSuggest,
	'routes/auth/signup.tsx': townSuggest,
	'routes/public/newsletter-town.tsx': townSuggest,
	'routes/public/event.tsx': {
		why: 'the « Partager » link (app/islands/share.ts)',
		allows: (script) =>
			/^\s*type="module"\s+src="\/assets\/share-[\w-]+\.js"(?:\s+nonce="[^"]+")?\s*$/.test(script.attributes) && script.text === '',
	},
	'routes/public/banner.tsx': {
		why: 'its timed redirect (a <noscript> meta refresh without JavaScript)',
		allows: (script) => script.text.startsWith('setTimeout(function(){location.replace(') && !/\bsrc=/.test(script.attributes),
	},
}

/** app/islands/follow-session.ts, with the id of who the page was rendered for ('' for nobody). */
function isFollowSession(script: { attributes: string; text: string }): boolean {
	return (
		/^\s*type="module"\s+src="\/assets\/follow-session-[\w-]+\.js"\s+data-follow-session="[\w-]*"(?:\s+nonce="[^"]+")?\s*$/.test(
			script.attributes,
		) && script.text === ''
	)
}

const SIGNED_IN = /^routes\/(dashboard|admin)\//
const SIGNED_IN_PATH = /^\/dashboard(\/|$)/

beforeAll(async () => {
	await ensureBuild()
	database = await createMigratedTestDatabase()
	server = await startSiteServer({
		buildDir: TEST_BUILD_DIR,
		dataDir: database.dataDir,
		// The link-in-bio page is served only when configured: a dead loopback address (never followed here).
		env: { DATABASE_URL: database.databaseUrl, LOG_LEVEL: 'info', LINK_IN_BIO_URL: 'http://127.0.0.1:9/' },
	})
	const jar = await setUpFirstAdmin(server, { name: 'Régie du groupe', email: 'regie@exemple.fr', password: PASSWORD })
	adminCookie = `better-auth.session_token=${jar['better-auth.session_token']}`
	flashCookie = `flash=${jar.flash}`
	expect(jar.flash).toBeTruthy()
	// A published event, for the event page and its calendar file.
	const created = await fetch(`${server.origin}/dashboard/admin/events/new`, {
		method: 'POST',
		headers: { origin: server.origin, cookie: adminCookie, 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams({
			intent: 'publish',
			title: 'Concert sans script au Chabada',
			status: 'scheduled',
			startsAt: '2030-05-16T20:30',
			venueName: 'Le Chabada',
			postalCode: '49100',
			city: 'Angers',
			country: 'FR',
		}),
		redirect: 'manual',
	})
	expect(created.status).toBe(302)
	eventId = /\/dashboard\/admin\/events\/([\w-]{12})/.exec(created.headers.get('location') ?? '')?.[1] ?? ''
	expect(eventId).toHaveLength(12)
}, 240_000)

afterAll(async () => {
	await server?.stop()
	await database?.dispose()
})

describe(`pages with and without scripts on ${kind}`, () => {
	const table = walk(routes)

	it('reads the whole route table', () => {
		expect(table.length).toBeGreaterThan(60)
		expect(table.filter((route) => route.page && !SIGNED_IN.test(route.file)).length).toBeGreaterThan(15)
	})

	it('sends no script to a public page, unless it names its island, whether cached or rendered, anonymous or signed in', async () => {
		const seen: string[] = []
		for (const route of table.filter((entry) => entry.page && !SIGNED_IN.test(entry.file))) {
			const path = concrete(route.path)
			// Twice without a cookie (the second from the page cache where the page is cacheable), then as a signed-in admin.
			for (const cookie of [undefined, undefined, adminCookie]) {
				const response = await fetch(server.origin + path, { headers: cookie ? { cookie } : {} })
				const html = await response.text()
				const where = `${path} (${route.file}${cookie ? ', signed in' : ''}): ${response.status}`
				expect(response.status, where).toBeLessThan(500)
				if (!(response.headers.get('content-type') ?? '').startsWith('text/html')) continue
				// A redirect lands on another page (/auth/signin signed in → /dashboard): that page's rule applies.
				const landed = new URL(response.url).pathname
				seen.push(`${path} → ${landed}`)
				if (SIGNED_IN_PATH.test(landed)) continue
				const { scripts, modulePreloads } = javascriptOf(response, html)
				expect(modulePreloads, where).toBe(0)
				// The islands of the page it landed on (an unknown address is sent to the landing page).
				const landedOn = landed === path ? route : table.find((entry) => entry.page && concrete(entry.path) === landed)
				const island = landedOn ? ISLANDS[landedOn.file] : undefined
				// A page without React follows a sign-in or sign-out in another tab where it matters: the
				// account pages, and a signed-in visitor's pages (app/islands/follow-session.ts); not the
				// link-in-bio page, which is on its way elsewhere.
				const follows = (Boolean(cookie) && route.file !== 'routes/public/banner.tsx') || /^\/auth(\/|$)/.test(landed)
				const own = scripts.filter((script) => !isFollowSession(script))
				expect(scripts.length - own.length, `${where}: the follow-session island`).toBe(follows ? 1 : 0)
				if (island) {
					if (!island.optional) expect(own.length, `${where}: ${island.why}`).toBeGreaterThan(0)
					for (const script of own) expect(island.allows(script), `${where}: ${script.attributes} ${script.text.slice(0, 80)}`).toBe(true)
				} else {
					expect(own, where).toEqual([])
				}
			}
		}
		expect(seen).toContain('/ → /')
		expect(seen).toContain('/contact → /contact')
		expect(seen).toContain('/redeem → /redeem')
		expect(seen).toContain(`/events/${eventId} → /events/${eventId}`)
		// The landing's newsletter form has its town field, and with it the suggestions' island.
		const landing = await (await fetch(server.origin + '/')).text()
		expect(scriptsOf(landing).filter(townSuggest.allows)).toHaveLength(1)
	})

	it('keeps React Router and its modules on every page of the signed-in areas', async () => {
		let hydrating = 0
		for (const route of table.filter((entry) => entry.page && SIGNED_IN.test(entry.file))) {
			const path = concrete(route.path)
			const response = await fetch(server.origin + path, { headers: { cookie: adminCookie } })
			const html = await response.text()
			const where = `${path} (${route.file}): ${response.status}`
			expect(response.status, where).toBeLessThan(500)
			// An id nobody has is the error page (404), which the route's own frame hydrates all the same.
			const { scripts, modulePreloads } = javascriptOf(response, html)
			expect(modulePreloads, where).toBeGreaterThan(0)
			expect(
				scripts.some((script) => script.text.includes('__reactRouterRouteModules')),
				where,
			).toBe(true)
			hydrating++
		}
		expect(hydrating).toBeGreaterThan(20)
	})

	it('sends the share island alone on an event page, and it is small', async () => {
		const html = await (await fetch(`${server.origin}/events/${eventId}`)).text()
		const [island] = scriptsOf(html)
		const src = /src="([^"]+)"/.exec(island!.attributes)![1]!
		const file = await fetch(server.origin + src)
		expect(file.status).toBe(200)
		expect(file.headers.get('content-type')).toMatch(/javascript/)
		const body = Buffer.from(await file.arrayBuffer())
		expect(brotliCompressSync(body).length).toBeLessThan(1024)
		// The words it says come from the locale file, through the page.
		expect(html).toContain(`data-share-copied="${translation.events.share.copied}"`)
		// JSON-LD stays: it is data for search engines, not a script.
		expect(html).toContain('application/ld+json')
	})

	it('hydrates a page that carries a flash message (the toast closes and is read out by script)', async () => {
		const flashed = await fetch(`${server.origin}/`, { headers: { cookie: flashCookie } })
		const html = await flashed.text()
		expect(html).toContain(translation.auth.flash.adminReady.title)
		expect(scriptsOf(html).some((script) => script.text.includes('__reactRouterRouteModules'))).toBe(true)
	})

	it('fills the code in from a QR code link, without a script', async () => {
		const response = await fetch(`${server.origin}/redeem?code=ABCD-EFGH-JKLM`)
		const html = await response.text()
		expect(response.status).toBe(200)
		expect(html).toMatch(/<input[^>]*value="ABCD-EFGH-JKLM"/)
		expect(scriptsOf(html)).toEqual([])
	})

	it('answers a refused plain form with the French messages next to the fields and what was typed, and its one small island', async () => {
		const response = await fetch(`${server.origin}/contact`, {
			method: 'POST',
			headers: { origin: server.origin, 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({ name: 'Camille', email: 'pas-une-adresse', subject: '', message: '' }),
		})
		const html = await response.text()
		expect(response.status).toBe(400)
		expect(html).toMatch(/<input[^>]*value="Camille"/)
		expect(html).toMatch(/<input[^>]*value="pas-une-adresse"/)
		expect(html).toMatch(/aria-invalid="true"/)
		// One script, with the refusal only: a message goes once its field is edited (app/islands/edited-fields.ts).
		const scripts = scriptsOf(html)
		expect(scripts).toHaveLength(1)
		expect(scripts[0]!.attributes).toMatch(/^\s*type="module"\s+src="\/assets\/edited-fields-[\w-]+\.js"\s+nonce="[^"]+"\s*$/)
		expect(scripts[0]!.text).toBe('')
		// The landing's newsletter form comes back to its own section after the post.
		const landing = await (await fetch(`${server.origin}/`)).text()
		expect(landing).toMatch(/<form[^>]*action="\/\?index#newsletter"/)
	})
})
