import { useTranslation } from '#app/i18n/react.tsx'
import type { Route } from './+types/overview'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { Stat } from '#app/components/ui/stat.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import { formatDate } from '#app/features/site/format.ts'
import { memberSummary } from '#app/features/stats/members.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { getDb } from '#app/platform/platform.server.ts'
import { pageTitle } from '#app/features/site/band.server.ts'

export function meta({ loaderData: data }: Route.MetaArgs) {
	return [{ title: data?.title }]
}

export async function loader({ request }: Route.LoaderArgs) {
	await requireAdmin(request)
	return { title: pageTitle(getT()('admin.overview.metaTitle')), members: await memberSummary(await getDb()) }
}

export default function AdminOverview({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation()
	const { members } = loaderData
	const tiles = [
		{ label: t('admin.overview.members'), value: members.total },
		{ label: t('admin.overview.verified'), value: members.verified },
		{ label: t('admin.overview.lastWeek'), value: members.lastWeek },
		{ label: t('admin.overview.admins'), value: members.admins },
	]
	return (
		<>
			<PageHeader title={t('admin.overview.title')} />
			<dl className="mt-6 grid grid-cols-2 gap-3 lg:grid-cols-4">
				{tiles.map((tile) => (
					<Stat key={tile.label} label={tile.label} value={tile.value} />
				))}
			</dl>
			<section aria-labelledby="derniers-inscrits" className="mt-10">
				<h2 id="derniers-inscrits" className="text-lg font-semibold tracking-tight">
					{t('admin.overview.latestTitle')}
				</h2>
				{members.latest.length === 0 ? (
					<EmptyState className="mt-4" title={t('admin.overview.latestEmpty')} />
				) : (
					<Table label={t('admin.overview.latestTitle')} className="mt-4">
						<TableHead>
							<tr>
								<TableHeader>{t('admin.overview.colName')}</TableHeader>
								<TableHeader>{t('admin.overview.colJoined')}</TableHeader>
							</tr>
						</TableHead>
						<TableBody>
							{members.latest.map((member) => (
								<TableRow key={member.createdAt + member.name}>
									<TableCell className="font-medium">{member.name}</TableCell>
									<TableCell className="text-muted">{formatDate(member.createdAt)}</TableCell>
								</TableRow>
							))}
						</TableBody>
					</Table>
				)}
			</section>
		</>
	)
}
