import { clsx } from 'clsx'
import { useTranslation } from '#app/i18n/react.tsx'
import { Link } from 'react-router'
import { Logo } from './logo.tsx'
import { buttonClasses } from './ui/button.tsx'

/** The public header: the band's mark on the left, the way into the account area on the right. */
export function SiteHeader(props: { band: { name: string; logoUrl: string | null }; signedIn: boolean }) {
	const { t } = useTranslation()
	return (
		<header className="absolute inset-x-0 top-0 z-20">
			<div className="mx-auto flex max-w-page items-center justify-between gap-4 px-gutter py-4 sm:py-5">
				<Link to="/" className="group flex min-h-11 min-w-0 items-center gap-3 rounded-control">
					<Logo name={props.band.name} logoUrl={props.band.logoUrl} decorative className="size-10 sm:size-11" />
					<span
						className={clsx(
							'truncate font-display text-xl tracking-display text-fg uppercase sm:text-2xl',
							// A long name would be cut on a small phone: the logo alone says it there.
							props.band.name.length > 12 && 'max-[419px]:sr-only',
						)}
					>
						{props.band.name}
					</span>
				</Link>
				<nav aria-label={t('site.nav.label')}>
					<Link
						to={props.signedIn ? '/dashboard' : '/auth/signin'}
						// A tinted ground, not a blurred one: backdrop-filter made the compositor blur what lay
						// behind the button again for every frame drawn during the load, on the phone's CPU
						// (docs/decisions/0032-cheap-first-paint.md).
						className={buttonClasses('secondary', 'md')}
					>
						{props.signedIn ? t('site.nav.myAccount') : t('site.nav.signIn')}
					</Link>
				</nav>
			</div>
		</header>
	)
}
