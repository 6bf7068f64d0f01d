import { useTranslation } from '#app/i18n/react.tsx'
import { Outlet } from 'react-router'
import type { Route } from './+types/layout'
import { NavTabs } from '#app/components/ui/tabs.tsx'
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import { routeStrings } from '#app/i18n/route-strings.ts'

/** The strings this screen needs in the browser (app/i18n/route-strings.ts). */
export const handle = routeStrings('admin.nav')

/** The admin container. Its own check is not enough: every admin loader and action checks again. */
export async function loader({ request }: Route.LoaderArgs) {
	await requireAdmin(request)
	return null
}

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
