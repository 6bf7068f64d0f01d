import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import type { SocialLink } from '#app/features/site/band.server.ts'

const networkNames: Record<SocialLink['network'], string> = {
	instagram: 'Instagram',
	facebook: 'Facebook',
	youtube: 'YouTube',
	tiktok: 'TikTok',
	spotify: 'Spotify',
	bandcamp: 'Bandcamp',
	soundcloud: 'SoundCloud',
}

export function SocialLinks(props: { socials: SocialLink[]; className?: string }) {
	const { t } = useTranslation()
	if (props.socials.length === 0) return null
	return (
		<ul className={props.className} aria-label={t('site.footer.socials')}>
			{props.socials.map((social) => (
				<li key={social.network}>
					<a href={social.url} rel="me noopener" className="inline-flex min-h-11 items-center font-semibold underline-offset-4 hover:underline">
						{networkNames[social.network]}
					</a>
				</li>
			))}
		</ul>
	)
}

export function SiteFooter(props: { band: { name: string; contactEmail: string | null; socials: SocialLink[] } }) {
	const { t } = useTranslation()
	const year = new Date().getFullYear()
	return (
		<footer className="border-t border-ink-800 bg-ink-950">
			<div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:grid-cols-3 sm:px-6">
				<div>
					<p className="font-display text-2xl uppercase tracking-wide">{props.band.name}</p>
					<p className="mt-2 text-sm text-ink-300">{t('site.footer.copyright', { year, name: props.band.name })}</p>
				</div>
				<nav aria-label={t('site.footer.navLabel')}>
					<ul className="flex flex-col gap-1 text-sm">
						<li>
							<Link to="/contact" className="inline-flex min-h-11 items-center underline-offset-4 hover:underline">
								{t('site.footer.contact')}
							</Link>
						</li>
						<li>
							<Link to="/policies/privacy" className="inline-flex min-h-11 items-center underline-offset-4 hover:underline">
								{t('site.footer.privacy')}
							</Link>
						</li>
						<li>
							<Link to="/policies/cookies" className="inline-flex min-h-11 items-center underline-offset-4 hover:underline">
								{t('site.footer.cookies')}
							</Link>
						</li>
					</ul>
				</nav>
				<SocialLinks socials={props.band.socials} className="flex flex-col gap-1 text-sm" />
			</div>
		</footer>
	)
}
