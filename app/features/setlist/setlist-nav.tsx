import { NavTabs } from '#app/components/ui/tabs.tsx'
import { useTranslation } from '#app/i18n/react.tsx'

/** The setlist area's two halves: the setlists and the song library they are built from. */
export function SetlistNav() {
	const { t } = useTranslation()
	return (
		<NavTabs
			label={t('setlist.nav.label')}
			className="mb-6"
			items={[
				{ to: '/dashboard/admin/setlist', label: t('setlist.nav.setlists'), end: true },
				{ to: '/dashboard/admin/setlist/songs', label: t('setlist.nav.songs') },
			]}
		/>
	)
}
