/*
 * The server, started by server/index.ts once the process has its settings: one Node process for
 * pages, API, auth, static files and the background jobs. In production it serves a build; with
 * `--dev` (`npm run dev`) Vite's development server runs inside it (docs/decisions/0025-one-server-in-development.md):
 * Vite answers its own requests (modules, hot reload) where the build's files are served, and
 * React Router renders from Vite's current build. Everything else is the same code.
 */
import http from 'node:http'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { createRequest } from '@remix-run/node-fetch-server'
import { createRequestHandler, type ServerBuild } from 'react-router'
import type { ViteDevServer } from 'vite'
import { createLogger } from '../app/platform/log-output.ts'
import { redactUrl } from '../app/platform/redact-url.ts'
import { createBodyGate, withheldBodyRequest, type BodyGateHooks } from './body-gate.ts'
import { limitBody } from './body-limit.ts'
import { development } from './mode.ts'
import { isValidHost, refuse, refuseAbsurdPath, refuseMalformed } from './request-guard.ts'
import { clientAddress, createProxyTrust } from './client-address.ts'
import { respond } from './respond.ts'
import { createObserver, type ObserveHooks } from './observe.ts'
import { createPageCache, type PageCacheApp } from './page-cache.ts'
import { createStaticHandler } from './static-files.ts'
import { createPageViewCounting, type PageViewHook } from './page-views.ts'
import { getT } from '../app/platform/i18n.server.ts'
import { preparePgliteAssets, type PgliteAssets } from './pglite-assets.ts'

const root = path.resolve(import.meta.dirname, '..')
const logFormat = process.env.LOG_FORMAT === 'json' || process.env.LOG_FORMAT === 'pretty' ? process.env.LOG_FORMAT : undefined
const log = createLogger({ level: process.env.LOG_LEVEL ?? 'info', base: undefined }, logFormat)

/** What the app's build hands the server (the exports of app/entry.server.tsx). */
type AppHooks = ObserveHooks &
	PageViewHook &
	BodyGateHooks & {
		/** The bytes of a page rendered whole (app/platform/document-body.server.ts), to write as they are. */
		wholeDocumentOf(response: Response): Uint8Array | undefined
		getPlatform(): Promise<{
			env: {
				PORT: number
				HOST: string
				SITE_URL: string
				TRUST_PROXY?: string
				PAGE_VIEWS: 'on' | 'off'
				SHUTDOWN_GRACE_SECONDS: number
				SHUTDOWN_TIMEOUT_SECONDS: number
			}
		}>
		usePgliteAssets(assets: Promise<PgliteAssets>): void
		markDraining(): void
		releaseWorkers(): Promise<void>
		closePlatform(): Promise<void>
		startBackground(workersFrom: Promise<void>): Promise<{ workers: Promise<void>; setupLink: string | null }>
		pageCache: PageCacheApp
	}

const server = http.createServer((req, res) => handle(req, res))

// The embedded database (no DATABASE_URL) starts from its engine, read and compiled while the build
// below is loaded (server/pglite-assets.ts), instead of after it.
const pgliteAssets = process.env.DATABASE_URL ? undefined : preparePgliteAssets()

/*
 * The build. Production: the one in BUILD_DIR, loaded once. Development: Vite's, asked for again at
 * each request (React Router's documented way for a server of one's own); Vite evaluates it again
 * once a file it is made of has changed, so a request after an edit renders the edited code.
 * Vite's hot reload speaks over this server's own port (its WebSocket upgrade).
 */
const vite: ViteDevServer | undefined = development
	? await import('vite').then(({ createServer }) => createServer({ root, server: { middlewareMode: true, ws: { server } } }))
	: undefined
const loadDevBuild = async () => (await vite!.ssrLoadModule('virtual:react-router/server-build')) as ServerBuild
const firstBuild: ServerBuild = vite
	? await loadDevBuild()
	: ((await import(pathToFileURL(path.join(root, process.env.BUILD_DIR ?? 'build', 'server', 'index.js')).href)) as ServerBuild)
// The process's own life (the database, the job workers, shutdown, page-view counts) is in the first
// build's hands: what it opens hangs on globalThis, so a later development build finds it there.
const platform = firstBuild.entry.module as unknown as AppHooks
if (pgliteAssets) platform.usePgliteAssets(pgliteAssets)

// Open the database (and run migrations) before taking the first request; stop clearly if we cannot.
// The job workers start once the first answer is out, or WORKERS_LATEST_MS after listening if no
// request comes: the job queue's start is work the first visitor need not wait for (their jobs wait
// in the database meanwhile).
const fatal = (error: unknown): never => {
	log.fatal({ err: error }, (error as Error).message)
	process.exit(1)
}
const WORKERS_LATEST_MS = 2_000
const firstAnswer = Promise.withResolvers<void>()
const { env } = await platform.getPlatform().catch(fatal)
const { setupLink } = await platform.startBackground(firstAnswer.promise).then(({ workers, setupLink }) => {
	void workers.catch(fatal)
	return { setupLink }
}, fatal)

const isTrustedProxy = createProxyTrust(env.TRUST_PROXY)
const serveStatic = vite ? undefined : createStaticHandler(path.join(root, process.env.BUILD_DIR ?? 'build', 'client'))

const https = env.SITE_URL.startsWith('https://')
// Audience figures without cookies (PAGE_VIEWS=off turns them off); attached before any way of answering.
const countPageView =
	env.PAGE_VIEWS === 'on' ? createPageViewCounting(platform, (error) => log.warn({ err: error }, 'page view not counted')) : null

const securityHeaders: Record<string, string> = {
	'X-Content-Type-Options': 'nosniff',
	'Referrer-Policy': 'strict-origin-when-cross-origin',
	'X-Frame-Options': 'DENY',
	'Cross-Origin-Opener-Policy': 'same-origin',
	'Cross-Origin-Resource-Policy': 'same-origin',
	'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()',
	...(https ? { 'Strict-Transport-Security': 'max-age=63072000; includeSubDomains' } : {}),
}

/**
 * What serving takes from one build: React Router's handler, the route lookups of the metrics and
 * of the body gate, and the anonymous page cache. Production has one for its life; development a new
 * one after each edit, so that the page cache never serves a page rendered by code since edited.
 */
function createSite(build: ServerBuild) {
	const app = build.entry.module as unknown as AppHooks
	const render = createRequestHandler(build, process.env.NODE_ENV)
	return {
		build,
		app,
		render,
		observe: createObserver(build, platform),
		// Who may send a body where, asked before any of it is read (server/body-gate.ts).
		admitBody: createBodyGate(build.routes, app),
		// Anonymous visitors' public pages, from memory (server/page-cache.ts; the rule: app/cacheable-pages.ts).
		pageCache: createPageCache({
			build,
			app: app.pageCache,
			render,
			siteUrl: env.SITE_URL,
			serverHeaders: securityHeaders,
			clientAddress: (req) => clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], isTrustedProxy),
			onError: (error) => log.error({ err: error }, 'page cache error'),
		}),
	}
}
type Site = ReturnType<typeof createSite>
let site = createSite(firstBuild)

/** The site of Vite's current build (development), made again when the build has changed. */
async function currentSite(): Promise<Site> {
	const build = await loadDevBuild()
	if (build !== site.build) {
		site.pageCache.close()
		site = createSite(build)
	}
	return site
}

/**
 * React Router's answer to a request, sent (server/respond.ts): compressed when the browser takes
 * it, a whole document as its bytes. A render that throws, or a response
 * that cannot be sent, is logged; the visitor gets a 500 unless the answer had already begun.
 * `withheld`: the request to render instead of the client's, when its body may not be read.
 */
async function handleRequest(site: Site, req: http.IncomingMessage, res: http.ServerResponse, withheld?: Request) {
	let request: Request
	try {
		request = withheld ?? createRequest(req, res)
	} catch {
		refuse(res, 400, getT()('http.badRequest'))
		return
	}
	const gone = () => res.destroyed || request.signal.aborted
	try {
		const response = await site.render(request)
		if (gone()) return
		await respond(req, res, request, response, site.app.wholeDocumentOf(response))
	} catch (error) {
		if (gone()) return
		log.error({ err: error }, 'unhandled error')
		if (res.headersSent) res.destroy()
		else refuse(res, 500, getT()('http.serverError'))
	}
}

// The access log's level, read once: a request's line is not even put together when it is not written.
const accessLogged = log.isLevelEnabled('info')

/**
 * A page the anonymous cache holds, answered before anything else: the request id, the headers
 * prepared once per entry and the bytes in one write, then the metrics and the page view counted
 * in what was prepared once for that page (its recorders, its view counter). No async context, no
 * URL parsing, no listener, nothing allocated for the counts. Whatever the cache cannot answer at
 * once (a miss, a cookie, a query) takes the full way below. Its answer is handed to the connection
 * whole at once: nothing of it is in flight for the shutdown to wait on.
 */
function answerFromCache(req: http.IncomingMessage, res: http.ServerResponse, started: bigint): boolean {
	// The same refusals as the full way (refuseMalformed), and none while stopping (Connection: close).
	const method = req.method
	if (vite || stopping || (method !== 'GET' && method !== 'HEAD') || !isValidHost(req.headers.host)) return false
	const fromTrustedProxy = isTrustedProxy(req.socket.remoteAddress ?? '')
	const reqId = site.observe.idOf(req, fromTrustedProxy)
	const page = site.pageCache.serveHit(req, res, reqId)
	if (!page) return false
	const status = res.statusCode as 200 | 304
	const seconds = Number(process.hrtime.bigint() - started) / 1e9
	site.observe.recordHit(page, page.route, method, status, seconds)
	countPageView?.countHit(req, status, page, req.url!)
	if (accessLogged) {
		const ip = clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], isTrustedProxy)
		log.info({ reqId, method, url: redactUrl(req.url ?? ''), status, ms: Math.round(seconds * 1e4) / 10, ip }, 'request')
	}
	return true
}

function handle(req: http.IncomingMessage, res: http.ServerResponse) {
	const started = process.hrtime.bigint()
	if (answerFromCache(req, res, started)) return
	track(res)
	for (const [name, value] of Object.entries(securityHeaders)) res.setHeader(name, value)
	// The app reads the client address from this header alone; a client never gets to set it.
	const address = clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], isTrustedProxy)
	req.headers['x-client-address'] = address
	const reqId = site.observe.assignId(req, res, isTrustedProxy(req.socket.remoteAddress ?? ''))
	let pathname = '/'
	let kind: 'static' | 'app' | 'refused' = 'refused'
	countPageView?.attach(req, res)
	res.on('finish', () => {
		firstAnswer.resolve()
		const ms = Number(process.hrtime.bigint() - started) / 1e6
		// Development: the many module requests of each page, answered by Vite, are logged at debug level.
		log[vite && kind === 'static' ? 'debug' : 'info'](
			{ reqId, method: req.method, url: redactUrl(req.url ?? ''), status: res.statusCode, ms: Math.round(ms * 10) / 10, ip: address },
			'request',
		)
		site.observe.record(req, res.statusCode, pathname, ms / 1000, kind)
	})

	// Methods and hosts no browser sends: a short 405 or 400 (server/request-guard.ts).
	if (refuseMalformed(req, res)) return

	const url = URL.parse(req.url ?? '/', 'http://x')
	if (!url) {
		res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' })
		res.end(getT()('http.badRequest'))
		return
	}
	pathname = url.pathname
	if (refuseAbsurdPath(pathname, res)) return
	kind = 'static'
	// Whatever answers after the files (React Router, or a cache in front of it) is labelled by its route.
	if (!vite) {
		if (serveStatic!(req, res, pathname)) return
		kind = 'app'
		serveApp(site, req, res, pathname, reqId, () => (kind = 'refused'))
		return
	}
	// Development: Vite's own requests (modules, the public folder) first, then the current build.
	vite.middlewares(req, res, (error?: unknown) => {
		kind = 'app'
		const failed = (error: unknown) => {
			if (error instanceof Error) vite.ssrFixStacktrace(error)
			log.error({ err: error }, 'development server error')
			if (!res.headersSent) refuse(res, 500, `${getT()('http.serverError')}\n\n${error instanceof Error ? error.stack : String(error)}`)
		}
		if (error) return failed(error)
		currentSite().then((current) => serveApp(current, req, res, pathname, reqId, () => (kind = 'refused')), failed)
	})
}

/**
 * The app's part of a request, all of it in the request id's context (one for the whole way): the
 * body gate, the body limit, then the page cache or React Router.
 */
function serveApp(site: Site, req: http.IncomingMessage, res: http.ServerResponse, pathname: string, reqId: string, refused: () => void) {
	site.observe.run(reqId, () => {
		const serve = () => {
			// Every body is counted as it streams in, and cut at its route's limit (server/body-limit.ts).
			if (!limitBody(req, res, pathname)) {
				refused()
				return
			}
			if (site.pageCache.take(req, res, () => void handleRequest(site, req, res))) return
			void handleRequest(site, req, res)
		}
		// A body is read only once its sender may send it; the others are answered without it (server/body-gate.ts).
		const admitted = site.admitBody(req, pathname)
		if (admitted === true) serve()
		else
			void admitted.then((allowed) => {
				if (allowed) serve()
				else void handleRequest(site, req, res, withheldBodyRequest(req, res))
			})
	})
}

server.keepAliveTimeout = 65_000
server.headersTimeout = 66_000
server.requestTimeout = 60_000

// One line says where the site is and, on a fresh install, how to create the first administrator.
server.listen(env.PORT, env.HOST, () => {
	setTimeout(firstAnswer.resolve, WORKERS_LATEST_MS)
	if (setupLink) {
		log.warn(
			{ url: env.SITE_URL, port: env.PORT, setupLink },
			`site ready on ${env.SITE_URL} · ${getT()('ops.setupLink', { link: setupLink })}`,
		)
	} else log.info({ url: env.SITE_URL, port: env.PORT }, `site ready on ${env.SITE_URL}`)
})

/*
 * Shutdown, in order (docs/decisions/0019-shutdown.md): /readyz answers 503 at once; for the grace
 * (SHUTDOWN_GRACE_SECONDS, SIGTERM only: Ctrl-C skips it) requests are still served, each answer
 * closing its connection, so that a load balancer sees the 503 and sends no more; the job workers
 * stop taking jobs and hand back those they cannot finish. Then new connections are refused, live
 * event streams are cut (their browsers reconnect elsewhere), and requests in flight finish, for up
 * to SHUTDOWN_TIMEOUT_SECONDS; then the database closes, the embedded one's lock last of all.
 */
const inFlight = new Set<http.ServerResponse>()
let stopping = false
/**
 * Counts an answer in flight until its connection is done with it, and asks the client of any answer
 * begun while stopping to open its next request elsewhere (a cache hit is neither: see answerFromCache).
 */
function track(res: http.ServerResponse) {
	inFlight.add(res)
	if (stopping) res.setHeader('Connection', 'close')
	res.on('close', untrack)
}
function untrack(this: http.ServerResponse) {
	inFlight.delete(this)
	if (stopping && inFlight.size === 0) settled?.()
}
let settled: (() => void) | undefined
const isEventStream = (res: http.ServerResponse) => String(res.getHeader('content-type') ?? '').startsWith('text/event-stream')

async function shutdown(signal: string) {
	if (stopping) return
	stopping = true
	const began = performance.now()
	const graceMs = signal === 'SIGTERM' ? env.SHUTDOWN_GRACE_SECONDS * 1000 : 0
	const timeoutMs = env.SHUTDOWN_TIMEOUT_SECONDS * 1000
	platform.markDraining()
	log.info({ signal, graceMs, timeoutMs, inFlight: inFlight.size }, 'shutting down')
	// Past every bound: leave anyway (the embedded lock goes with the process, see 0003-data-folder-lock.md).
	const force = setTimeout(
		() => {
			log.error({ inFlight: inFlight.size }, 'shutdown took too long, exiting')
			process.exit(1)
		},
		graceMs + timeoutMs + 15_000,
	)
	force.unref()
	for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close')
	const released = platform.releaseWorkers().catch((error: unknown) => log.error({ err: error }, 'job workers did not stop cleanly'))
	await new Promise((resolve) => setTimeout(resolve, graceMs))

	server.close()
	server.closeIdleConnections()
	for (const res of inFlight) if (isEventStream(res)) res.destroy()
	const waiting = inFlight.size
	if (waiting > 0) {
		const bound = new Promise<void>((resolve) => setTimeout(resolve, timeoutMs).unref())
		await Promise.race([new Promise<void>((resolve) => (settled = resolve)), bound])
	}
	const cut = inFlight.size
	if (cut > 0) log.warn({ cut }, 'requests still running at the shutdown bound were cut')
	server.closeAllConnections()
	// Development: Vite's file watchers and hot-reload sockets.
	await vite?.close().catch((error: unknown) => log.error({ err: error }, 'development server did not close cleanly'))
	await released
	try {
		await platform.flushPageViews()
	} catch (error) {
		log.error({ err: error }, 'page views not saved')
	}
	try {
		await platform.closePlatform()
	} catch (error) {
		log.error({ err: error }, 'error while closing the database')
	}
	log.info({ ms: Math.round(performance.now() - began), waited: waiting, cut }, 'stopped')
	process.exit(0)
}
process.on('SIGTERM', () => void shutdown('SIGTERM'))
process.on('SIGINT', () => void shutdown('SIGINT'))
