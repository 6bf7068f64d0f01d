import { Badge } from '#app/components/ui/badge.tsx'
import { useTranslation } from '#app/i18n/react.tsx'
import { EVENT_STATUS_TONES, type EventStatus } from './status.tsx'

/*
 * An event's status in the admin's lists and editor: every status has its word, « Programmé »
 * included. Apart from the public badge (./status.tsx), so that public pages, which import that
 * one, need none of the admin's strings.
 */

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

/**
 * The admin's badge: every status, « Programmé » included. A list of many rows works the words out
 * once (useEventStatusLabels) and hands them to each row's badge as `labels`.
 */
export function EventStatusTag(props: { status: EventStatus; labels?: Record<EventStatus, string> }) {
	return props.labels ? <StatusBadge status={props.status} labels={props.labels} /> : <OwnLabels status={props.status} />
}

function OwnLabels(props: { status: EventStatus }) {
	return <StatusBadge status={props.status} labels={useEventStatusLabels()} />
}

function StatusBadge(props: { status: EventStatus; labels: Record<EventStatus, string> }) {
	return <Badge tone={EVENT_STATUS_TONES[props.status] ?? 'neutral'}>{props.labels[props.status] ?? props.status}</Badge>
}
