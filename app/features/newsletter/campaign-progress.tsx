import { useEffect, useRef, useState } from 'react'
import { AlertTriangle } from '#app/components/icons.tsx'
import { formatTime } from '#app/platform/time-zone.ts'
import { useTranslation } from '#app/i18n/react.tsx'

export interface ProgressSnapshot {
	status: string
	recipients: number
	queued: number
	sent: number
	failed: number
	bounced: number
	skipped: number
	/** Since when the relay has taken nothing of this send (sender.server.ts); null while it takes mails. */
	relayErrorSince?: string | null
}

const number = new Intl.NumberFormat('fr-FR')

/**
 * A campaign's send, live: the server pushes each step (server-sent events fed by LISTEN/NOTIFY,
 * from whichever instance sends), and the rate is measured here from successive counts.
 */
export function CampaignProgress(props: {
	campaignId: string
	initial: ProgressSnapshot
	/** « le 12 décembre à 18 h » for a send set for later; null when it starts now. */
	scheduledFor: string | null
	/** Called when the campaign changes state (starts, ends, is cancelled). */
	onStatusChange?: () => void
}) {
	const { t } = useTranslation()
	const [progress, setProgress] = useState(props.initial)
	const [rate, setRate] = useState<number | null>(null)
	const last = useRef<{ at: number; sent: number } | null>(null)
	const onStatusChange = useRef(props.onStatusChange)
	useEffect(() => {
		onStatusChange.current = props.onStatusChange
	})

	useEffect(() => {
		if (props.initial.status !== 'sending' && props.initial.status !== 'scheduled') return
		const source = new EventSource(`/dashboard/admin/newsletter/campaigns/${props.campaignId}/progress`)
		source.addEventListener('progress', (event) => {
			const next = JSON.parse((event as MessageEvent<string>).data) as ProgressSnapshot
			const now = performance.now()
			const done = next.sent + next.failed + next.bounced
			if (last.current && now - last.current.at > 400) {
				const instant = ((done - last.current.sent) * 1000) / (now - last.current.at)
				setRate((previous) => (previous === null ? instant : previous * 0.5 + instant * 0.5))
				last.current = { at: now, sent: done }
			} else if (!last.current) last.current = { at: now, sent: done }
			setProgress((previous) => {
				if (previous.status !== next.status) queueMicrotask(() => onStatusChange.current?.())
				return next
			})
			if (next.status === 'sent' || next.status === 'cancelled') source.close()
		})
		return () => source.close()
	}, [props.campaignId, props.initial.status])

	const done = progress.sent + progress.failed + progress.bounced + progress.skipped
	const total = Math.max(progress.recipients, done)
	const percent = total > 0 ? Math.round((done / total) * 100) : progress.status === 'sent' ? 100 : 0
	const live = progress.status === 'sending'
	if (progress.status === 'scheduled') {
		return (
			<p className="text-muted" aria-live="polite">
				{props.scheduledFor
					? t('newsletter.admin.progress.scheduledFor', { date: props.scheduledFor })
					: t('newsletter.admin.progress.starting')}
			</p>
		)
	}
	return (
		<div className="flex flex-col gap-3" aria-live="polite">
			<div className="flex flex-wrap items-baseline justify-between gap-2">
				<p className="text-2xl font-semibold tabular-nums">
					{number.format(progress.sent)}{' '}
					<span className="text-base font-normal text-muted">
						/ {number.format(total)} {t('newsletter.admin.progress.sent')}
					</span>
				</p>
				<p className="text-sm text-muted tabular-nums">
					{live && rate !== null ? t('newsletter.admin.progress.rate', { rate: number.format(Math.round(rate)) }) : null}
				</p>
			</div>
			{live && progress.relayErrorSince ? (
				<p
					className="flex items-start gap-2.5 rounded-control border border-warning/45 bg-warning/10 px-3.5 py-2.5 text-sm"
					data-relay-down=""
				>
					<AlertTriangle aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-warning" />
					<span>{t('newsletter.admin.progress.relayDown', { time: formatTime(progress.relayErrorSince) })}</span>
				</p>
			) : null}
			<div
				role="progressbar"
				aria-label={t('newsletter.admin.progress.label')}
				aria-valuemin={0}
				aria-valuemax={100}
				aria-valuenow={percent}
				className="h-3 overflow-hidden rounded-full bg-fg/10"
			>
				<div className="h-full rounded-full bg-accent transition-[width] duration-300" style={{ width: `${percent}%` }} />
			</div>
			<dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm text-muted">
				<div className="flex gap-1.5">
					<dt>{t('newsletter.admin.progress.queued')}</dt>
					<dd className="font-semibold text-fg tabular-nums">{number.format(progress.queued)}</dd>
				</div>
				<div className="flex gap-1.5">
					<dt>{t('newsletter.admin.progress.failed')}</dt>
					<dd className="font-semibold text-fg tabular-nums">{number.format(progress.failed)}</dd>
				</div>
				<div className="flex gap-1.5">
					<dt>{t('newsletter.admin.progress.bounced')}</dt>
					<dd className="font-semibold text-fg tabular-nums">{number.format(progress.bounced)}</dd>
				</div>
				<div className="flex gap-1.5">
					<dt>{t('newsletter.admin.progress.percent')}</dt>
					<dd className="font-semibold text-fg tabular-nums">{percent} %</dd>
				</div>
			</dl>
		</div>
	)
}
