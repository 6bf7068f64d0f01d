/*
 * Storage keys of media, made here only. Originals are private (never served by /media/); the
 * renditions are public, at MEDIA_URL_PREFIX + key, and immutable: a new upload is a new id.
 */
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'
const VARIANT_KEY = new RegExp(`^img/${UUID}/[1-9][0-9]{0,3}\\.(?:avif|webp|jpg)$`)

export type VariantFormat = 'avif' | 'webp' | 'jpeg'

export const VARIANT_EXTENSION: Record<VariantFormat, string> = { avif: 'avif', webp: 'webp', jpeg: 'jpg' }

export function originalKey(mediaId: string, extension: string): string {
	return `originals/${mediaId}.${extension}`
}

export function variantKey(mediaId: string, width: number, format: VariantFormat): string {
	return `img/${mediaId}/${width}.${VARIANT_EXTENSION[format]}`
}

/** Whether a path under /media/ names a rendition (the only files /media/ serves). */
export function isVariantKey(key: string): boolean {
	return key.length <= 80 && VARIANT_KEY.test(key)
}
