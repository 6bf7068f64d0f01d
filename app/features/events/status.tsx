import { Badge, type BadgeTone } from '#app/components/ui/badge.tsx'
import { useTranslation } from '#app/i18n/react.tsx'
import { EVENT_STATUSES, type EventStatus } from '#app/platform/db/event-status.ts'

/*
 * An event's status as people see it: one colour per status, and the public pages' badge. The
 * admin's words for every status are in ./status-tag.tsx.
 */

export { EVENT_STATUSES, type EventStatus }

export const EVENT_STATUS_TONES: Record<EventStatus, BadgeTone> = {
	scheduled: 'success',
	sold_out: 'accent',
	postponed: 'warning',
	cancelled: 'danger',
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
