import { clsx } from 'clsx'
import { Download } from '#app/components/icons.tsx'
import { Form, Link } from 'react-router'
import type { Route } from './+types/stats'
import { buttonClasses } from '#app/components/ui/button.tsx'
import { linkClasses } from '#app/components/ui/link.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { Stat } from '#app/components/ui/stat.tsx'
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import { waitingPreparedDrafts } from '#app/features/newsletter/prepared.server.ts'
import { pageTitle } from '#app/features/site/band.server.ts'
import { privatePageMeta } from '#app/features/site/page-meta.ts'
import { RankingTable, SourceCharts } from '#app/features/stats/stats-view.tsx'
import { frenchDay, PRESETS, rangeQuery, readRange } from '#app/features/stats/range.ts'
import { loadStats } from '#app/features/stats/sources/index.server.ts'
import { useLiveRevalidation } from '#app/features/stats/use-live.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getT } from '#app/platform/i18n.server.ts'
import { getDb } from '#app/platform/platform.server.ts'
import { routeStrings } from '#app/i18n/route-strings.ts'

/** The strings this screen needs in the browser (app/i18n/route-strings.ts). */
export const handle = routeStrings('stats', 'newsletter.prepared')

/*
 * The admin's first screen: how the site is doing over a period (7, 30, 90 days or custom dates).
 * Totals, one daily chart per domain with the same numbers as a table, the rankings, a CSV export
 * of all of it; it reloads its numbers when any instance signals a change (server-sent events).
 */
const SCREEN = '/dashboard/admin/stats'

export function meta({ loaderData }: Route.MetaArgs) {
	return privatePageMeta(loaderData?.title)
}

export async function loader({ request }: Route.LoaderArgs) {
	await requireAdmin(request)
	const { range, notice, error } = readRange(new URL(request.url).searchParams, getT())
	const db = await getDb()
	const [results, prepared] = await Promise.all([loadStats(db, range), waitingPreparedDrafts(db)])
	const params = new URL(request.url).searchParams
	return {
		title: pageTitle(getT()('stats.metaTitle')),
		range,
		notice,
		error,
		// What was typed stays in the fields, even when refused.
		typed: { from: (params.get('du') ?? range.from).slice(0, 10), to: (params.get('au') ?? range.to).slice(0, 10) },
		query: rangeQuery(range),
		results,
		// The announcements the site prepared by itself, until an admin sends or deletes them.
		prepared,
	}
}

export default function AdminStats({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation()
	const { range, notice, error, typed, query, results, prepared } = loaderData
	useLiveRevalidation('/dashboard/admin/live?topic=stats')
	const presetLabel: Record<string, string> = { '7': t('stats.range.7'), '30': t('stats.range.30'), '90': t('stats.range.90') }
	const totals = results.flatMap((result) => [
		...result.series.map((s) => ({ key: s.key, label: s.label, value: s.total, detail: t('stats.overPeriod') })),
		...result.figures.map((f) => ({ key: f.key, label: f.label, value: f.value, detail: t('stats.now') })),
	])
	const errorId = error ? 'periode-erreur' : undefined
	return (
		<>
			<PageHeader
				title={t('stats.title')}
				description={
					<>
						{t('stats.period', { from: frenchDay(range.from), to: frenchDay(range.to) })}{' '}
						<span className="inline-flex items-center gap-1.5 text-success">
							<span aria-hidden="true" className="size-2 rounded-full bg-success motion-safe:animate-pulse" />
							{t('stats.live')}
						</span>
					</>
				}
				actions={
					<a href={`${SCREEN}.csv?${query}`} className={buttonClasses('secondary')} download>
						<Download aria-hidden="true" />
						{t('stats.export')}
					</a>
				}
			/>

			{prepared.length > 0 ? (
				<section aria-labelledby="annonces-preparees" className="mt-6 rounded-control border border-info/40 bg-info/10 px-4 py-3">
					<h2 id="annonces-preparees" className="font-semibold">
						{t('newsletter.prepared.waiting', { count: prepared.length })}
					</h2>
					<p className="text-sm text-muted">{t('newsletter.prepared.waitingHint')}</p>
					<ul className="mt-2 flex list-disc flex-col gap-1 pl-5 text-sm">
						{prepared.map((draft) => (
							<li key={draft.id}>
								<Link to={`/dashboard/admin/newsletter/campaigns/${draft.id}`} className={linkClasses()}>
									{draft.subject}
								</Link>
							</li>
						))}
					</ul>
				</section>
			) : null}

			<section aria-labelledby="periode" className="mt-6 flex flex-col gap-4 lg:flex-row lg:items-end lg:justify-between">
				<h2 id="periode" className="sr-only">
					{t('stats.range.label')}
				</h2>
				<nav aria-label={t('stats.range.presets')}>
					<ul className="inline-flex rounded-control border border-line bg-surface p-1">
						{PRESETS.map((preset) => (
							<li key={preset}>
								<Link
									to={`${SCREEN}?periode=${preset}`}
									aria-current={range.preset === preset ? 'page' : undefined}
									className={clsx(
										'inline-flex min-h-10 items-center rounded-control px-3 text-sm font-medium',
										range.preset === preset ? 'bg-accent text-on-accent' : 'text-muted hover:text-fg',
									)}
								>
									{presetLabel[preset]}
								</Link>
							</li>
						))}
					</ul>
				</nav>
				<Form method="get" action={SCREEN} className="flex flex-wrap items-end gap-2" aria-describedby={errorId}>
					<input type="hidden" name="periode" value="perso" />
					<div className="flex flex-col gap-1">
						<label htmlFor="periode-du" className="text-sm font-semibold">
							{t('stats.range.from')}
						</label>
						<Input
							id="periode-du"
							type="date"
							name="du"
							defaultValue={typed.from}
							key={`du-${typed.from}`}
							required
							aria-invalid={error ? true : undefined}
							aria-describedby={errorId}
						/>
					</div>
					<div className="flex flex-col gap-1">
						<label htmlFor="periode-au" className="text-sm font-semibold">
							{t('stats.range.to')}
						</label>
						<Input
							id="periode-au"
							type="date"
							name="au"
							defaultValue={typed.to}
							key={`au-${typed.to}`}
							required
							aria-invalid={error ? true : undefined}
							aria-describedby={errorId}
						/>
					</div>
					<Button type="submit" variant={range.preset === 'custom' ? 'primary' : 'secondary'}>
						{t('stats.range.apply')}
					</Button>
				</Form>
			</section>
			{error ? (
				<p id={errorId} role="alert" className="mt-3 text-sm font-medium text-danger">
					{error}
				</p>
			) : null}
			{notice ? (
				<p role="status" className="mt-3 text-sm text-muted">
					{notice}
				</p>
			) : null}

			<section aria-labelledby="totaux" className="mt-8">
				<h2 id="totaux" className="sr-only">
					{t('stats.totals')}
				</h2>
				<dl className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-4">
					{totals.map((tile) => (
						<Stat key={tile.key} label={tile.label} value={tile.value} detail={tile.detail} />
					))}
				</dl>
			</section>

			{results.map((result) => (
				<section key={result.id} aria-labelledby={`source-${result.id}`} className="mt-12">
					<h2 id={`source-${result.id}`} className="text-lg font-semibold tracking-tight">
						{result.title}
					</h2>
					{result.note ? <p className="mt-1 max-w-prose text-sm text-muted">{result.note}</p> : null}
					<SourceCharts days={range.days} series={result.series} title={result.title} />
					{result.rankings.length > 0 ? (
						<div className="mt-6 grid gap-6 lg:grid-cols-2">
							{result.rankings.map((ranking) => (
								<RankingTable key={ranking.key} ranking={ranking} />
							))}
						</div>
					) : null}
				</section>
			))}
		</>
	)
}
