import { useFetcher } from 'react-router'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import type { SubscriberStatus } from '#app/platform/db/schema.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { useNewsletterLabels } from './labels.ts'

/**
 * The member's newsletter toggle: it reads and writes the very subscriber record of their address,
 * so the settings, /unsubscribe and the admin's list always agree. Works without JavaScript (a
 * plain form post, then back here).
 */
export function NewsletterSetting(props: {
	status: SubscriberStatus | null
	/** The dashboard's home shows it too, and the toggle comes back there. */
	back?: '/dashboard'
	headingLevel?: 'h2' | 'h3'
}) {
	const { t } = useTranslation()
	const labels = useNewsletterLabels()
	const fetcher = useFetcher({ key: 'newsletter-setting' })
	// While the switch is on its way, show where it is going.
	const pending = fetcher.formData?.get('subscribe')
	const status: SubscriberStatus | null = pending === 'on' ? 'active' : pending === 'off' ? 'unsubscribed' : props.status
	const on = status === 'active' || status === 'pending'
	const tone = status === 'active' ? 'success' : status === 'pending' ? 'warning' : status === 'bounced' ? 'danger' : 'neutral'
	return (
		<Card as="section" id="newsletter" aria-labelledby="newsletter-titre" className="scroll-mt-6">
			<div className="grid gap-x-10 gap-y-5 lg:grid-cols-[minmax(0,17rem)_minmax(0,1fr)]">
				<div>
					<CardTitle as={props.headingLevel ?? 'h2'} id="newsletter-titre">
						{t('newsletter.setting.title')}
					</CardTitle>
					<p className="mt-1.5 text-sm text-muted">{t('newsletter.setting.description')}</p>
				</div>
				<fetcher.Form method="post" action="/dashboard/settings/newsletter" className="flex max-w-md flex-col items-start gap-3">
					<p className="flex flex-wrap items-center gap-2 text-sm">
						{t('newsletter.setting.status')} <Badge tone={tone}>{labels.status(status)}</Badge>
					</p>
					<p className="text-sm text-muted">{labels.explain(status)}</p>
					<input type="hidden" name="subscribe" value={on ? 'off' : 'on'} />
					{props.back ? <input type="hidden" name="back" value={props.back} /> : null}
					<Button type="submit" variant={on ? 'secondary' : 'primary'} disabled={fetcher.state !== 'idle'}>
						{on ? t('newsletter.setting.turnOff') : t('newsletter.setting.turnOn')}
					</Button>
				</fetcher.Form>
			</div>
		</Card>
	)
}
