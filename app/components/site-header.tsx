import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Logo } from './logo.tsx'

export function SiteHeader(props: { band: { name: string; logoUrl: string | null }; signedIn: boolean }) {
	const { t } = useTranslation()
	return (
		<header className="absolute inset-x-0 top-0 z-20">
			<div className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-4 sm:px-6">
				<Link to="/" className="flex items-center gap-3 rounded">
					<Logo name={props.band.name} logoUrl={props.band.logoUrl} decorative className="size-10" />
					<span className="font-display text-2xl uppercase tracking-wide">{props.band.name}</span>
				</Link>
				<nav aria-label={t('site.nav.label')}>
					<Link
						to={props.signedIn ? '/dashboard' : '/auth/signin'}
						className="inline-flex min-h-11 items-center rounded-full border border-ink-100/40 px-5 text-sm font-semibold hover:border-ink-100"
					>
						{props.signedIn ? t('site.nav.myAccount') : t('site.nav.signIn')}
					</Link>
				</nav>
			</div>
		</header>
	)
}
