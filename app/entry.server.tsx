import { randomBytes } from 'node:crypto'
import { PassThrough } from 'node:stream'
import { createReadableStreamFromReadable } from '@react-router/node'
import { isbot } from 'isbot'
import { renderToPipeableStream } from 'react-dom/server'
import { I18nextProvider } from 'react-i18next'
import { ServerRouter, type EntryContext } from 'react-router'
import { NonceProvider } from '#app/components/nonce.tsx'
import { contentSecurityPolicy } from '#app/platform/security-headers.server.ts'
import { getI18n } from '#app/platform/i18n.server.ts'
import { getEnv } from '#app/platform/env.server.ts'
import { getLogger } from '#app/platform/logger.server.ts'

export const streamTimeout = 5_000

export default function handleRequest(
	request: Request,
	responseStatusCode: number,
	responseHeaders: Headers,
	routerContext: EntryContext,
) {
	const nonce = randomBytes(16).toString('base64')
	const userAgent = request.headers.get('user-agent')
	// Crawlers and no-JS clients get the whole document at once; browsers get it streamed.
	const readyOption = (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? 'onAllReady' : 'onShellReady'

	return new Promise<Response>((resolve, reject) => {
		let shellRendered = false
		const { pipe, abort } = renderToPipeableStream(
			<NonceProvider value={nonce}>
				<I18nextProvider i18n={getI18n()}>
					<ServerRouter context={routerContext} url={request.url} nonce={nonce} />
				</I18nextProvider>
			</NonceProvider>,
			{
				nonce,
				[readyOption]() {
					shellRendered = true
					const body = new PassThrough()
					responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
					if (process.env.NODE_ENV === 'production') {
						responseHeaders.set('Content-Security-Policy', contentSecurityPolicy(nonce, { https: getEnv().SITE_URL.startsWith('https://') }))
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
	getLogger().error({ err: error, url: request.url, method: request.method }, 'unhandled error')
}

// The Node server (server/index.ts) opens and closes the platform through the build.
export { closePlatform, getPlatform } from '#app/platform/platform.server.ts'
