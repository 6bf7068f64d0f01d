import { randomBytes } from 'node:crypto'
import { PassThrough } from 'node:stream'
import { createReadableStreamFromReadable } from '@react-router/node'
import { isbot } from 'isbot'
import { renderToPipeableStream } from 'react-dom/server'
import { I18nProvider } from '#app/i18n/react.tsx'
import { ServerRouter, type EntryContext } from 'react-router'
import { NonceProvider } from '#app/components/nonce.tsx'
import { contentSecurityPolicy, providerOrigins } from '#app/platform/security-headers.server.ts'
import { LANGUAGE, resources } from '#app/platform/i18n.server.ts'
import { getEnv } from '#app/platform/env.server.ts'
import { getLogger } from '#app/platform/logger.server.ts'
import { redactUrl } from '#app/platform/redact-url.ts'

export const streamTimeout = 5_000

export default function handleRequest(request: Request, responseStatusCode: number, responseHeaders: Headers, routerContext: EntryContext) {
	const nonce = randomBytes(16).toString('base64')
	const userAgent = request.headers.get('user-agent')
	// Crawlers and no-JS clients get the whole document at once; browsers get it streamed.
	const readyOption = (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? 'onAllReady' : 'onShellReady'

	return new Promise<Response>((resolve, reject) => {
		let shellRendered = false
		const { pipe, abort } = renderToPipeableStream(
			<NonceProvider value={nonce}>
				<I18nProvider language={LANGUAGE} resources={resources}>
					<ServerRouter context={routerContext} url={request.url} nonce={nonce} />
				</I18nProvider>
			</NonceProvider>,
			{
				nonce,
				[readyOption]() {
					shellRendered = true
					const body = new PassThrough()
					responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
					if (process.env.NODE_ENV === 'production') {
						responseHeaders.set(
							'Content-Security-Policy',
							contentSecurityPolicy(nonce, { https: getEnv().SITE_URL.startsWith('https://'), formActions: providerOrigins(getEnv()) }),
						)
					}
					resolve(
						new Response(createReadableStreamFromReadable(body), {
							headers: responseHeaders,
							status: responseStatusCode,
						}),
					)
					pipe(body)
				},
				onShellError(error: unknown) {
					reject(error)
				},
				onError(error: unknown) {
					responseStatusCode = 500
					if (shellRendered) getLogger().error({ err: error }, 'render error')
				},
			},
		)
		setTimeout(abort, streamTimeout + 1_000)
	})
}

export function handleError(error: unknown, { request }: { request: Request }) {
	if (request.signal.aborted) return
	getLogger().error({ err: error, url: redactUrl(request.url), method: request.method }, 'unhandled error')
}

// The Node server (server/index.ts) opens and closes the platform through the build.
export { closePlatform, getPlatform } from '#app/platform/platform.server.ts'
export { startBackground } from '#app/background.server.ts'

// Under the development server there is no server/index.ts: start the background work here, once.
const devHolder = globalThis as typeof globalThis & { __bandBackground?: boolean }
if (import.meta.env.DEV && !devHolder.__bandBackground) {
	devHolder.__bandBackground = true
	void import('#app/background.server.ts')
		.then((m) => m.startBackground())
		.catch((error) => getLogger().error({ err: error }, 'background work failed to start'))
}
