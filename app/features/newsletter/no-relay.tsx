import { useTranslation } from '#app/i18n/react.tsx'

/** Why a send, a schedule or a test was refused: no SMTP relay is configured, and what to set. */
export function NoRelay({ id, intent }: { id: string; intent: 'send' | 'schedule' | 'test' }) {
	const { t } = useTranslation()
	return (
		<p id={id} role="alert" className="w-full rounded-control border border-danger/40 bg-danger/10 px-4 py-3 text-sm text-danger">
			{intent === 'send'
				? t('newsletter.admin.compose.noRelay.send')
				: intent === 'schedule'
					? t('newsletter.admin.compose.noRelay.schedule')
					: t('newsletter.admin.compose.noRelay.test')}
		</p>
	)
}
