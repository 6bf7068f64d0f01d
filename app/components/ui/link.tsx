export type TextLinkTone = 'default' | 'quiet'

/*
 * `text-link` and `text-link-quiet` (styles/site.css) hold what every link shares, underlined in the
 * accent so that it is recognisable as a link without relying on colour alone. The hover colours
 * stay utilities, so that they still win over a decoration colour given beside them.
 */
const tones: Record<TextLinkTone, string> = {
	default: 'text-link hover:decoration-fg',
	quiet: 'text-link-quiet hover:text-fg hover:decoration-current',
}

/** The classes of a link in running text, for a plain <a> or a router <Link>. */
export function linkClasses(tone: TextLinkTone = 'default', className?: string) {
	return className ? `${tones[tone]} ${className}` : tones[tone]
}
