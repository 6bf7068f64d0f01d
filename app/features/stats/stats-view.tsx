import { lazy, Suspense } from 'react'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { useTranslation } from '#app/i18n/react.tsx'
import { formatShortDate, parisNoon } from '#app/platform/time-zone.ts'
import type { Ranking, Series } from './sources/types.ts'

/* The pieces of the stats screen: a domain's chart with its numbers as a table, and a ranking. */

// The chart module (and uPlot with it) is its own chunk, fetched when a stats screen renders one.
const DailyChart = lazy(() => import('./daily-chart.tsx').then((m) => ({ default: m.DailyChart })))

const TONES = ['accent', 'danger', 'muted'] as const
const formatDay = (day: string) => formatShortDate(parisNoon(day))

export function SourceCharts(props: { days: string[]; series: Series[]; title: string }) {
	const { t } = useTranslation()
	const { days, series } = props
	const chartSeries = series.map((s, index) => ({ label: s.label, daily: s.daily, tone: TONES[index] ?? 'muted' }))
	return (
		<div className="mt-3 rounded-card border border-line bg-surface p-4 shadow-card">
			{series.length > 1 ? (
				<ul className="mb-2 flex flex-wrap gap-4 text-sm text-muted" aria-hidden="true">
					{chartSeries.map((s) => (
						<li key={s.label} className="inline-flex items-center gap-2">
							<span className={s.tone === 'danger' ? 'size-3 rounded-sm bg-danger' : 'size-3 rounded-sm bg-accent'} />
							{s.label}
						</li>
					))}
				</ul>
			) : (
				<p className="mb-2 text-sm text-muted" aria-hidden="true">
					{series[0]?.label}
				</p>
			)}
			<Suspense fallback={<div className="min-h-[180px]" aria-hidden="true" />}>
				<DailyChart days={days} series={chartSeries} label={t('stats.chartUnavailable')} />
			</Suspense>
			<details className="mt-3 text-sm">
				<summary className="inline-flex min-h-11 cursor-pointer items-center font-medium text-muted hover:text-fg">
					{t('stats.tableToggle', { title: props.title })}
				</summary>
				<Table label={t('stats.tableLabel', { title: props.title })} className="mt-2">
					<TableHead>
						<tr>
							<TableHeader scope="col">{t('stats.day')}</TableHeader>
							{series.map((s) => (
								<TableHeader key={s.key} scope="col" className="text-right">
									{s.label}
								</TableHeader>
							))}
						</tr>
					</TableHead>
					<TableBody>
						{days.map((day, index) => (
							<TableRow key={day}>
								<TableCell className="whitespace-nowrap">{formatDay(day)}</TableCell>
								{series.map((s) => (
									<TableCell key={s.key} className="text-right tabular-nums">
										{(s.daily[index] ?? 0).toLocaleString('fr-FR')}
									</TableCell>
								))}
							</TableRow>
						))}
						<TableRow>
							<TableCell className="font-semibold">{t('stats.total')}</TableCell>
							{series.map((s) => (
								<TableCell key={s.key} className="text-right font-semibold tabular-nums">
									{s.total.toLocaleString('fr-FR')}
								</TableCell>
							))}
						</TableRow>
					</TableBody>
				</Table>
			</details>
		</div>
	)
}

export function RankingTable(props: { ranking: Ranking }) {
	const { ranking } = props
	const top = Math.max(1, ...ranking.rows.map((row) => row.value))
	return (
		<div>
			<h3 className="text-base font-semibold">{ranking.label}</h3>
			{ranking.rows.length === 0 ? (
				<p className="mt-2 rounded-card border border-dashed border-line-strong/70 px-4 py-5 text-sm text-muted">{ranking.empty}</p>
			) : (
				<Table label={ranking.label} className="mt-2">
					<TableHead>
						<tr>
							<TableHeader scope="col">{ranking.label}</TableHeader>
							<TableHeader scope="col" className="text-right">
								{ranking.unit}
							</TableHeader>
						</tr>
					</TableHead>
					<TableBody>
						{ranking.rows.map((row) => (
							<TableRow key={row.label}>
								<TableCell className="relative max-w-0 truncate">
									<span
										aria-hidden="true"
										className="absolute inset-y-1 left-0 rounded-r-sm bg-accent/15"
										style={{ width: `${(row.value / top) * 100}%` }}
									/>
									<span className="relative">
										{row.href ? (
											<a href={row.href} className="underline-offset-4 hover:underline">
												{row.label}
											</a>
										) : (
											row.label
										)}
									</span>
								</TableCell>
								<TableCell className="text-right tabular-nums">{row.value.toLocaleString('fr-FR')}</TableCell>
							</TableRow>
						))}
					</TableBody>
				</Table>
			)}
		</div>
	)
}
