import { NavTabs } from '#app/components/ui/tabs.tsx'
import { useTranslation } from '#app/i18n/react.tsx'

export const CAMPAIGNS_PATH = '/dashboard/admin/newsletter'
export const SUBSCRIBERS_PATH = '/dashboard/admin/newsletter/subscribers'

/** The newsletter's two admin pages: campaigns and subscribers. */
export function NewsletterNav() {
	const { t } = useTranslation()
	return (
		<NavTabs
			label={t('newsletter.admin.nav.label')}
			items={[
				{ to: CAMPAIGNS_PATH, label: t('newsletter.admin.nav.campaigns'), end: true },
				{ to: SUBSCRIBERS_PATH, label: t('newsletter.admin.nav.subscribers') },
			]}
		/>
	)
}
