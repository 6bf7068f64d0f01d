import { textColourOn } from '#app/platform/colour.ts'
import { getEnv } from '#app/platform/env.server.ts'
import type { SocialLink } from './social-links.ts'

export type { SocialLink }

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

export { textColourOn }

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

/** « Se connecter · Le Groupe »: a page's title followed by the band's name, for tabs and shares. */
export function pageTitle(title: string): string {
	return `${title} · ${getBand().name}`
}
