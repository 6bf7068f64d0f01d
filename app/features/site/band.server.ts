import { getEnv } from '#app/platform/env.server.ts'

export interface SocialLink {
	network: 'instagram' | 'facebook' | 'youtube' | 'tiktok' | 'spotify' | 'bandcamp' | 'soundcloud'
	url: string
}

/** The band's identity as configured by the operator: what every page shows about "who". */
export interface Band {
	name: string
	tagline: string
	logoUrl: string | null
	accent: string
	/** Black or white, whichever reads best on the accent colour. */
	onAccent: string
	contactEmail: string | null
	socials: SocialLink[]
}

function relativeLuminance(hex: string): number {
	const channels = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
	const [r, g, b] = channels.map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [
		number,
		number,
		number,
	]
	return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

/** WCAG contrast ratio of two #rrggbb colours. */
export function contrastRatio(a: string, b: string): number {
	const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number]
	return (hi + 0.05) / (lo + 0.05)
}

export function textColourOn(background: string): string {
	return contrastRatio(background, '#000000') >= contrastRatio(background, '#ffffff') ? '#000000' : '#ffffff'
}

let cached: Band | undefined

export function getBand(): Band {
	if (cached) return cached
	const env = getEnv()
	const socials: SocialLink[] = []
	const networks = {
		instagram: env.SOCIAL_INSTAGRAM,
		facebook: env.SOCIAL_FACEBOOK,
		youtube: env.SOCIAL_YOUTUBE,
		tiktok: env.SOCIAL_TIKTOK,
		spotify: env.SOCIAL_SPOTIFY,
		bandcamp: env.SOCIAL_BANDCAMP,
		soundcloud: env.SOCIAL_SOUNDCLOUD,
	} as const
	for (const [network, url] of Object.entries(networks)) {
		if (url) socials.push({ network: network as SocialLink['network'], url })
	}
	cached = {
		name: env.BAND_NAME,
		tagline: env.BAND_TAGLINE,
		logoUrl: env.BAND_LOGO_URL || null,
		accent: env.ACCENT_COLOR.toLowerCase(),
		onAccent: textColourOn(env.ACCENT_COLOR),
		contactEmail: env.CONTACT_EMAIL ?? null,
		socials,
	}
	return cached
}
