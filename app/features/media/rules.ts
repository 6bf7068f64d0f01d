import type { PublicImage } from './public-image.ts'

/*
 * The rules of image uploads, shared by the browser (checks before sending) and the server (which
 * checks again, by content). Sizes are in bytes; « 15 Mo » means 15 × 1024 × 1024 bytes.
 */
export type MediaKind = 'cover' | 'avatar'

const MB = 1024 * 1024

/** The heaviest file accepted, per kind of image. */
export const MAX_UPLOAD_BYTES: Record<MediaKind, number> = { cover: 15 * MB, avatar: 5 * MB }

/** What the multipart envelope (boundaries, part headers, a short text field) may add to the file. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024

/** Larger images (in pixels) are refused before any decoding: a 15 MB PNG can hold a billion pixels. */
export const MAX_INPUT_PIXELS = 100_000_000

/**
 * Widths a cover is rendered at (never above the original's), keeping its proportions. A browser
 * takes the narrowest one that covers the width shown × the screen's density: a phone 360–430 px
 * wide at 1.75–3 needs 630–1,290 pixels for a full-width cover, hence 800 and 1200 (with 960 and
 * 1600 only, most phones took 960 or 1600: a third to twice the bytes they show).
 */
export const COVER_WIDTHS = [480, 800, 1200, 1600, 2400] as const

/** Sides of the square renditions of an avatar (never above the original's shorter side). */
export const AVATAR_SIZES = [96, 192, 384] as const

/** What the file input offers (the server decides by content, not by this). */
export const ACCEPTED_TYPES = 'image/jpeg,image/png,image/webp,image/avif'

/** Where each kind of image is sent: covers by admins, avatars by the member themself. */
export const UPLOAD_URL: Record<MediaKind, string> = {
	cover: '/dashboard/admin/media',
	avatar: '/dashboard/settings/avatar',
}

/** How long an alternative text may be. */
export const ALT_MAX = 300

/** « 15 » for 15 Mo. */
export function megabytes(bytes: number): number {
	return Math.round((bytes / MB) * 10) / 10
}

/** The state of an upload as the status endpoints answer it. */
export interface MediaStatus {
	id: string
	kind: MediaKind
	status: 'processing' | 'ready' | 'failed'
	/** 0 to 100. */
	progress: number
	/** Why it failed, in French. */
	error: string | null
	image: PublicImage | null
}

/** What an upload endpoint answers on success (201). */
export interface UploadAccepted {
	id: string
	status: 'processing'
	progress: number
	/** Where to ask for the status (GET, JSON MediaStatus). */
	statusUrl: string
}
