/** An image as pages receive it: its size and every rendition, by format and width. */
export interface PublicImage {
	width: number
	height: number
	alt: string
	variants: { format: 'avif' | 'webp' | 'jpeg'; width: number; height: number; url: string }[]
}

/** Where the public files of media live (served immutable by routes/public/media-file.ts). */
export const MEDIA_URL_PREFIX = '/media/'
