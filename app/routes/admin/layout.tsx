import { useTranslation } from '#app/i18n/react.tsx'
import { Outlet } from 'react-router'
import type { Route } from './+types/layout'
import { NavTabs } from '#app/components/ui/tabs.tsx'
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import { routeStrings } from '#app/i18n/route-strings.ts'

/** The strings this screen needs in the browser (app/i18n/route-strings.ts). */
export const handle = routeStrings('admin.nav')

/**
 * The admin container's check, before any loader or action of the screens inside it runs (a
 * middleware, not a loader: it guards their actions too, and adds no loader data to each page).
 * It is not the only one: every admin loader and action checks again.
 */
export const middleware: Route.MiddlewareFunction[] = [
	async ({ request }) => {
		await requireAdmin(request)
	},
]

export default function AdminLayout() {
	const { t } = useTranslation()
	return (
		<div>
			<p className="eyebrow mb-1.5 text-accent-fg">{t('admin.nav.title')}</p>
			<NavTabs
				label={t('admin.nav.label')}
				className="mb-6"
				items={[
					{ to: '/dashboard/admin/stats', label: t('admin.nav.stats') },
					{ to: '/dashboard/admin/messages', label: t('admin.nav.messages') },
					{ to: '/dashboard/admin/events', label: t('admin.nav.events') },
					{ to: '/dashboard/admin/setlist', label: t('admin.nav.setlist') },
					{ to: '/dashboard/admin/codes', label: t('admin.nav.codes') },
					{ to: '/dashboard/admin/newsletter', label: t('admin.nav.newsletter') },
				]}
			/>
			<Outlet />
		</div>
	)
}
