import { Outlet } from 'react-router'
import { NavLink } from '#app/components/nav-link.tsx'
import { clsx } from 'clsx'
import { useTranslation } from '#app/i18n/react.tsx'
import { routeStrings } from '#app/i18n/route-strings.ts'

/** The strings this screen needs in the browser (app/i18n/route-strings.ts). */
export const handle = routeStrings('policies')

/** The policies: a page of their own, with a small navigation between the texts. */
export default function Policies() {
	const { t } = useTranslation()
	const links = [
		{ to: '/policies/privacy', label: t('policies.nav.privacy') },
		{ to: '/policies/cookies', label: t('policies.nav.cookies') },
	]
	return (
		<div className="mx-auto max-w-page px-gutter pt-28 pb-20 sm:pt-32">
			<nav aria-label={t('policies.nav.label')} className="mb-10">
				<ul className="flex flex-wrap gap-2">
					{links.map((link) => (
						<li key={link.to}>
							<NavLink
								to={link.to}
								className={({ isActive }) =>
									clsx(
										'inline-flex min-h-11 items-center rounded-control border px-4 text-sm font-semibold',
										isActive ? 'border-accent bg-accent text-on-accent' : 'border-line-strong text-fg hover:border-fg',
									)
								}
							>
								{link.label}
							</NavLink>
						</li>
					))}
				</ul>
			</nav>
			<Outlet />
		</div>
	)
}
