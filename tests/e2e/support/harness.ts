/*
 * The state every spec shares: one production server, one Chromium, a record of every request the
 * browser made and of every script error or CSP violation it saw. `setUp` and `tearDown` are called
 * by the suite's entry (tests/e2e/suite.e2e.ts); specs read `h` inside their tests.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core'
import { startMailbox, type Mailbox } from './mailbox.ts'
import { startOidcProvider, type OidcServer } from './oidc.ts'
import { freePort, startServer, type RunningServer } from './server.ts'

export const ROOT = path.resolve(import.meta.dirname, '..', '..', '..')
export const ADMIN_EMAIL = 'admin-e2e@example.test'
export const CONTACT_EMAIL = 'contact-e2e@example.test'
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

const CHROMIUM_ARGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
	// Belt and braces: no host name but localhost (the site) and 127.0.0.1 (the test's OpenID
	// provider) resolves, so nothing can reach the internet. IP literals go through these rules too.
	'--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1',
]

export interface SeenRequest {
	url: string
	method: string
	/** The resource type (document, script, fetch…). */
	type: string
}

export interface Harness {
	server: RunningServer
	/** The SMTP server the site sends its mails to. */
	mailbox: Mailbox
	/** The OpenID Connect provider the site is configured with (OIDC_ISSUER…), on 127.0.0.1. */
	oidc: OidcServer
	browser: Browser
	origin: string
	/** Every request any page of any context made, in order. */
	requests: SeenRequest[]
	/** Uncaught page errors and CSP violations reported by the browser. */
	problems: string[]
	/** Documents and fetches the server answered with a 5xx. */
	serverErrors: string[]
	/** The name of every cookie the site set (Set-Cookie on any of its responses), with where it was first seen. */
	cookiesSet: Map<string, string>
	contexts: Set<BrowserContext>
}

let state: Harness | undefined
let visitors = 0

/** A documentation address (RFC 5737) of its own for each visitor. */
function nextVisitorAddress(): string {
	visitors++
	return `203.0.113.${(visitors % 250) + 1}`
}

/**
 * For a describe whose tests follow one another (one visitor's story): its tests run one at a time
 * even when the describe itself runs beside others (node:test hands a suite's concurrency down).
 */
export const SEQUENTIAL = { concurrency: 1 } as const

/** The shared harness; only valid inside tests (after the suite's `before`). */
export const h = new Proxy({} as Harness, {
	get(_target, key) {
		if (!state) throw new Error('The e2e harness is not set up (tests must run through tests/e2e/suite.e2e.ts).')
		return state[key as keyof Harness]
	},
})

export async function setUp(): Promise<void> {
	const buildDir = process.env.BUILD_DIR ?? 'build'
	// The OpenID provider must answer before the site starts (the site reads its discovery document
	// then), and its client must know the site's callback: so the site's port is chosen first.
	const port = await freePort()
	const siteOrigin = `http://localhost:${port}`
	const mailbox = await startMailbox()
	let oidc: OidcServer
	try {
		oidc = await startOidcProvider({ redirectUri: `${siteOrigin}/api/auth/callback/oidc`, name: 'Identité Test' })
	} catch (error) {
		await mailbox.close()
		throw error
	}
	let server: RunningServer
	try {
		server = await startServer({
			root: ROOT,
			buildDir,
			port,
			// A first start on a machine busy with other work can take longer than the default 90 s.
			startTimeoutMs: Number(process.env.E2E_START_TIMEOUT_MS) || undefined,
			env: {
				ADMIN_EMAILS: ADMIN_EMAIL,
				// Where /contact mails its messages.
				CONTACT_EMAIL: CONTACT_EMAIL,
				SMTP_URL: mailbox.url,
				// Each visitor (browser context) comes from its own address through X-Forwarded-For, as
				// real visitors do, so that the per-address rate limits apply per visitor.
				TRUST_PROXY: 'loopback',
				...oidc.siteEnv,
			},
		})
	} catch (error) {
		await oidc.close()
		await mailbox.close()
		throw error
	}
	if (server.origin !== siteOrigin) throw new Error(`the site answers on ${server.origin}, not ${siteOrigin}`)
	let browser: Browser
	try {
		browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, timeout: 60_000 })
	} catch (error) {
		await server.dispose()
		await oidc.close()
		await mailbox.close()
		throw new Error(`Chromium did not start from ${CHROMIUM} (install Debian's chromium): ${(error as Error).message}`)
	}
	process.stderr.write(
		`e2e: ${buildDir} served on ${server.origin} (ready in ${(server.readyMs / 1000).toFixed(1)} s), OpenID provider on ${oidc.origin}, Chromium ${browser.version()}\n`,
	)
	state = {
		server,
		mailbox,
		oidc,
		browser,
		origin: server.origin,
		requests: [],
		problems: [],
		serverErrors: [],
		cookiesSet: new Map(),
		contexts: new Set(),
	}
}

export async function tearDown(): Promise<void> {
	if (!state) return
	const { browser, server, mailbox, oidc } = state
	await browser.close().catch(() => {})
	// E2E_SERVER_LOG=<file> keeps what the server printed, for a person looking into a failure.
	if (process.env.E2E_SERVER_LOG) fs.writeFileSync(process.env.E2E_SERVER_LOG, server.output())
	await server.dispose()
	await oidc.close()
	await mailbox.close()
}

/**
 * A fresh browser context (its own cookies: one visitor) on the test server, French, Paris time,
 * reduced motion (so that no animation is caught half-way by the accessibility checks).
 */
export async function newVisitor(options: BrowserContextOptions = {}): Promise<BrowserContext> {
	const context = await h.browser.newContext({
		baseURL: h.origin,
		locale: 'fr-FR',
		timezoneId: 'Europe/Paris',
		reducedMotion: 'reduce',
		viewport: { width: 1280, height: 900 },
		...options,
		extraHTTPHeaders: { 'x-forwarded-for': nextVisitorAddress(), ...options.extraHTTPHeaders },
	})
	context.setDefaultTimeout(15_000)
	context.setDefaultNavigationTimeout(20_000)
	context.on('request', (request) => {
		h.requests.push({ url: request.url(), method: request.method(), type: request.resourceType() })
	})
	context.on('response', (response) => {
		// The stage view's offline page is a 503 made in the browser by its service worker, not by the server.
		if (response.status() >= 500 && !response.fromServiceWorker())
			h.serverErrors.push(`${response.status()} ${response.request().method()} ${response.url()}`)
		if (new URL(response.url()).origin !== h.origin) return
		void response
			.headersArray()
			.then((headers) => {
				for (const { name, value } of headers) {
					if (name.toLowerCase() !== 'set-cookie') continue
					for (const line of value.split('\n')) {
						const cookie = line.split('=')[0]!.trim()
						if (cookie && !h.cookiesSet.has(cookie))
							h.cookiesSet.set(cookie, `${response.request().method()} ${new URL(response.url()).pathname}`)
					}
				}
			})
			.catch(() => {})
	})
	context.on('weberror', (error) => {
		h.problems.push(`page error: ${error.page()?.url() ?? ''} ${error.error().message}`)
	})
	context.on('console', (message) => {
		const text = message.text()
		if (/Content[- ]Security[- ]Policy/i.test(text)) h.problems.push(`CSP (${message.location().url}): ${text}`)
	})
	h.contexts.add(context)
	context.on('close', () => h.contexts.delete(context))
	// The cookies still in the jar when the visitor leaves (the response listener above can miss a
	// response whose page closed before its headers were read).
	const close = context.close.bind(context)
	context.close = async (options) => {
		await recordCookies(context)
		return close(options)
	}
	return context
}

/** Notes the cookies this context holds for the site (see Harness.cookiesSet). */
export async function recordCookies(context: BrowserContext): Promise<void> {
	const cookies = await context.cookies(h.origin).catch(() => [])
	for (const cookie of cookies) if (!h.cookiesSet.has(cookie.name)) h.cookiesSet.set(cookie.name, 'a visitor’s cookie jar')
}

export async function closeAll(...contexts: BrowserContext[]): Promise<void> {
	await Promise.all(contexts.map((context) => context.close().catch(() => {})))
}

/**
 * The page is ready to use: loaded and, if it is one of the pages that run React in the browser
 * (the signed-in areas, a page with a flash message: app/hydration.ts), hydrated (its listeners
 * are in place). The public pages send no React Router script: once loaded, they are whole.
 */
export async function hydrated(page: Page): Promise<void> {
	await page.waitForLoadState('load')
	if (!(await sendsReactRouter(page))) return
	await page.waitForFunction(() => Object.keys(document).some((key) => key.startsWith('__reactContainer$')), null, {
		timeout: 15_000,
	})
}

/** Whether the document on screen came with React Router's scripts (it then hydrates). */
export async function sendsReactRouter(page: Page): Promise<boolean> {
	return page.evaluate(() => '__reactRouterContext' in window)
}

/** Navigates and waits until the page is ready (hydrated where it hydrates); returns the response of the document finally shown. */
export async function visit(page: Page, url: string) {
	const response = await page.goto(url)
	assert.ok(response, `no response for ${url}`)
	await hydrated(page)
	return response
}

export function pathOf(page: Page): string {
	const url = new URL(page.url())
	return url.pathname + url.search
}

/** Waits until the page's path (and query) satisfies `test`. */
export async function waitForPath(page: Page, test: (url: URL) => boolean, timeout = 15_000): Promise<void> {
	await page.waitForURL((url) => url.origin === h.origin && test(url), { timeout, waitUntil: 'commit' })
}

/** The Origin header a browser sends along with a same-site POST. */
export function sameSite(): Record<string, string> {
	return { origin: h.origin }
}
