import { useTranslation } from '#app/i18n/react.tsx'
import { Link } from 'react-router'
import type { SocialLink } from '#app/features/site/social-links.ts'

const networkNames: Record<SocialLink['network'], string> = {
	instagram: 'Instagram',
	facebook: 'Facebook',
	youtube: 'YouTube',
	tiktok: 'TikTok',
	spotify: 'Spotify',
	bandcamp: 'Bandcamp',
	soundcloud: 'SoundCloud',
}

const footerLink =
	'inline-flex min-h-11 items-center rounded-control text-fg underline-offset-[0.22em] hover:text-accent-fg hover:underline'

export function SocialLinks(props: { socials: SocialLink[]; className?: string; linkClassName?: string }) {
	const { t } = useTranslation()
	if (props.socials.length === 0) return null
	return (
		<ul className={props.className} aria-label={t('site.footer.socials')}>
			{props.socials.map((social) => (
				<li key={social.network}>
					<a href={social.url} rel="me noopener" className={props.linkClassName ?? footerLink}>
						{networkNames[social.network]}
					</a>
				</li>
			))}
		</ul>
	)
}

/** The poster's bottom strip: the name once more, contact and policies, the band's networks. */
export function SiteFooter(props: { band: { name: string; contactEmail: string | null; socials: SocialLink[] } }) {
	const { t } = useTranslation()
	// The copyright year is the year of the render, on purpose (server and browser agree but on New Year's Eve).
	// oxlint-disable-next-line react/purity
	const year = new Date().getFullYear()
	return (
		<footer className="border-t border-line bg-canvas text-fg">
			<div className="mx-auto grid max-w-page gap-10 px-gutter pt-12 pb-8 sm:pt-16 md:grid-cols-[1.4fr_1fr_1fr]">
				<p className="font-display text-headline tracking-display uppercase">{props.band.name}</p>
				<nav aria-labelledby="pied-infos">
					<h2 id="pied-infos" className="eyebrow text-muted">
						{t('site.footer.navLabel')}
					</h2>
					<ul className="mt-3 flex flex-col">
						<li>
							<Link to="/contact" className={footerLink}>
								{t('site.footer.contact')}
							</Link>
						</li>
						<li>
							<Link to="/policies/privacy" className={footerLink}>
								{t('site.footer.privacy')}
							</Link>
						</li>
						<li>
							<Link to="/policies/cookies" className={footerLink}>
								{t('site.footer.cookies')}
							</Link>
						</li>
					</ul>
				</nav>
				{props.band.socials.length > 0 ? (
					<div>
						<h2 className="eyebrow text-muted">{t('site.footer.socialsTitle')}</h2>
						<SocialLinks socials={props.band.socials} className="mt-3 flex flex-col" />
					</div>
				) : null}
			</div>
			<div className="mx-auto max-w-page px-gutter">
				<p className="border-t border-line py-6 text-sm text-muted">{t('site.footer.copyright', { year, name: props.band.name })}</p>
			</div>
		</footer>
	)
}
