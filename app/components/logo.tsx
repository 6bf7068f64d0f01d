import { clsx } from 'clsx'

/** Little words a monogram skips: « Le Groupe du Bas » → « GB ». */
const SMALL_WORDS = new Set(['de', 'du', 'des', 'd’', "d'", 'et', '&', 'à', 'au', 'aux', 'of', 'and', 'the'])

/**
 * The letters of the band's monogram: one letter for a one-word name (« Le Groupe » → « G »), the
 * first letters of the first two words otherwise (« Les Nuits Fauves » → « NF »).
 */
export function initials(name: string): string {
	// Asked for the same band name on every page (logo, favicon): the last answer is kept.
	if (lastInitials?.name !== name) lastInitials = { name, value: initialsOf(name) }
	return lastInitials.value
}
let lastInitials: { name: string; value: string } | undefined

function initialsOf(name: string): string {
	const words = name
		.replace(/^(?:les|le|la|the)\s+|^l['’]\s*/i, '')
		.split(/[\s\-_.]+/)
		.filter((word) => word && !SMALL_WORDS.has(word.toLowerCase()))
	const letters = words.slice(0, 2).map((word) => [...word][0])
	return (letters.join('') || '?').toLocaleUpperCase('fr-FR')
}

/*
 * The monogram is a ticket: a tile in the accent colour with a punched notch on each side, the
 * letter set in the display face and centred on its cap height (Anton's is 0.86 em).
 */
export const TICKET =
	'M12 0H88A12 12 0 0 1 100 12V41A9 9 0 0 0 100 59V88A12 12 0 0 1 88 100H12A12 12 0 0 1 0 88V59A9 9 0 0 0 0 41V12A12 12 0 0 1 12 0Z'
export const CAP_HEIGHT = 0.86

/** The band's logo: its configured image, or the monogram in the accent colour. */
export function Logo(props: { name: string; logoUrl: string | null; className?: string; decorative?: boolean }) {
	const alt = props.decorative ? '' : props.name
	if (props.logoUrl) {
		return <img src={props.logoUrl} alt={alt} className={clsx('object-contain', props.className)} />
	}
	const letters = initials(props.name)
	const fontSize = letters.length > 1 ? 50 : 66
	return (
		<svg
			viewBox="0 0 100 100"
			role={props.decorative ? undefined : 'img'}
			aria-hidden={props.decorative ? true : undefined}
			aria-label={props.decorative ? undefined : props.name}
			className={clsx('shrink-0', props.className)}
		>
			<path d={TICKET} className="fill-accent" />
			<text
				x="50"
				y={50 + (CAP_HEIGHT * fontSize) / 2}
				textAnchor="middle"
				fontSize={fontSize}
				letterSpacing={letters.length > 1 ? 1 : 0}
				className="fill-on-accent font-display"
			>
				{letters}
			</text>
		</svg>
	)
}
