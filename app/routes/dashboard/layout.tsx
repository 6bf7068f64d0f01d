import { clsx } from 'clsx'
import { LayoutDashboard, LogOut, Settings, ShieldCheck } from '#app/components/icons.tsx'
import { useTranslation } from '#app/i18n/react.tsx'
import { Form, Link, Outlet } from 'react-router'
import { NavLink } from '#app/components/nav-link.tsx'
import type { Route } from './+types/layout'
import { Logo } from '#app/components/logo.tsx'
import { ResponsiveImage } from '#app/components/responsive-image.tsx'
import { SkipLink } from '#app/components/skip-link.tsx'
import { buttonClasses } from '#app/components/ui/button.tsx'
import { getBand } from '#app/features/site/band.server.ts'
import { requireUser } from '#app/features/accounts/session.server.ts'
import { memberAvatar } from '#app/features/media/media.server.ts'
import { getDb } from '#app/platform/platform.server.ts'
import dashboardStylesheet from '#app/styles/dashboard.css?url'
import { routeStrings } from '#app/i18n/route-strings.ts'
import { hydrated } from '#app/hydration.ts'

/** The strings this screen needs in the browser (app/i18n/route-strings.ts), and React there (app/hydration.ts). */
export const handle = hydrated(routeStrings('dashboard'))

export async function loader({ request }: Route.LoaderArgs) {
	const user = await requireUser(request)
	const band = getBand()
	return {
		user: { name: user.name, role: user.role, email: user.email, emailVerified: user.emailVerified },
		band: { name: band.name, logoUrl: band.logoUrl },
		avatar: await memberAvatar(await getDb(), user.id),
	}
}

/** The signed-in shell: navigation, the member's name, sign-out. Calm and dense, light or dark. */
export default function DashboardLayout({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation()
	const { user, band, avatar } = loaderData
	const links = [
		{ to: '/dashboard', label: t('dashboard.nav.home'), icon: LayoutDashboard, end: true },
		{ to: '/dashboard/settings', label: t('dashboard.nav.settings'), icon: Settings, end: false },
		...(user.role === 'admin' ? [{ to: '/dashboard/admin', label: t('dashboard.nav.admin'), icon: ShieldCheck, end: false }] : []),
	]
	return (
		<div className="dashboard min-h-dvh bg-canvas text-fg">
			{/*
			 * The whole site's sheet, after the public one the root already put in <head> (React hoists
			 * it there, once, and keeps it on the way back to a public page).
			 */}
			<link rel="stylesheet" href={dashboardStylesheet} precedence="default" />
			<SkipLink />
			<header className="border-b border-line bg-surface">
				<div className="mx-auto flex max-w-page flex-wrap items-center gap-x-6 px-gutter">
					<Link to="/" className="flex min-h-14 min-w-0 items-center gap-2.5 rounded-control">
						<Logo name={band.name} logoUrl={band.logoUrl} decorative className="size-8" />
						<span className="truncate font-display text-lg tracking-display uppercase">{band.name}</span>
					</Link>
					<nav
						aria-label={t('dashboard.nav.label')}
						className="order-3 -mx-gutter w-[calc(100%_+_2*var(--spacing-gutter))] border-t border-line px-gutter sm:order-none sm:mx-0 sm:w-auto sm:border-0 sm:px-0"
					>
						<ul className="grid auto-cols-fr grid-flow-col gap-1 py-1.5 sm:flex">
							{links.map((link) => (
								<li key={link.to}>
									<NavLink
										to={link.to}
										end={link.end}
										className={({ isActive }) =>
											clsx(
												// On a phone: equal columns, icon over a small label; from sm: a row of pills.
												'flex min-h-11 flex-col items-center justify-center gap-0.5 rounded-control px-2 text-xs font-medium whitespace-nowrap transition-colors duration-150',
												'sm:flex-row sm:gap-2 sm:px-3 sm:text-sm',
												isActive ? 'bg-raised text-fg' : 'text-muted hover:bg-raised/60 hover:text-fg',
											)
										}
									>
										<link.icon aria-hidden="true" className="size-4 shrink-0" />
										{link.label}
									</NavLink>
								</li>
							))}
						</ul>
					</nav>
					<div className="ml-auto flex items-center gap-3">
						{avatar ? <ResponsiveImage image={avatar} sizes="2rem" alt="" className="size-8 rounded-full object-cover" /> : null}
						<span className="hidden max-w-48 truncate text-sm text-muted md:inline">{user.name}</span>
						<Form method="post" action="/auth/signout">
							<button type="submit" className={buttonClasses('ghost', 'sm', 'min-h-11 text-muted hover:text-fg')}>
								<LogOut aria-hidden="true" />
								{t('dashboard.signOut')}
							</button>
						</Form>
					</div>
				</div>
			</header>
			{user.emailVerified ? null : <VerifyEmailBanner email={user.email} />}
			<main id="contenu" className="mx-auto max-w-page px-gutter py-8 sm:py-10">
				<Outlet />
			</main>
		</div>
	)
}

/** Shown until the member confirms their address; the link can be sent again (limited per hour). */
function VerifyEmailBanner(props: { email: string }) {
	const { t } = useTranslation()
	return (
		<aside aria-label={t('dashboard.verify.title')} className="block border-b border-line bg-raised">
			{/* Stacked on a phone; a long address breaks anywhere rather than running under the button. */}
			<div className="mx-auto flex max-w-page flex-col items-start gap-x-6 gap-y-3 px-gutter py-3 sm:flex-row sm:items-center">
				<p className="min-w-0 flex-1 text-sm [overflow-wrap:anywhere]">
					<strong className="font-semibold">{t('dashboard.verify.title')}</strong>{' '}
					<span className="text-muted">{t('dashboard.verify.body', { email: props.email })}</span>
				</p>
				<Form method="post" action="/auth/resend-verification" className="shrink-0">
					<button type="submit" className={buttonClasses('secondary', 'sm', 'min-h-11')}>
						{t('dashboard.verify.resend')}
					</button>
				</Form>
			</div>
		</aside>
	)
}
