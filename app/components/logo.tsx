import { clsx } from 'clsx'

/** The band's initials, for a fresh install without a logo file. */
export function initials(name: string): string {
	const words = name
		.replace(/^(le|la|les|l'|the)\s+/i, '')
		.split(/[\s\-_.]+/)
		.filter(Boolean)
	const letters = words.length > 1 ? words.slice(0, 2).map((w) => w[0]) : [...(words[0] ?? '?')].slice(0, 2)
	return letters.join('').toUpperCase()
}

/** The band's logo: its configured image, or a monogram in the accent colour. */
export function Logo(props: { name: string; logoUrl: string | null; className?: string; decorative?: boolean }) {
	const alt = props.decorative ? '' : props.name
	if (props.logoUrl) {
		return <img src={props.logoUrl} alt={alt} className={clsx('object-contain', props.className)} />
	}
	return (
		<svg
			viewBox="0 0 100 100"
			role={props.decorative ? 'presentation' : 'img'}
			aria-hidden={props.decorative ? true : undefined}
			aria-label={props.decorative ? undefined : props.name}
			className={props.className}
		>
			<rect width="100" height="100" rx="14" fill="var(--color-accent)" />
			<text
				x="50"
				y="54"
				textAnchor="middle"
				dominantBaseline="middle"
				fontFamily="var(--font-display)"
				fontSize={initials(props.name).length > 1 ? 50 : 64}
				fill="var(--color-on-accent)"
			>
				{initials(props.name)}
			</text>
		</svg>
	)
}
