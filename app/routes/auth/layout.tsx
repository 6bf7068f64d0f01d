import { Link, Outlet, useRouteLoaderData } from 'react-router'
import { Logo } from '#app/components/logo.tsx'
import { FollowSession } from '#app/components/follow-session.tsx'
import { SkipLink } from '#app/components/skip-link.tsx'
import { usePageHydrates } from '#app/hydration.ts'
import type { loader as rootLoader } from '#app/root.tsx'
import { routeStrings } from '#app/i18n/route-strings.ts'

/** The strings this screen needs in the browser (app/i18n/route-strings.ts). */
export const handle = routeStrings('auth.fields', 'auth.validation')

/** The account area's shell: the logo, then one card. Each child route guards itself. */
export default function AuthLayout() {
	const root = useRouteLoaderData<typeof rootLoader>('root')
	const band = root?.band
	const hydrates = usePageHydrates()
	return (
		<div className="poster-backdrop flex min-h-dvh flex-col text-fg">
			<SkipLink />
			<header className="flex justify-center px-gutter pt-8 pb-6 sm:pt-12 sm:pb-8">
				<Link to="/" className="flex min-h-11 items-center gap-3 rounded-control">
					<Logo name={band?.name ?? ''} logoUrl={band?.logoUrl ?? null} decorative className="size-11 sm:size-12" />
					<span className="font-display text-2xl tracking-display uppercase sm:text-3xl">{band?.name}</span>
				</Link>
			</header>
			<main id="contenu" className="flex flex-1 justify-center px-3 pb-16 sm:px-gutter">
				<div className="h-fit w-full max-w-md rounded-card border border-line bg-surface/95 p-5 shadow-pop sm:p-8">
					<Outlet />
				</div>
			</main>
			{/* A sign-in or sign-out in another tab reloads this page (without React, the session machine is not here). */}
			{hydrates ? null : <FollowSession userId={root?.user?.id ?? ''} />}
		</div>
	)
}
