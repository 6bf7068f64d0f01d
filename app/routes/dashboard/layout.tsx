import { clsx } from 'clsx'
import { LayoutDashboard, LogOut, ShieldCheck } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Form, Link, NavLink, Outlet } from 'react-router'
import type { Route } from './+types/layout'
import { Logo } from '#app/components/logo.tsx'
import { getBand } from '#app/features/site/band.server.ts'
import { requireUser } from '#app/features/accounts/session.server.ts'

export async function loader({ request }: Route.LoaderArgs) {
	const user = await requireUser(request)
	const band = getBand()
	return { user: { name: user.name, role: user.role }, band: { name: band.name, logoUrl: band.logoUrl } }
}

/** The signed-in shell: navigation, the member's name, sign-out. Calm and dense, light or dark. */
export default function DashboardLayout({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation()
	const { user, band } = loaderData
	const links = [
		{ to: '/dashboard', label: t('dashboard.nav.home'), icon: LayoutDashboard, end: true },
		...(user.role === 'admin' ? [{ to: '/dashboard/admin', label: t('dashboard.nav.admin'), icon: ShieldCheck, end: false }] : []),
	]
	return (
		<div className="dashboard min-h-dvh">
			<a href="#contenu" className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-accent focus:px-4 focus:py-2 focus:text-on-accent">
				{t('common.skipToContent')}
			</a>
			<header className="border-b border-current/10">
				<div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
					<Link to="/" className="flex items-center gap-2 rounded font-semibold">
						<Logo name={band.name} logoUrl={band.logoUrl} decorative className="size-8" />
						<span>{band.name}</span>
					</Link>
					<nav aria-label={t('dashboard.nav.label')} className="order-3 w-full sm:order-none sm:w-auto">
						<ul className="flex gap-1">
							{links.map((link) => (
								<li key={link.to}>
									<NavLink
										to={link.to}
										end={link.end}
										className={({ isActive }) =>
											clsx(
												'inline-flex min-h-10 items-center gap-2 rounded-md px-3 text-sm font-medium',
												isActive ? 'bg-current/10' : 'opacity-80 hover:opacity-100',
											)
										}
									>
										<link.icon aria-hidden="true" className="size-4" />
										{link.label}
									</NavLink>
								</li>
							))}
						</ul>
					</nav>
					<div className="ml-auto flex items-center gap-3">
						<span className="hidden text-sm opacity-80 sm:inline">{user.name}</span>
						<Form method="post" action="/auth/signout">
							<button type="submit" className="inline-flex min-h-10 items-center gap-2 rounded-md px-3 text-sm font-medium hover:bg-current/10">
								<LogOut aria-hidden="true" className="size-4" />
								{t('dashboard.signOut')}
							</button>
						</Form>
					</div>
				</div>
			</header>
			<main id="contenu" className="mx-auto max-w-6xl px-4 py-8">
				<Outlet />
			</main>
		</div>
	)
}
