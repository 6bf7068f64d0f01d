import { eq } from 'drizzle-orm'
import type { Db } from '#app/platform/db/client.server.ts'
import { media } from '#app/platform/db/schema.ts'
import { MEDIA_URL_PREFIX, type PublicImage } from './public-image.ts'

/** A ready image, as a page can show it; null while it is processing, failed, or unknown. */
export async function publicImage(db: Db, mediaId: string | null | undefined): Promise<PublicImage | null> {
	if (!mediaId) return null
	const [row] = await db.select().from(media).where(eq(media.id, mediaId))
	if (!row || row.status !== 'ready' || !row.width || !row.height || row.variants.length === 0) return null
	return {
		width: row.width,
		height: row.height,
		alt: row.alt ?? '',
		variants: row.variants.map((v) => ({ format: v.format, width: v.width, height: v.height, url: MEDIA_URL_PREFIX + v.key })),
	}
}
