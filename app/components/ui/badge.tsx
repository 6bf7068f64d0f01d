import type { ComponentProps } from 'react'

/**
 * The tone says what kind of state it is, the words say which. For events: programmé → success,
 * complet → accent, reporté → warning, annulé → danger, brouillon → neutral.
 */
export type BadgeTone = 'neutral' | 'accent' | 'success' | 'warning' | 'danger' | 'info'

/** A short status word: « complet », « annulé », « reporté », « brouillon »… (`badge` in styles/site.css) */
export function Badge({ tone = 'neutral', className, ...props }: ComponentProps<'span'> & { tone?: BadgeTone }) {
	return <span className={className ? `badge badge-${tone} ${className}` : `badge badge-${tone}`} {...props} />
}
