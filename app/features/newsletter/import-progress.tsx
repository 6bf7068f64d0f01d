import { useEffect, useState } from 'react'
import { Link } from 'react-router'
import { Badge } from '#app/components/ui/badge.tsx'
import { buttonClasses } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { useTranslation } from '#app/i18n/react.tsx'

/** What the import's job says of itself (imports.server.ts's ImportProgress, as the browser gets it). */
interface ImportSnapshot {
	id: string
	status: 'preview' | 'queued' | 'running' | 'done' | 'failed'
	total: number
	done: number
	added: number
	error: string | null
}

const number = new Intl.NumberFormat('fr-FR')

/**
 * A confirmed import, live: its job announces each step (server-sent events fed by LISTEN/NOTIFY,
 * from whichever instance works it) and the bar follows; at the end, what was added.
 */
export function ImportProgress({ initial }: { initial: ImportSnapshot }) {
	const { t } = useTranslation()
	const [progress, setProgress] = useState(initial)
	const working = progress.status === 'queued' || progress.status === 'running'
	useEffect(() => {
		if (initial.status !== 'queued' && initial.status !== 'running') return
		const source = new EventSource(`/dashboard/admin/newsletter/imports/${initial.id}/progress`)
		source.addEventListener('progress', (event) => {
			const next = JSON.parse((event as MessageEvent<string>).data) as ImportSnapshot
			// A late step never moves the bar back.
			setProgress((previous) => (next.status === previous.status && next.done < previous.done ? previous : next))
			if (next.status === 'done' || next.status === 'failed') source.close()
		})
		return () => source.close()
	}, [initial.id, initial.status])

	const percent = progress.total > 0 ? Math.floor((progress.done / progress.total) * 100) : 100
	const skipped = progress.done - progress.added
	const title =
		progress.status === 'done'
			? t('newsletter.admin.import.doneTitle')
			: progress.status === 'failed'
				? t('newsletter.admin.import.failedTitle')
				: t('newsletter.admin.import.progressTitle')
	return (
		<Card as="section" aria-labelledby="import-suivi" className="max-w-2xl">
			<div className="flex flex-wrap items-baseline justify-between gap-2">
				<CardTitle id="import-suivi">{title}</CardTitle>
				{working ? <Badge tone="info">{number.format(percent)} %</Badge> : null}
			</div>
			{working ? (
				<div className="mt-4">
					<progress
						className="h-2 w-full accent-(--color-accent)"
						max={Math.max(progress.total, 1)}
						value={progress.done}
						aria-label={t('newsletter.admin.import.progressLabel')}
					/>
					<p className="mt-2 text-sm tabular-nums" aria-live="polite">
						{progress.status === 'queued' && progress.done === 0
							? t('newsletter.admin.import.progressQueued')
							: t('newsletter.admin.import.progress', {
									done: number.format(progress.done),
									total: number.format(progress.total),
									percent,
								})}
					</p>
					<p className="mt-2 text-sm text-muted">{t('newsletter.admin.import.progressHint')}</p>
				</div>
			) : (
				<div className="mt-3 flex flex-col gap-1 text-sm" role="status">
					{progress.status === 'failed' ? <p className="text-danger">{t('newsletter.admin.import.failedBody')}</p> : null}
					<p>{t('newsletter.admin.import.doneAdded', { count: progress.added, n: number.format(progress.added) })}</p>
					{skipped > 0 ? (
						<p className="text-muted">{t('newsletter.admin.import.doneSkipped', { count: skipped, n: number.format(skipped) })}</p>
					) : null}
				</div>
			)}
			<div className="mt-5 flex flex-wrap gap-3">
				<Link to="/dashboard/admin/newsletter/subscribers" className={buttonClasses(working ? 'secondary' : 'primary')}>
					{t('newsletter.admin.import.toList')}
				</Link>
				{!working ? (
					<Link to="/dashboard/admin/newsletter/subscribers/import" className={buttonClasses('ghost')}>
						{t('newsletter.admin.import.another')}
					</Link>
				) : null}
			</div>
		</Card>
	)
}
