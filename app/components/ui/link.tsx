import { clsx } from 'clsx'

export type TextLinkTone = 'default' | 'quiet'

const tones: Record<TextLinkTone, string> = {
	// Underlined in the accent: recognisable as a link without relying on colour alone.
	default: 'font-semibold text-fg underline decoration-accent decoration-2 underline-offset-[0.22em] hover:decoration-fg',
	quiet: 'text-muted underline decoration-current/40 underline-offset-[0.22em] hover:text-fg hover:decoration-current',
}

/** The classes of a link in running text, for a plain <a> or a router <Link>. */
export function linkClasses(tone: TextLinkTone = 'default', className?: string) {
	return clsx('rounded-[2px] transition-colors duration-150', tones[tone], className)
}
