import type { Metadata } from 'sharp'
import { loadSharp } from './sharp.server.ts'
import { MAX_INPUT_PIXELS } from './rules.ts'

/** The image formats we take, as their first bytes say (never the file's name or declared type). */
export type ImageType = 'jpeg' | 'png' | 'webp' | 'avif' | 'heic'

export const EXTENSION: Record<ImageType, string> = { jpeg: 'jpg', png: 'png', webp: 'webp', avif: 'avif', heic: 'heic' }
export const MIME: Record<ImageType, string> = {
	jpeg: 'image/jpeg',
	png: 'image/png',
	webp: 'image/webp',
	avif: 'image/avif',
	heic: 'image/heic',
}

const ascii = (bytes: Uint8Array, start: number, length: number) => String.fromCharCode(...bytes.subarray(start, start + length))

const AVIF_BRANDS = new Set(['avif', 'avis'])
const HEIC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1'])

/** The type the file's magic bytes announce, or null for anything else. */
export function sniffImageType(bytes: Uint8Array): ImageType | null {
	if (bytes.length < 12) return null
	if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg'
	if (ascii(bytes, 0, 8) === '\x89PNG\r\n\x1a\n') return 'png'
	if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return 'webp'
	// ISO base media file: [size]['ftyp'][major brand][minor version][compatible brands…]
	if (ascii(bytes, 4, 4) === 'ftyp') {
		const boxSize = Math.min(((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0, 256, bytes.length)
		const brands = [ascii(bytes, 8, 4)]
		for (let at = 16; at + 4 <= boxSize; at += 4) brands.push(ascii(bytes, at, 4))
		if (brands.some((b) => AVIF_BRANDS.has(b))) return 'avif'
		if (brands.some((b) => HEIC_BRANDS.has(b))) return 'heic'
	}
	return null
}

export type ImageCheck =
	{ ok: true; type: ImageType; width: number; height: number } | { ok: false; reason: 'not-image' | 'too-many-pixels' | 'heic' }

const SHARP_FORMAT: Record<ImageType, string> = { jpeg: 'jpeg', png: 'png', webp: 'webp', avif: 'heif', heic: 'heif' }

/**
 * Whether the bytes are an image we can process: the magic bytes first, then sharp reads the
 * header (no decoding) and must agree on the format and find a size. HEIC (HEVC-coded HEIF) is
 * accepted only if this sharp can really decode it.
 */
export async function checkImage(bytes: Uint8Array): Promise<ImageCheck> {
	const type = sniffImageType(bytes)
	if (!type) return { ok: false, reason: 'not-image' }
	const sharp = await loadSharp()
	let meta: Metadata
	try {
		meta = await sharp(bytes, { limitInputPixels: false }).metadata()
	} catch {
		return { ok: false, reason: 'not-image' }
	}
	if (meta.format !== SHARP_FORMAT[type] || !meta.width || !meta.height) return { ok: false, reason: 'not-image' }
	if (meta.width * meta.height > MAX_INPUT_PIXELS) return { ok: false, reason: 'too-many-pixels' }
	const hevc = type === 'heic' || (meta.format === 'heif' && meta.compression === 'hevc')
	if (hevc) {
		const decodes = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS })
			.resize(8, 8)
			.toBuffer()
			.then(() => true)
			.catch(() => false)
		if (!decodes) return { ok: false, reason: 'heic' }
		return { ok: true, type: 'heic', width: meta.width, height: meta.height }
	}
	return { ok: true, type, width: meta.width, height: meta.height }
}
