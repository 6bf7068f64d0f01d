import { useTranslation } from 'react-i18next'
import { Outlet, useRouteLoaderData } from 'react-router'
import { SiteFooter } from '#app/components/site-footer.tsx'
import { SiteHeader } from '#app/components/site-header.tsx'
import type { loader as rootLoader } from '#app/root.tsx'

/** The public site's frame: header with the band's name, footer with contact and policies. */
export default function PublicLayout() {
	const { t } = useTranslation()
	const root = useRouteLoaderData<typeof rootLoader>('root')
	if (!root) return null
	return (
		<div className="flex min-h-dvh flex-col bg-ink-950 text-ink-100">
			<a href="#contenu" className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-accent focus:px-4 focus:py-2 focus:text-on-accent">
				{t('common.skipToContent')}
			</a>
			<SiteHeader band={root.band} signedIn={Boolean(root.user)} />
			<main id="contenu" className="flex-1">
				<Outlet />
			</main>
			<SiteFooter band={root.band} />
		</div>
	)
}
