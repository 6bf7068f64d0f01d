/*
 * Compression of what React Router renders per request (signed-in pages, forms with errors, data
 * requests): brotli when the browser takes it, else gzip, flushed at every chunk so
 * that a streamed page still arrives piece by piece. Hashed assets are compressed at build time
 * (scripts/compress-assets.mjs) and cached pages once (server/page-cache.ts).
 */
import { Readable } from 'node:stream'
import type { ReadableStream as NodeReadableStream } from 'node:stream/web'
import zlib from 'node:zlib'
import { LRUCache } from 'lru-cache'

export type Encoding = 'br' | 'gzip' | 'identity'

/** The encoding to send for this Accept-Encoding: br, then gzip, by the weights the client gives. */
export function preferredEncoding(acceptEncoding: string | string[] | undefined): Encoding {
	const header = Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : acceptEncoding
	if (!header) return 'identity'
	// Browsers send a handful of distinct values, each on every request: read each once.
	const known = chosen.get(header)
	if (known) return known
	const encoding = parseAcceptEncoding(header)
	chosen.set(header, encoding)
	return encoding
}

const chosen = new LRUCache<string, Encoding>({ max: 256 })

function parseAcceptEncoding(header: string): Encoding {
	const weights = new Map<string, number>()
	for (const part of header.toLowerCase().split(',')) {
		const [name, ...params] = part.trim().split(';')
		if (!name) continue
		let q = 1
		for (const param of params) {
			const [key, value] = param.trim().split('=')
			if (key === 'q') q = Number.parseFloat(value ?? '')
		}
		if (!Number.isFinite(q)) q = 0
		weights.set(name.trim(), q)
	}
	const weight = (name: string) => weights.get(name) ?? weights.get('*') ?? 0
	const br = weight('br')
	const gz = weight('gzip')
	if (br > 0 && br >= gz) return 'br'
	if (gz > 0) return 'gzip'
	return 'identity'
}

const COMPRESSIBLE = /^(?:text\/(?!event-stream)|application\/(?:json|javascript|xml|manifest\+json|ld\+json)|image\/svg\+xml)/i
/** Below this, compressing costs more than it saves. */
const MIN_BYTES = 1024

/** The encoding this response should be sent with for this request ('identity': as it is). */
function encodingFor(request: Request, response: Response): Encoding {
	if (!response.body || request.method === 'HEAD') return 'identity'
	if (response.status === 204 || response.status === 206 || response.status === 304) return 'identity'
	if (response.headers.has('content-encoding')) return 'identity'
	if (!COMPRESSIBLE.test(response.headers.get('content-type') ?? '')) return 'identity'
	if (/\bno-transform\b/i.test(response.headers.get('cache-control') ?? '')) return 'identity'
	const length = response.headers.get('content-length')
	if (length !== null && Number(length) < MIN_BYTES) return 'identity'
	return preferredEncoding(request.headers.get('accept-encoding') ?? undefined)
}

/** The headers of the response once compressed: its encoding, Vary, a weak ETag, no length yet. */
function compressedHeaders(original: Headers, encoding: Exclude<Encoding, 'identity'>): Headers {
	const headers = new Headers(original)
	headers.delete('content-length')
	headers.set('content-encoding', encoding)
	const vary = headers.get('vary')
	if (!vary) headers.set('vary', 'Accept-Encoding')
	else if (!/\baccept-encoding\b|\*/i.test(vary)) headers.set('vary', `${vary}, Accept-Encoding`)
	// The bytes differ from the uncompressed ones: a strong validator would claim otherwise.
	const etag = headers.get('etag')
	if (etag?.startsWith('"')) headers.set('etag', `W/${etag}`)
	return headers
}

const BROTLI_PARAMS = { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT }

/** The response compressed for this request, or the response itself when it should not be. */
export function compressResponse(request: Request, response: Response): Response {
	const encoding = encodingFor(request, response)
	if (encoding === 'identity') return response
	const compressor =
		encoding === 'br'
			? zlib.createBrotliCompress({ flush: zlib.constants.BROTLI_OPERATION_FLUSH, params: BROTLI_PARAMS })
			: zlib.createGzip({ level: 6, flush: zlib.constants.Z_SYNC_FLUSH })
	const source = Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>)
	source.on('error', (error) => compressor.destroy(error))
	source.pipe(compressor)
	return new Response(Readable.toWeb(compressor) as ReadableStream<Uint8Array>, {
		status: response.status,
		statusText: response.statusText,
		headers: compressedHeaders(response.headers, encoding),
	})
}

/**
 * A window no larger than the body (brotli's default is 4 MB), 64 kB at least: the same bytes out,
 * and less memory for the encoder to take and give back for each page.
 */
function brotliWindowFor(length: number) {
	const bits = Math.min(22, Math.max(16, Math.ceil(Math.log2(length + 1))))
	return { [zlib.constants.BROTLI_PARAM_LGWIN]: bits, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: length }
}

/**
 * A whole body compressed at once (the same settings, in the thread pool), with the headers to
 * send it with, its length included: a page known in full need not go through a stream.
 */
export async function compressWhole(
	request: Request,
	response: Response,
	body: Uint8Array,
): Promise<{ headers: Headers; body: Uint8Array } | null> {
	const encoding = encodingFor(request, response)
	if (encoding === 'identity') return null
	const compressed = await new Promise<Buffer>((resolve, reject) =>
		encoding === 'br'
			? zlib.brotliCompress(body, { params: { ...BROTLI_PARAMS, ...brotliWindowFor(body.byteLength) } }, (error, out) =>
					error ? reject(error) : resolve(out),
				)
			: zlib.gzip(body, { level: 6 }, (error, out) => (error ? reject(error) : resolve(out))),
	)
	const headers = compressedHeaders(response.headers, encoding)
	headers.set('content-length', String(compressed.byteLength))
	return { headers, body: compressed }
}
