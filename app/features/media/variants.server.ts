import { and, eq, lt } from 'drizzle-orm'
import type { Logger } from 'pino'
import type { OutputInfo, Sharp } from 'sharp'
import { loadSharp } from './sharp.server.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import { media, type MediaVariant } from '#app/platform/db/schema.ts'
import { getT } from '#app/platform/i18n.server.ts'
import type { Storage } from '#app/platform/storage/storage.server.ts'
import { variantKey, type VariantFormat } from './media-keys.ts'
import { AVATAR_SIZES, COVER_WIDTHS, MAX_INPUT_PIXELS, type MediaKind } from './rules.ts'

/*
 * The renditions of an uploaded image. Covers keep their proportions (pages frame them with CSS,
 * `object-fit: cover`): a poster in portrait stays whole. Avatars are cut square around the most
 * salient part (sharp's "attention" strategy, which favours faces and contrast).
 * Every rendition is turned upright per its EXIF orientation, converted to sRGB, and written with
 * no metadata at all (no EXIF, no GPS, no XMP, no ICC profile).
 */
export const FORMATS: VariantFormat[] = ['avif', 'webp', 'jpeg']
const MIME: Record<VariantFormat, string> = { avif: 'image/avif', webp: 'image/webp', jpeg: 'image/jpeg' }

/** The widths of a cover whose upright width is `width`: the ladder up to it, and the original's own width when it adds something. */
export function coverWidths(width: number): number[] {
	const chosen: number[] = COVER_WIDTHS.filter((w) => w <= width)
	const largest = chosen.at(-1) ?? 0
	const top = Math.min(width, COVER_WIDTHS.at(-1)!)
	if (chosen.length === 0 || top > largest * 1.2) chosen.push(top)
	return chosen
}

/** The sides of an avatar whose upright shorter side is `side`, by the same rule. */
export function avatarSizes(side: number): number[] {
	const chosen: number[] = AVATAR_SIZES.filter((s) => s <= side)
	const largest = chosen.at(-1) ?? 0
	const top = Math.min(side, AVATAR_SIZES.at(-1)!)
	if (chosen.length === 0 || top > largest * 1.2) chosen.push(top)
	return chosen
}

class UnreadableImage extends Error {}

export interface ProcessDeps {
	db: Db
	storage: Storage
	logger: Logger
}

export type ProcessOutcome = 'ready' | 'failed' | 'skipped'

const input = async (bytes: Uint8Array): Promise<Sharp> =>
	(await loadSharp())(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })

/**
 * How each format is written. AVIF with its colour at half resolution (4:2:0, as JPEG and WebP
 * always are): 6–13 % fewer bytes than 4:4:4 on posters and photos at the same quality, and a
 * faster encode. A phone's first view of an event is its cover: the renditions phones take
 * (≤ PHONE_WIDTH px, avatars too) get the encoder's slower search, 5–33 % fewer bytes again for
 * some 4× the time (about 7 s more per cover here, once, in the background job).
 */
export const VARIANT_ENCODING = {
	avif: { quality: 52, effort: 3, chromaSubsampling: '4:2:0' },
	webp: { quality: 78, effort: 4 },
	jpeg: { quality: 80, mozjpeg: true },
} as const
const PHONE_WIDTH = 1200

/** The AVIF settings of a rendition this wide. */
export function avifEncoding(width: number) {
	return { ...VARIANT_ENCODING.avif, effort: width <= PHONE_WIDTH ? 5 : VARIANT_ENCODING.avif.effort }
}

async function encode(
	raw: { data: Buffer; info: OutputInfo },
	format: VariantFormat,
): Promise<{ data: Buffer; width: number; height: number }> {
	const { width, height, channels } = raw.info
	const sharp = await loadSharp()
	let image = sharp(raw.data, { raw: { width, height, channels: channels as 1 | 2 | 3 | 4 } })
	if (format === 'avif') image = image.avif(avifEncoding(width))
	else if (format === 'webp') image = image.webp(VARIANT_ENCODING.webp)
	// JPEG has no transparency: a transparent image is laid on white.
	else image = image.flatten({ background: '#ffffff' }).jpeg(VARIANT_ENCODING.jpeg)
	const { data, info } = await image.toBuffer({ resolveWithObject: true })
	return { data, width: info.width, height: info.height }
}

/**
 * Makes the renditions of one media row, saying how far it got in `progress`. It can be run again
 * at any point (after a crash, on a retry): renditions already recorded in the row are kept, the
 * others are made and written under the same keys. A row that is no longer processing is left alone.
 * An image that cannot be decoded ends `failed` with a French reason at once (retrying would not
 * help); any other error is thrown for the queue to retry, and on the last attempt ends `failed`.
 */
export async function processMedia(deps: ProcessDeps, mediaId: string, attempt: { isLast: boolean }): Promise<ProcessOutcome> {
	const { db, storage, logger } = deps
	const t = getT()
	const [row] = await db.select().from(media).where(eq(media.id, mediaId))
	if (!row || row.status !== 'processing') return 'skipped'

	const fail = async (reason: string) => {
		await db
			.update(media)
			.set({ status: 'failed', error: reason })
			.where(and(eq(media.id, mediaId), eq(media.status, 'processing')))
		return 'failed' as const
	}

	try {
		const original = await storage.read(row.originalKey)
		if (!original) return await fail(t('media.errors.originalMissing'))

		let upright: { width: number; height: number }
		try {
			const meta = await (await input(original)).metadata()
			if (!meta.width || !meta.height) throw new UnreadableImage('no size')
			if (meta.width * meta.height > MAX_INPUT_PIXELS) throw new UnreadableImage('too many pixels')
			// Orientations 5 to 8 turn the image a quarter: width and height swap.
			upright = (meta.orientation ?? 1) >= 5 ? { width: meta.height, height: meta.width } : { width: meta.width, height: meta.height }
		} catch (error) {
			throw error instanceof UnreadableImage ? error : new UnreadableImage((error as Error).message)
		}

		const kind = row.kind as MediaKind
		const sizes = kind === 'avatar' ? avatarSizes(Math.min(upright.width, upright.height)) : coverWidths(upright.width)
		const total = sizes.length * FORMATS.length
		const variants: MediaVariant[] = row.variants.filter((v) => sizes.includes(v.width) && v.key === variantKey(mediaId, v.width, v.format))
		const report = (progress: number) =>
			db
				.update(media)
				.set({ progress, variants })
				.where(and(eq(media.id, mediaId), eq(media.status, 'processing')))
		await report(Math.max(row.progress, 5))

		for (const size of sizes) {
			const missing = FORMATS.filter((format) => !variants.some((v) => v.width === size && v.format === format))
			if (missing.length === 0) continue
			let raw: { data: Buffer; info: OutputInfo }
			try {
				const resized =
					kind === 'avatar'
						? (await input(original)).autoOrient().resize(size, size, { fit: 'cover', position: (await loadSharp()).strategy.attention })
						: (await input(original)).autoOrient().resize({ width: size, withoutEnlargement: true })
				raw = await resized.toColourspace('srgb').raw().toBuffer({ resolveWithObject: true })
			} catch (error) {
				throw new UnreadableImage((error as Error).message)
			}
			for (const format of missing) {
				let encoded: Awaited<ReturnType<typeof encode>>
				try {
					encoded = await encode(raw, format)
				} catch (error) {
					throw new UnreadableImage((error as Error).message)
				}
				const key = variantKey(mediaId, size, format)
				await storage.put(key, encoded.data, { contentType: MIME[format] })
				variants.push({ format, width: encoded.width, height: encoded.height, key, bytes: encoded.data.byteLength })
				await report(Math.min(99, 5 + Math.round((94 * variants.length) / total)))
			}
		}

		const largest = variants.filter((v) => v.format === 'jpeg').sort((a, b) => b.width - a.width)[0] ?? variants[0]!
		await db
			.update(media)
			.set({ status: 'ready', progress: 100, variants, width: largest.width, height: largest.height, error: null })
			.where(and(eq(media.id, mediaId), eq(media.status, 'processing')))
		return 'ready'
	} catch (error) {
		if (error instanceof UnreadableImage) {
			logger.warn({ mediaId, reason: error.message }, 'uploaded image could not be decoded')
			return fail(t('media.errors.unreadable'))
		}
		logger.warn({ err: error, mediaId, last: attempt.isLast }, 'image processing failed')
		if (attempt.isLast) return fail(t('media.errors.processing'))
		throw error
	}
}

/**
 * The member's earlier avatars, once a new one is ready: only one is kept. One sent after this one
 * (still processing) is not earlier, and stays.
 */
export async function supersededAvatars(db: Db, mediaId: string): Promise<string[]> {
	const [row] = await db
		.select({ kind: media.kind, createdBy: media.createdBy, status: media.status, createdAt: media.createdAt })
		.from(media)
		.where(eq(media.id, mediaId))
	if (!row || row.kind !== 'avatar' || row.status !== 'ready' || !row.createdBy) return []
	const others = await db
		.select({ id: media.id })
		.from(media)
		.where(and(eq(media.kind, 'avatar'), eq(media.createdBy, row.createdBy), lt(media.createdAt, row.createdAt)))
	return others.map((o) => o.id)
}
