import type { ReactNode } from 'react'
import { useNavigation } from 'react-router'
import { formatDate, formatTime } from '#app/platform/time-zone.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import type { SettingsIntent } from './forms.ts'
import type { SettingsActionData } from './types.ts'

/* Small pieces the settings sections share. */

/** The last answer of the server to this form, if the last form sent was this one. */
export function resultFor(actionData: SettingsActionData, intent: SettingsIntent) {
	return actionData && actionData.intent === intent ? actionData.result : undefined
}

export function Notice(props: { type: 'success' | 'error' | 'info'; children: ReactNode }) {
	return (
		<div
			role={props.type === 'error' ? 'alert' : 'status'}
			className={
				props.type === 'error'
					? 'rounded-control border border-danger/50 bg-danger/10 px-4 py-3 text-sm font-medium'
					: props.type === 'success'
						? 'rounded-control border border-success/40 bg-success/10 px-4 py-3 text-sm'
						: 'rounded-control border border-info/40 bg-info/10 px-4 py-3 text-sm'
			}
		>
			{props.children}
		</div>
	)
}

export function IntentInput(props: { intent: SettingsIntent }) {
	return <input type="hidden" name="intent" value={props.intent} />
}

/** Whether this form is the one being sent right now. */
export function useSending(intent: SettingsIntent) {
	const navigation = useNavigation()
	return navigation.state === 'submitting' && navigation.formData?.get('intent') === intent
}

/** « dimanche 22 novembre 2026 à 15 h 45 », never broken inside the time. */
export function When(props: { value: string }) {
	const { t } = useTranslation()
	// The locale's « {{date}} à {{time}} », with the time in its own unbreakable span.
	const [before = '', after = ''] = t('common.dateAtTime', { date: formatDate(props.value), time: TIME_SLOT }).split(TIME_SLOT)
	return (
		<time dateTime={props.value}>
			{before}
			<span className="whitespace-nowrap">{formatTime(props.value)}</span>
			{after}
		</time>
	)
}

/** Where the time goes in the sentence: a character no translation holds. */
const TIME_SLOT = '\u0000'
