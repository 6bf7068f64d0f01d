/** One of the band's networks, as the footer and the home page link to it. */
export interface SocialLink {
	network: 'instagram' | 'facebook' | 'youtube' | 'tiktok' | 'spotify' | 'bandcamp' | 'soundcloud'
	url: string
}
