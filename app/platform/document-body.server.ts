import { Writable } from 'node:stream'
import type { EntryContext } from 'react-router'

/*
 * How a rendered page leaves app/entry.server.tsx. When no loader handed over a promise, nothing in
 * the page waits: React Router's own data script (the loaders' data, encoded as a stream) is ready a
 * few microtasks after the loaders. Such a page is rendered to one string (`renderToString`), its
 * data script read to its end beforehand (`readDataScript`), and sent as one body with its
 * Content-Length. A page whose loaders hand over promises still streams: its shell at once, the rest
 * as it comes (and whole, collected by `wholeBody`, for crawlers and the page cache).
 * See docs/decisions/whole-documents.md.
 */

/** Whether a loader or an action handed over a promise (data streamed into the page once resolved). */
export function awaitsData({ loaderData, actionData }: Pick<EntryContext['staticHandlerContext'], 'loaderData' | 'actionData'>): boolean {
	const pending = (value: unknown) => value instanceof Promise
	for (const data of [...Object.values(loaderData ?? {}), ...Object.values(actionData ?? {})]) {
		if (pending(data)) return true
		if (data && typeof data === 'object' && Object.values(data).some(pending)) return true
	}
	return false
}

/**
 * Reads React Router's data stream for this page to its end and leaves it where its data script
 * looks first (`renderMeta.streamCache`, typed in React Router's entry context), so that the
 * script renders at once instead of suspending on each piece of the stream: the page can then be
 * rendered in one synchronous pass. False when there is no such stream (nothing to prepare).
 */
export async function readDataScript(context: Pick<EntryContext, 'serverHandoffStream' | 'renderMeta'>): Promise<boolean> {
	const stream = context.serverHandoffStream
	if (!stream || !context.renderMeta) return false
	const decoder = new TextDecoder()
	let value = ''
	for await (const chunk of stream) value += decoder.decode(chunk, { stream: true })
	value += decoder.decode()
	context.renderMeta.streamCache = { 0: Object.assign(Promise.resolve(), { result: { done: true, value } }) }
	// Each render of the page takes a reader of the stream (the cache answers before it is read), and
	// a page may be rendered twice (entry.server.tsx): each one gets a stream of its own, empty.
	Object.defineProperty(context, 'serverHandoffStream', {
		configurable: true,
		enumerable: true,
		get: () => new ReadableStream<Uint8Array>({ start: (controller) => controller.close() }),
	})
	return true
}

const wholeDocuments = new WeakMap<Response, Uint8Array>()

/**
 * The response for a whole document: its bytes are kept beside it, so that the server
 * (server/main.ts) can write them as they are instead of reading the response's body stream back.
 */
export function wholeDocumentResponse(document: string, init: ResponseInit & { headers: Headers }): Response {
	const bytes = Buffer.from(document)
	init.headers.set('Content-Length', String(bytes.byteLength))
	const response = new Response(bytes, init)
	wholeDocuments.set(response, bytes)
	return response
}

/** The bytes of a response made by `wholeDocumentResponse`, unread (undefined for any other response). */
export function wholeDocumentOf(response: Response): Uint8Array | undefined {
	return response.bodyUsed ? undefined : wholeDocuments.get(response)
}

/**
 * Whether React left a part of this page for the browser to render: a Suspense boundary whose
 * content suspended during `renderToString` (a lazy component not loaded yet) or failed. React
 * marks such a boundary `<!--$!-->`. Text and attributes are escaped, so only an HTML string the
 * page sets itself could contain it too, and then the page is only rendered a second time.
 */
export function leftToTheBrowser(html: string): boolean {
	return html.includes('<!--$!-->')
}

/** A destination for React's `pipe()` that hands over everything written to it, in one piece, once it ends. */
export function wholeBody(onEnd: (body: Uint8Array<ArrayBuffer>) => void): Writable {
	const chunks: Uint8Array[] = []
	let length = 0
	return new Writable({
		write(chunk: Uint8Array, _encoding, done) {
			chunks.push(chunk)
			length += chunk.byteLength
			done()
		},
		final(done) {
			const body = new Uint8Array(length)
			let at = 0
			for (const chunk of chunks) {
				body.set(chunk, at)
				at += chunk.byteLength
			}
			onEnd(body)
			done()
		},
	})
}
