/**
 * Where uploaded files live: a folder under DATA_DIR (default) or an S3-compatible bucket, behind
 * one small interface. Keys are made by the server alone (see `isStorageKey`): nothing a visitor
 * sends ever becomes a path or an object name without matching that pattern first.
 */

/** What the store knows of a file. */
export interface StoredObjectInfo {
	/** Total size in bytes. */
	size: number
	contentType: string
	/** A strong validator, quoted as HTTP wants it (`"…"`). */
	etag: string
	lastModified: Date
}

/** Inclusive byte positions, as in `Range: bytes=start-end`. */
export interface ByteRange {
	start: number
	end: number
}

export interface StoredObject extends StoredObjectInfo {
	/** The bytes asked for: the whole file, or only `range`. */
	body: ReadableStream<Uint8Array>
	range?: ByteRange
}

export interface SignedUrlOptions {
	/** How long the link works; 15 minutes unless told, 7 days at most. */
	expiresInSeconds?: number
	/** Makes the browser download the file under this name instead of showing it. */
	downloadName?: string
}

export interface Storage {
	readonly kind: 'local' | 's3'
	/** Writes the whole file at once: readers see the old file or the new one, never half of it. */
	put(key: string, body: Uint8Array, options: { contentType: string }): Promise<StoredObjectInfo>
	/**
	 * Writes a file that arrives in pieces (an upload), never whole in memory; readers see the old
	 * file or the new one. When `body` throws (the sender gone, a size limit), nothing is kept.
	 */
	putStream(key: string, body: AsyncIterable<Uint8Array>, options: { contentType: string }): Promise<StoredObjectInfo>
	/** Null when there is no such file. */
	stat(key: string): Promise<StoredObjectInfo | null>
	/** The file as a stream (or a range of it); null when there is no such file. */
	get(key: string, options?: { range?: ByteRange }): Promise<StoredObject | null>
	/** The whole file in memory (for the image jobs); null when there is no such file. */
	read(key: string): Promise<Uint8Array | null>
	/** Removes the file; removing a missing file is not an error. */
	delete(key: string): Promise<void>
	/** An absolute address that serves the file to anyone holding it, until it expires. */
	signedUrl(key: string, options?: SignedUrlOptions): Promise<string>
}

export const SIGNED_URL_DEFAULT_SECONDS = 15 * 60
export const SIGNED_URL_MAX_SECONDS = 7 * 24 * 3600

const SEGMENT = '[a-z0-9]+(?:[._-][a-z0-9]+)*'
const KEY_PATTERN = new RegExp(`^${SEGMENT}(?:/${SEGMENT}){0,4}$`)

/**
 * A key is 1 to 5 lower-case segments of letters and digits joined by single dots, dashes or
 * underscores, separated by slashes: no `..`, no leading dot or slash, no backslash, no percent
 * sign, no upper case, at most 200 characters.
 */
export function isStorageKey(key: unknown): key is string {
	return typeof key === 'string' && key.length > 0 && key.length <= 200 && KEY_PATTERN.test(key)
}

export function assertStorageKey(key: string): void {
	if (!isStorageKey(key)) throw new Error(`invalid storage key: ${JSON.stringify(key).slice(0, 80)}`)
}

const CONTENT_TYPES: Record<string, string> = {
	avif: 'image/avif',
	webp: 'image/webp',
	jpg: 'image/jpeg',
	jpeg: 'image/jpeg',
	png: 'image/png',
	heic: 'image/heic',
	heif: 'image/heif',
	json: 'application/json',
	pdf: 'application/pdf',
	txt: 'text/plain; charset=utf-8',
}

/** The type of a file from its key's extension (keys are ours, so the extension tells the truth). */
export function contentTypeOfKey(key: string): string {
	const dot = key.lastIndexOf('.')
	const ext = dot > key.lastIndexOf('/') ? key.slice(dot + 1) : ''
	return CONTENT_TYPES[ext] ?? 'application/octet-stream'
}

export function clampExpiry(seconds: number | undefined): number {
	const value = Math.floor(seconds ?? SIGNED_URL_DEFAULT_SECONDS)
	return Math.min(Math.max(value, 1), SIGNED_URL_MAX_SECONDS)
}

/** `attachment; filename="…"; filename*=UTF-8''…` for a download name, with nothing that could break the header. */
export function contentDisposition(name: string): string {
	const clean = name.replace(/[\r\n"\\/]/g, '_').slice(0, 150) || 'fichier'
	const ascii = clean.normalize('NFKD').replace(/[^\x20-\x7e]/g, '_')
	return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(clean)}`
}
