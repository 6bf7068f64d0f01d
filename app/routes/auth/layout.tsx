import { useTranslation } from 'react-i18next'
import { Link, Outlet, useRouteLoaderData } from 'react-router'
import { Logo } from '#app/components/logo.tsx'
import type { loader as rootLoader } from '#app/root.tsx'

/** The account area's shell: the logo, then one card. Each child route guards itself. */
export default function AuthLayout() {
	const { t } = useTranslation()
	const root = useRouteLoaderData<typeof rootLoader>('root')
	const band = root?.band
	return (
		<div className="flex min-h-dvh flex-col bg-ink-950 text-ink-100">
			<a href="#contenu" className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-accent focus:px-4 focus:py-2 focus:text-on-accent">
				{t('common.skipToContent')}
			</a>
			<header className="flex justify-center px-6 pt-10 pb-6">
				<Link to="/" className="flex items-center gap-3 rounded" aria-label={t('common.backToHomeOf', { name: band?.name })}>
					<Logo name={band?.name ?? ''} logoUrl={band?.logoUrl ?? null} decorative className="size-12" />
					<span className="font-display text-3xl uppercase tracking-wide">{band?.name}</span>
				</Link>
			</header>
			<main id="contenu" className="flex flex-1 justify-center px-4 pb-16">
				<div className="w-full max-w-md rounded-2xl border border-ink-700 bg-ink-900 p-6 shadow-2xl sm:p-8">
					<Outlet />
				</div>
			</main>
		</div>
	)
}
