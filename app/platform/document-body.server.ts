import { Writable } from 'node:stream'
import type { EntryContext } from 'react-router'

/*
 * How a rendered page leaves app/entry.server.tsx. When no loader handed over a promise, React
 * finishes the whole page a moment after its first bytes (React Router's own data script is all
 * that is left), so streaming it only costs: every 2 kB chunk went through a Node stream, a web
 * stream and the HTTP response in turn (a 40 kB page, some 20 chunks). Such a page is collected
 * by `wholeBody` and sent as one body with its Content-Length. A page whose loaders hand over
 * promises still gets its shell at once and the rest as it comes.
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
