import { Outlet, useRouteLoaderData } from 'react-router'
import { SiteFooter } from '#app/components/site-footer.tsx'
import { SiteHeader } from '#app/components/site-header.tsx'
import { FollowSession } from '#app/components/follow-session.tsx'
import { SkipLink } from '#app/components/skip-link.tsx'
import { usePageHydrates } from '#app/hydration.ts'
import type { loader as rootLoader } from '#app/root.tsx'
import { routeStrings } from '#app/i18n/route-strings.ts'

/** The strings this screen needs in the browser (app/i18n/route-strings.ts). */
export const handle = routeStrings('site')

/** The public site's frame: header with the band's name, footer with contact and policies. */
export default function PublicLayout() {
	const root = useRouteLoaderData<typeof rootLoader>('root')
	const hydrates = usePageHydrates()
	if (!root) return null
	return (
		<div className="flex min-h-dvh flex-col bg-canvas text-fg">
			<SkipLink />
			<SiteHeader band={root.band} signedIn={Boolean(root.user)} />
			<main id="contenu" className="flex-1">
				<Outlet />
			</main>
			<SiteFooter band={root.band} />
			{/* A signed-in visitor's page (never the cached copy) follows a sign-out in another tab. */}
			{root.user && !hydrates ? <FollowSession userId={root.user.id} /> : null}
		</div>
	)
}
