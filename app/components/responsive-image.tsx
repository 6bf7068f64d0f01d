import { preload } from 'react-dom'
import type { PublicImage } from '#app/features/media/public-image.ts'

const TYPES = { avif: 'image/avif', webp: 'image/webp', jpeg: 'image/jpeg' } as const

/**
 * An uploaded image in modern formats: the browser picks AVIF, then WebP, then JPEG, at the width
 * it needs. Explicit dimensions reserve its space, so nothing jumps while it loads.
 */
export function ResponsiveImage(props: {
	image: PublicImage
	/** The `sizes` attribute: how wide the image is shown, e.g. "(min-width: 64rem) 50vw, 100vw". */
	sizes: string
	/** Overrides the image's own description; '' for a decorative image. */
	alt?: string
	/** The page's main image: loaded at once and early, never lazily. */
	priority?: boolean
	/** Classes of the <img>. */
	className?: string
	/** Classes of the <picture> around it, e.g. `block size-full` to fill a box the image is cropped to. */
	pictureClassName?: string
}) {
	const { image } = props
	const srcSet = (format: keyof typeof TYPES) =>
		image.variants
			.filter((v) => v.format === format)
			.sort((a, b) => a.width - b.width)
			.map((v) => `${v.url} ${v.width}w`)
			.join(', ')
	const jpegs = image.variants.filter((v) => v.format === 'jpeg').sort((a, b) => a.width - b.width)
	const fallback = jpegs[Math.min(1, jpegs.length - 1)] ?? image.variants[0]
	if (props.priority && fallback) {
		// The page's main image is asked for from <head>, with the stylesheet, in the best format
		// (a browser that does not know that type skips the hint and finds the <img> as usual).
		const best = (['avif', 'webp', 'jpeg'] as const).find((format) => image.variants.some((v) => v.format === format))!
		preload(fallback.url, { as: 'image', type: TYPES[best], imageSrcSet: srcSet(best), imageSizes: props.sizes, fetchPriority: 'high' })
	}
	return (
		<picture className={props.pictureClassName}>
			{(['avif', 'webp'] as const).map((format) =>
				image.variants.some((v) => v.format === format) ? (
					<source key={format} type={TYPES[format]} srcSet={srcSet(format)} sizes={props.sizes} />
				) : null,
			)}
			<img
				src={fallback?.url}
				srcSet={srcSet('jpeg') || undefined}
				sizes={props.sizes}
				width={image.width}
				height={image.height}
				alt={props.alt ?? image.alt}
				loading={props.priority ? 'eager' : 'lazy'}
				fetchPriority={props.priority ? 'high' : undefined}
				decoding="async"
				className={props.className}
			/>
		</picture>
	)
}
