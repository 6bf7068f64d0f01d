import type { Route } from './+types/media-file'
import { isVariantKey } from '#app/features/media/media-keys.ts'
import { getPlatform } from '#app/platform/platform.server.ts'
import { notFoundResponse, storedFileResponse } from '#app/platform/storage/serve.server.ts'

/**
 * GET /media/<key>: one rendition of an uploaded image, from the storage. A rendition never
 * changes (a new image is a new key), so browsers and proxies keep it for a year. Only keys of
 * renditions are served (never an original), matched against their exact pattern before anything
 * else: no path from the request reaches the storage otherwise.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
	const key = params['*'] ?? ''
	if (!isVariantKey(key)) return notFoundResponse()
	const { storage } = await getPlatform()
	return storedFileResponse(storage, key, request, { cacheControl: 'public, max-age=31536000, immutable' })
}
