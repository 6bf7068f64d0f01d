import { Form, useFetcher, useNavigation } from 'react-router'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import type { SubscriberStatus } from '#app/platform/db/schema.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { useNewsletterLabels } from './labels.ts'
import { TownField } from '#app/features/towns/town-field.tsx'
import type { TownProblem } from '#app/features/towns/rules.ts'

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
	/** The settings show the member's town too (kept on this same record): its label, or what was refused. */
	town?: { label: string | null; problem: TownProblem | null; typed: string | null }
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
				{props.town ? <MemberTown {...props.town} subscribed={props.status !== null} /> : null}
			</div>
		</Card>
	)
}

/** The member's town: a plain form posted to the settings page (errors come back next to the field). */
function MemberTown(props: { label: string | null; problem: TownProblem | null; typed: string | null; subscribed: boolean }) {
	const { t } = useTranslation()
	const navigation = useNavigation()
	if (!props.subscribed) {
		return (
			<p id="ville" className="text-sm text-muted lg:col-start-2">
				{t('newsletter.setting.town.needsSubscription')}
			</p>
		)
	}
	return (
		<Form method="post" action="/dashboard/settings#ville" id="ville" className="flex max-w-md scroll-mt-6 flex-col gap-3 lg:col-start-2">
			<input type="hidden" name="intent" value="town" />
			<p className="text-sm">
				{props.label ? t('newsletter.setting.town.current', { town: props.label }) : t('newsletter.setting.town.none')}
			</p>
			<TownField
				key={props.typed ?? props.label ?? ''}
				defaultValue={props.typed ?? props.label}
				problem={props.problem}
				label={t('newsletter.setting.town.title')}
			/>
			<div className="flex flex-wrap gap-3">
				<Button type="submit" name="townIntent" value="save" disabled={navigation.state !== 'idle'}>
					{t('newsletter.setting.town.save')}
				</Button>
				{props.label ? (
					<Button type="submit" name="townIntent" value="remove" variant="secondary" disabled={navigation.state !== 'idle'}>
						{t('newsletter.setting.town.remove')}
					</Button>
				) : null}
			</div>
		</Form>
	)
}
