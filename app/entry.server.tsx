import { PassThrough } from 'node:stream'
import { createReadableStreamFromReadable } from '@react-router/node'
import { isbot } from 'isbot'
import { renderToPipeableStream } from 'react-dom/server'
import { I18nProvider } from '#app/i18n/react.tsx'
import { ServerRouter, type EntryContext } from 'react-router'
import { NonceProvider } from '#app/components/nonce.tsx'
import { RequestIdProvider } from '#app/components/request-id.tsx'
import { CRITICAL_CSS_MARK, mayInlineStylesheet, StylesheetInlineProvider } from '#app/components/stylesheet.tsx'
import { withCriticalCss } from '#app/platform/critical-css.server.ts'
import { contentSecurityPolicy, providerOrigins } from '#app/platform/security-headers.server.ts'
import { LANGUAGE, resources } from '#app/platform/i18n.server.ts'
import { getEnv } from '#app/platform/env.server.ts'
import { getLogger } from '#app/platform/logger.server.ts'
import { onPublicContentChange, publicContentChanged, publicContentGeneration } from '#app/platform/public-content.server.ts'
import { CACHEABLE_ROUTE_IDS } from '#app/cacheable-pages.ts'
import { pageHydrates } from '#app/hydration.ts'
import { redactUrl } from '#app/platform/redact-url.ts'
import { randomToken } from '#app/platform/random-token.server.ts'
import { awaitsData, wholeBody, wholeDocumentResponse } from '#app/platform/document-body.server.ts'
// The same CSS as the public stylesheet file (Vite runs one pipeline for both): the pages that carry
// their part of it inline take it from here (components/stylesheet.tsx).
import stylesheetText from '#app/styles/public.css?inline'

export const streamTimeout = 5_000
/** Set by server/page-cache.ts alone (it removes it from what visitors send): render the whole document. */
const PAGE_CACHE_FILL_HEADER = 'x-page-cache-fill'

export default async function handleRequest(
	request: Request,
	responseStatusCode: number,
	responseHeaders: Headers,
	routerContext: EntryContext,
): Promise<Response> {
	const nonce = randomToken(16, 'base64')
	const renderContext = withMatchedRoutes(routerContext)
	const page = (wholeDocument: boolean) => (
		<NonceProvider value={nonce}>
			<RequestIdProvider value={request.headers.get('x-request-id') ?? undefined}>
				<I18nProvider language={LANGUAGE} resources={resources}>
					<StylesheetInlineProvider value={wholeDocument}>
						<ServerRouter context={renderContext} url={request.url} nonce={nonce} />
					</StylesheetInlineProvider>
				</I18nProvider>
			</RequestIdProvider>
		</NonceProvider>
	)

	function headers() {
		responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
		if (process.env.NODE_ENV === 'production') {
			responseHeaders.set(
				'Content-Security-Policy',
				contentSecurityPolicy({ nonce }, { https: getEnv().SITE_URL.startsWith('https://'), formActions: providerOrigins(getEnv()) }),
			)
		}
		return { headers: responseHeaders, status: responseStatusCode }
	}

	// A page with nothing to wait for (no loader handed over a promise) is ready a moment after its
	// shell: it is sent whole, with its length (platform/document-body.server.ts). So is any page for
	// crawlers, no-JS clients and the page cache (server/page-cache.ts), and any page without
	// React Router's scripts (app/hydration.ts): its late parts would need React's inline scripts to
	// take their place. Browsers get the shell of a hydrating page that waits for data first, and
	// the rest as it comes.
	const userAgent = request.headers.get('user-agent')
	const { matches } = routerContext.staticHandlerContext
	return rendered(
		!awaitsData(routerContext.staticHandlerContext) ||
			!pageHydrates(matches.map((match) => routerContext.routeModules[match.route.id]?.handle)) ||
			Boolean((userAgent && isbot(userAgent)) || routerContext.isSpaMode || request.headers.get(PAGE_CACHE_FILL_HEADER) === '1'),
	)

	/** The streaming render: whole (once everything is ready) or its shell first. */
	function rendered(wholeDocument: boolean) {
		return new Promise<Response>((resolve, reject) => {
			let responded = false
			let shellFailed = false
			const { pipe, abort } = renderToPipeableStream(page(wholeDocument), {
				nonce,
				onShellReady() {
					if (!wholeDocument) respondStreamed()
				},
				onAllReady() {
					// Nothing left to cut short: a timer kept alive here would hold the whole render in memory.
					clearTimeout(abortTimer)
					if (!responded) respondWhole()
				},
				onShellError(error: unknown) {
					shellFailed = true
					clearTimeout(abortTimer)
					reject(error)
				},
				onError(error: unknown) {
					responseStatusCode = 500
					// An error that stops the shell is React Router's to report (handleError, below);
					// React tells onShellError right after this, in the same turn.
					queueMicrotask(() => shellFailed || getLogger().error({ err: error }, 'render error'))
				},
			})
			// Past this, whatever is still pending is cut short.
			const abortTimer = setTimeout(() => abort(), streamTimeout + 1_000)

			/**
			 * The whole document, written by React at once: one body, without a stream to pass through.
			 * A page whose route never inlines its stylesheet (every signed-in screen) is not searched for the mark.
			 */
			function respondWhole() {
				responded = true
				const init = headers()
				const inlines = mayInlineStylesheet(matches.at(-1)?.route.id)
				pipe(
					wholeBody((body) =>
						resolve(wholeDocumentResponse(inlines ? withCriticalCss(body, stylesheetText, CRITICAL_CSS_MARK) : body, init)),
					),
				)
			}

			function respondStreamed() {
				responded = true
				const init = headers()
				const body = new PassThrough()
				// A visitor who leaves mid-stream: stop rendering for nobody.
				body.once('close', () => clearTimeout(abortTimer))
				resolve(new Response(createReadableStreamFromReadable(body), init))
				pipe(body)
			}
		})
	}
}

/**
 * The context to render with: React Router's own, with a manifest that holds only the routes this
 * page matched (and so their parents). `<ServerRouter>` builds route objects, then data routes, from
 * every route of the manifest at each render (some 110 here) and the render reads only the matched
 * ones: measured, 9.6 % less CPU per request on the admin's list of events, the same HTML
 * (docs/decisions/0035-render-with-matched-routes.md). The browser gets the whole table from its
 * own file (routeDiscovery « initial »), not from this context.
 */
function withMatchedRoutes(context: EntryContext): EntryContext {
	const all = context.manifest.routes
	const routes: typeof all = {}
	for (const { route } of context.staticHandlerContext.matches) {
		const entry = all[route.id]
		if (entry) routes[route.id] = entry
	}
	return { ...context, manifest: { ...context.manifest, routes } }
}

export function handleError(error: unknown, { request }: { request: Request }) {
	if (request.signal.aborted) return
	getLogger().error({ err: error, url: redactUrl(request.url), method: request.method }, 'unhandled error')
}

// The Node server (server/index.ts) opens and closes the platform through the build…
export { closePlatform, getPlatform, releaseWorkers } from '#app/platform/platform.server.ts'
// …with the embedded database's engine it prepared while loading the build (server/pglite-assets.ts).
export { usePgliteAssets } from '#app/platform/db/client.server.ts'
// …and says « not ready » from the first moment of a shutdown.
export { markDraining } from '#app/platform/readiness.server.ts'
export { startBackground } from '#app/background.server.ts'
// …and counts requests and tags their log lines with their id (server/observe.ts).
export { recordRequest, requestRecorder } from '#app/platform/metrics.server.ts'
export { isAcceptableRequestId, newRequestId, runWithRequestId } from '#app/platform/request-context.server.ts'
// …and counts page views of the public site once a response is finished (server/page-views.ts).
export { countCachedView, countPageView, flushPageViews, pageViewSlot } from '#app/features/stats/count-page-view.server.ts'
// …and writes a whole document as the bytes it already is (platform/document-body.server.ts).
export { wholeDocumentOf } from '#app/platform/document-body.server.ts'
// …and asks who sent a request before anything reads its body (server/body-gate.ts).
export { callerRole } from '#app/features/accounts/caller-role.server.ts'

/** What the anonymous page cache in server/ needs from the app: its rule, its policy, its signal. */
export const pageCache = {
	routeIds: CACHEABLE_ROUTE_IDS,
	fillHeader: PAGE_CACHE_FILL_HEADER,
	/** The policy of a cached page: its inline scripts by hash, no nonce (see security-headers). */
	policy: (hashes: string[]) =>
		contentSecurityPolicy({ hashes }, { https: getEnv().SITE_URL.startsWith('https://'), formActions: providerOrigins(getEnv()) }),
	generation: publicContentGeneration,
	onChange: onPublicContentChange,
	changed: publicContentChanged,
}
