import { clsx } from 'clsx'
import type { ComponentProps } from 'react'

/**
 * The tone says what kind of state it is, the words say which. For events: programmé → success,
 * complet → accent, reporté → warning, annulé → danger, brouillon → neutral.
 */
export type BadgeTone = 'neutral' | 'accent' | 'success' | 'warning' | 'danger' | 'info'

const tones: Record<BadgeTone, string> = {
	neutral: 'border-line-strong/60 bg-fg/6 text-muted',
	accent: 'border-transparent bg-accent text-on-accent',
	success: 'border-success/35 bg-success/14 text-success',
	warning: 'border-warning/35 bg-warning/14 text-warning',
	danger: 'border-danger/35 bg-danger/14 text-danger',
	info: 'border-info/35 bg-info/14 text-info',
}

/** A short status word: « complet », « annulé », « reporté », « brouillon »… */
export function Badge({ tone = 'neutral', className, ...props }: ComponentProps<'span'> & { tone?: BadgeTone }) {
	return (
		<span
			className={clsx(
				'inline-flex items-center gap-1 rounded-badge border px-2 py-0.5 text-[0.6875rem] leading-4 font-bold tracking-[0.08em] whitespace-nowrap uppercase',
				tones[tone],
				className,
			)}
			{...props}
		/>
	)
}
