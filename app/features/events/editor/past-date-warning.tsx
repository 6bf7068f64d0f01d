import { AlertTriangle } from '#app/components/icons.tsx'
import { parisWallClockToInstant } from '#app/platform/time-zone.ts'
import { useTranslation } from '#app/i18n/react.tsx'

/**
 * « Cette date est passée… »: shown while the start typed (a new event's, or a changed one) puts
 * the show among the past ones. Saving is still allowed: the band may archive old concerts.
 */
export function PastDateWarning(props: { startsAt?: string; endsAt?: string; storedStartsAt: string | null; defaultDurationMs: number }) {
	const { t } = useTranslation()
	const start = props.startsAt ? parisWallClockToInstant(props.startsAt) : null
	const end = props.endsAt ? parisWallClockToInstant(props.endsAt) : null
	const changed = props.storedStartsAt === null || props.startsAt !== props.storedStartsAt
	// The warning is about now: reading the clock while rendering is the point (it re-renders as the admin types).
	// oxlint-disable-next-line react/purity
	const over = start !== null && (end ?? new Date(start.getTime() + props.defaultDurationMs)).getTime() < Date.now()
	if (!changed || !over) return null
	return (
		<p role="status" className="flex items-start gap-2.5 rounded-control border border-warning/45 bg-warning/10 px-3.5 py-2.5 text-sm">
			<AlertTriangle aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-warning" />
			<span>{t('admin.events.editor.pastWarning')}</span>
		</p>
	)
}
