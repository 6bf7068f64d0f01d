import { NavTabs } from '#app/components/ui/tabs.tsx'
import { useTranslation } from '#app/i18n/react.tsx'

/** The newsletter's two admin pages: campaigns and subscribers. */
export function NewsletterNav() {
	const { t } = useTranslation()
	return (
		<NavTabs
			label={t('newsletter.admin.nav.label')}
			items={[
				{ to: '/dashboard/admin/newsletter', label: t('newsletter.admin.nav.campaigns'), end: true },
				{ to: '/dashboard/admin/newsletter/subscribers', label: t('newsletter.admin.nav.subscribers') },
			]}
		/>
	)
}
