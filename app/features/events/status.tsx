import { Badge, type BadgeTone } from '#app/components/ui/badge.tsx'
import { useTranslation } from '#app/i18n/react.tsx'
import { EVENT_STATUSES, type EventStatus } from '#app/platform/db/event-status.ts'

/*
 * An event's status as people see it: one word and one colour per status, for the admin's lists
 * and editor and for the public pages' badges.
 */

export { EVENT_STATUSES, type EventStatus }

export const EVENT_STATUS_TONES: Record<EventStatus, BadgeTone> = {
	scheduled: 'success',
	sold_out: 'accent',
	postponed: 'warning',
	cancelled: 'danger',
}

/** The statuses' words, written out per status so that every key stays visible to the i18n check. */
export function useEventStatusLabels(): Record<EventStatus, string> {
	const { t } = useTranslation()
	return {
		scheduled: t('admin.events.status.scheduled'),
		sold_out: t('admin.events.status.sold_out'),
		postponed: t('admin.events.status.postponed'),
		cancelled: t('admin.events.status.cancelled'),
	}
}

/** The admin's badge: every status, « Programmé » included. */
export function EventStatusTag(props: { status: EventStatus }) {
	const labels = useEventStatusLabels()
	return <Badge tone={EVENT_STATUS_TONES[props.status] ?? 'neutral'}>{labels[props.status] ?? props.status}</Badge>
}

/** The public badge: « Complet », « Reporté », « Annulé »; nothing for a show that goes ahead as planned. */
export function EventStatusBadge(props: { status: EventStatus; className?: string }) {
	const { t } = useTranslation()
	const label =
		props.status === 'sold_out'
			? t('events.status.soldOut')
			: props.status === 'postponed'
				? t('events.status.postponed')
				: props.status === 'cancelled'
					? t('events.status.cancelled')
					: null
	if (!label) return null
	return (
		<Badge tone={EVENT_STATUS_TONES[props.status]} className={props.className}>
			{label}
		</Badge>
	)
}
