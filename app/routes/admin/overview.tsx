import { useTranslation } from 'react-i18next'
import type { Route } from './+types/overview'
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import { formatDate } from '#app/features/site/format.ts'
import { memberSummary } from '#app/features/stats/members.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { getDb } from '#app/platform/platform.server.ts'

export function meta({ loaderData: data }: Route.MetaArgs) {
	return [{ title: data?.title }]
}

export async function loader({ request }: Route.LoaderArgs) {
	await requireAdmin(request)
	return { title: getT()('admin.overview.metaTitle'), members: await memberSummary(await getDb()) }
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
			<h1 className="mt-1 text-3xl font-bold tracking-tight">{t('admin.overview.title')}</h1>
			<dl className="mt-6 grid grid-cols-2 gap-3 lg:grid-cols-4">
				{tiles.map((tile) => (
					<div key={tile.label} className="rounded-xl border border-current/15 p-4">
						<dt className="text-sm opacity-80">{tile.label}</dt>
						<dd className="mt-1 text-3xl font-bold tabular-nums">{tile.value.toLocaleString('fr-FR')}</dd>
					</div>
				))}
			</dl>
			<section aria-labelledby="derniers-inscrits" className="mt-10">
				<h2 id="derniers-inscrits" className="text-xl font-semibold">
					{t('admin.overview.latestTitle')}
				</h2>
				{members.latest.length === 0 ? (
					<p className="mt-3 opacity-80">{t('admin.overview.latestEmpty')}</p>
				) : (
					<table className="mt-3 w-full text-left text-sm">
						<thead>
							<tr className="border-b border-current/15">
								<th scope="col" className="py-2 font-semibold">{t('admin.overview.colName')}</th>
								<th scope="col" className="py-2 font-semibold">{t('admin.overview.colJoined')}</th>
							</tr>
						</thead>
						<tbody>
							{members.latest.map((member) => (
								<tr key={member.createdAt + member.name} className="border-b border-current/10">
									<td className="py-2">{member.name}</td>
									<td className="py-2">{formatDate(member.createdAt)}</td>
								</tr>
							))}
						</tbody>
					</table>
				)}
			</section>
		</>
	)
}
