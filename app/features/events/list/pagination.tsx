import { Link } from 'react-router'
import { buttonClasses } from '#app/components/ui/button.tsx'
import { useTranslation } from '#app/i18n/react.tsx'

/** Under the table: « 51 à 100 sur 120 » with the links to the pages around, or the count when it all fits. */
export function Pagination(props: { from: number; to: number; total: number; previous: string | null; next: string | null }) {
	const { t } = useTranslation()
	return (
		<nav aria-label={t('admin.events.pagination.label')} className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm">
			<p className="text-muted tabular-nums">
				{props.previous || props.next
					? t('admin.events.pagination.range', {
							from: props.from.toLocaleString('fr-FR'),
							to: props.to.toLocaleString('fr-FR'),
							total: props.total.toLocaleString('fr-FR'),
						})
					: t('admin.events.pagination.count', { count: props.total })}
			</p>
			{props.previous || props.next ? (
				<div className="flex gap-2">
					{props.previous ? (
						<Link to={props.previous} className={buttonClasses('secondary', 'sm')}>
							{t('admin.events.pagination.previous')}
						</Link>
					) : null}
					{props.next ? (
						<Link to={props.next} className={buttonClasses('secondary', 'sm')}>
							{t('admin.events.pagination.next')}
						</Link>
					) : null}
				</div>
			) : null}
		</nav>
	)
}
