import { clsx } from 'clsx'
import { initials } from '#app/components/logo.tsx'
import { ResponsiveImage } from '#app/components/responsive-image.tsx'
import type { PublicImage } from '#app/features/media/public-image.ts'

/**
 * An event's cover, filling its box: cropped to it (`cover`, the default), or shown whole inside it
 * (`contain`, the event's own page, where a title written on the poster must stay readable).
 * Without a cover: a print of the band's monogram in the accent, CSS only.
 */
export function EventCover(props: {
	cover: PublicImage | null
	bandName: string
	sizes: string
	priority?: boolean
	fit?: 'cover' | 'contain'
	className?: string
}) {
	if (props.cover) {
		return (
			<ResponsiveImage
				image={props.cover}
				sizes={props.sizes}
				priority={props.priority}
				className={clsx('size-full', props.fit === 'contain' ? 'object-contain' : 'object-cover', props.className)}
			/>
		)
	}
	// The monogram fills the box it is given, whatever its shape (container query units).
	return (
		<div
			aria-hidden="true"
			className={clsx(
				'relative isolate grid size-full place-items-center overflow-hidden bg-canvas [container-type:size]',
				props.className,
			)}
		>
			<div className="hero-backdrop absolute inset-0 -z-10" />
			<span className="hero-monogram translate-y-[4%] text-[min(78cqh,62cqw)] uppercase">{initials(props.bandName)}</span>
		</div>
	)
}
