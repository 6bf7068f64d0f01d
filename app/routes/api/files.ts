import type { Route } from './+types/files'
import { getPlatform } from '#app/platform/platform.server.ts'
import { isLocalStorage } from '#app/platform/storage/local-storage.server.ts'
import { notFoundResponse, storedFileResponse } from '#app/platform/storage/serve.server.ts'
import { contentDisposition, isStorageKey } from '#app/platform/storage/storage.server.ts'
import { getT } from '#app/platform/i18n.server.ts'

const plain = (status: number, text: string) =>
	new Response(text, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } })

/**
 * GET /files/<key>?expires=…&sig=…: a short-lived signed link to a stored file, for the local
 * storage (with S3, signed links point at the bucket itself). The signature covers the key, the
 * expiry and the download name; anything else, or a link past its time, is refused.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
	const { storage } = await getPlatform()
	const key = params['*'] ?? ''
	if (!isLocalStorage(storage) || !isStorageKey(key)) return notFoundResponse()
	const query = new URL(request.url).searchParams
	const check = storage.verifySignature(key, query)
	if (check === 'invalid') return plain(403, getT()('http.linkInvalid'))
	if (check === 'expired') return plain(410, getT()('http.linkExpired'))
	const name = query.get('name')
	return storedFileResponse(storage, key, request, {
		cacheControl: 'private, no-store',
		headers: name ? { 'Content-Disposition': contentDisposition(name) } : undefined,
	})
}
