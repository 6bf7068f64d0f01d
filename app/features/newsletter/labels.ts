import type { CampaignStatus, SubscriberSource, SubscriberStatus } from '#app/platform/db/schema.ts'
import { useTranslation } from '#app/i18n/react.tsx'

/** The newsletter's words for each state, written out per value so that every key stays visible to the i18n check. */
export function useNewsletterLabels() {
	const { t } = useTranslation()
	const status: Record<SubscriberStatus | 'none', string> = {
		none: t('newsletter.status.none'),
		pending: t('newsletter.status.pending'),
		active: t('newsletter.status.active'),
		unsubscribed: t('newsletter.status.unsubscribed'),
		bounced: t('newsletter.status.bounced'),
	}
	const explain: Record<SubscriberStatus | 'none', string> = {
		none: t('newsletter.setting.explain.none'),
		pending: t('newsletter.setting.explain.pending'),
		active: t('newsletter.setting.explain.active'),
		unsubscribed: t('newsletter.setting.explain.unsubscribed'),
		bounced: t('newsletter.setting.explain.bounced'),
	}
	const campaign: Record<CampaignStatus, string> = {
		draft: t('newsletter.admin.campaignStatus.draft'),
		scheduled: t('newsletter.admin.campaignStatus.scheduled'),
		sending: t('newsletter.admin.campaignStatus.sending'),
		sent: t('newsletter.admin.campaignStatus.sent'),
		cancelled: t('newsletter.admin.campaignStatus.cancelled'),
	}
	const source: Record<SubscriberSource, string> = {
		landing: t('newsletter.admin.sources.landing'),
		signup: t('newsletter.admin.sources.signup'),
		settings: t('newsletter.admin.sources.settings'),
		admin: t('newsletter.admin.sources.admin'),
		import: t('newsletter.admin.sources.import'),
		resubscribe: t('newsletter.admin.sources.resubscribe'),
	}
	return {
		status: (value: SubscriberStatus | null) => status[value ?? 'none'],
		explain: (value: SubscriberStatus | null) => explain[value ?? 'none'],
		campaign: (value: string) => campaign[value as CampaignStatus] ?? value,
		source: (value: string) => source[value as SubscriberSource] ?? value,
	}
}
