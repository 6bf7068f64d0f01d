import { getT } from '../i18n.server.ts'
import { getLogger } from '../logger.server.ts'
import type { ByteRange, Storage } from './storage.server.ts'

/** How long a client is asked to wait before asking again for a file the storage could not give. */
const RETRY_AFTER_SECONDS = 30

/**
 * What a `Range` header asks of a file of `size` bytes: one range, the whole file (no header, a
 * header we do not serve — several ranges, another unit — or a malformed one, which RFC 9110 says
 * to ignore), or nothing that exists (416).
 */
export function parseRange(header: string | null, size: number): ByteRange | 'whole' | 'unsatisfiable' {
	if (!header) return 'whole'
	const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim())
	if (!match || (match[1] === '' && match[2] === '')) return 'whole'
	const [, first = '', last = ''] = match
	if (first === '') {
		// The last N bytes.
		const length = Number(last)
		if (length === 0 || size === 0) return 'unsatisfiable'
		return { start: Math.max(0, size - length), end: size - 1 }
	}
	const start = Number(first)
	const end = last === '' ? size - 1 : Math.min(Number(last), size - 1)
	if (last !== '' && Number(last) < start) return 'whole'
	if (start >= size) return 'unsatisfiable'
	return { start, end }
}

/** Whether an If-None-Match header names this ETag (weak comparison, as RFC 9110 asks for GET). */
function matchesEtag(header: string | null, etag: string): boolean {
	if (!header) return false
	if (header.trim() === '*') return true
	const bare = (tag: string) => tag.trim().replace(/^W\//, '')
	return header.split(',').some((tag) => bare(tag) === bare(etag))
}

/**
 * Answers a GET or HEAD for a stored file: ETag and 304, one byte range (206, or 416), the file's
 * type, and the caller's caching. The key must already be known good; a missing file is a 404.
 * While the storage itself fails (an S3 service answering 500 after the client's own retries, a
 * disk error), the answer is a 503 in French with Retry-After, never a bare 500.
 */
export async function storedFileResponse(
	storage: Storage,
	key: string,
	request: Request,
	options: { cacheControl: string; headers?: Record<string, string> },
): Promise<Response> {
	try {
		return await serveStoredFile(storage, key, request, options)
	} catch (error) {
		getLogger().warn({ err: error, key }, 'stored file unavailable')
		return new Response(getT()('media.errors.storageUnavailable'), {
			status: 503,
			headers: {
				'Content-Type': 'text/plain; charset=utf-8',
				'Cache-Control': 'no-store',
				'Retry-After': String(RETRY_AFTER_SECONDS),
				'X-Content-Type-Options': 'nosniff',
			},
		})
	}
}

async function serveStoredFile(
	storage: Storage,
	key: string,
	request: Request,
	options: { cacheControl: string; headers?: Record<string, string> },
): Promise<Response> {
	const info = await storage.stat(key)
	if (!info) return notFoundResponse()
	const headers = new Headers({
		'Cache-Control': options.cacheControl,
		'Content-Type': info.contentType,
		ETag: info.etag,
		'Last-Modified': info.lastModified.toUTCString(),
		'Accept-Ranges': 'bytes',
		'X-Content-Type-Options': 'nosniff',
		...options.headers,
	})
	if (matchesEtag(request.headers.get('if-none-match'), info.etag)) {
		headers.delete('Content-Type')
		return new Response(null, { status: 304, headers })
	}
	// A Range is honoured only while the file is still the one the client has part of.
	const ifRange = request.headers.get('if-range')
	const rangeHeader = ifRange && ifRange.trim() !== info.etag ? null : request.headers.get('range')
	const range = parseRange(rangeHeader, info.size)
	if (range === 'unsatisfiable') {
		headers.set('Content-Range', `bytes */${info.size}`)
		headers.delete('Content-Type')
		return new Response(null, { status: 416, headers })
	}
	const partial = range === 'whole' ? undefined : range
	const length = partial ? partial.end - partial.start + 1 : info.size
	headers.set('Content-Length', String(length))
	if (partial) headers.set('Content-Range', `bytes ${partial.start}-${partial.end}/${info.size}`)
	const status = partial ? 206 : 200
	if (request.method === 'HEAD') return new Response(null, { status, headers })
	const object = await storage.get(key, { range: partial })
	if (!object) return notFoundResponse()
	return new Response(object.body, { status, headers })
}

export function notFoundResponse(): Response {
	return new Response(getT()('http.fileNotFound'), {
		status: 404,
		headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' },
	})
}
