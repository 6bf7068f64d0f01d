import { Writable } from 'node:stream'
import type { EntryContext } from 'react-router'

/*
 * How a rendered page leaves app/entry.server.tsx. When no loader handed over a promise, nothing in
 * the page waits: React's streaming renderer (its public API, `renderToPipeableStream`) finishes it
 * a moment after its shell, and the page is collected (`wholeBody`) and sent as one body with its
 * Content-Length. A page whose loaders hand over promises still streams to browsers: its shell at
 * once, the rest as it comes (and whole for crawlers and the page cache).
 * See docs/decisions/0015-whole-documents.md.
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

const wholeDocuments = new WeakMap<Response, Uint8Array>()

/**
 * The response for a whole document: its bytes are kept beside it, so that the server
 * (server/main.ts) can write them as they are instead of reading the response's body stream back.
 */
export function wholeDocumentResponse(bytes: Uint8Array<ArrayBuffer>, init: ResponseInit & { headers: Headers }): Response {
	init.headers.set('Content-Length', String(bytes.byteLength))
	// The body as a stream that hands over these very bytes if anyone reads it (the page cache does):
	// given as bytes, the Response would copy them at once (22 kB for a dashboard page; 95 µs per
	// Response against 12 µs this way, measured alone), for a body the server never reads
	// (`git show a289a7f:bench/RESULTS-dashboard.md`, « Reading of this run and of the session's other
	// two », 2026-11-29).
	const response = new Response(
		new ReadableStream<Uint8Array>({
			pull(controller) {
				controller.enqueue(bytes)
				controller.close()
			},
		}),
		init,
	)
	wholeDocuments.set(response, bytes)
	return response
}

/** The bytes of a response made by `wholeDocumentResponse`, unread (undefined for any other response). */
export function wholeDocumentOf(response: Response): Uint8Array | undefined {
	return response.bodyUsed ? undefined : wholeDocuments.get(response)
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
