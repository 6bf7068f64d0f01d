import { useTranslation } from 'react-i18next'
import type { Route } from './+types/home'
import { getProfile } from '#app/features/accounts/profile.server.ts'
import { requireUser } from '#app/features/accounts/session.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { getDb } from '#app/platform/platform.server.ts'
import { formatDate } from '#app/features/site/format.ts'

export function meta({ loaderData: data }: Route.MetaArgs) {
	return [{ title: data?.title }]
}

export async function loader({ request }: Route.LoaderArgs) {
	const user = await requireUser(request)
	const profile = await getProfile(await getDb(), user.id)
	return {
		title: getT()('dashboard.home.metaTitle'),
		name: profile?.name ?? user.name,
		memberSince: profile?.createdAt ?? null,
	}
}

export default function DashboardHome({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation()
	const firstName = loaderData.name.split(/\s+/)[0]
	return (
		<>
			<h1 className="text-3xl font-bold tracking-tight">{t('dashboard.home.greeting', { name: firstName })}</h1>
			{loaderData.memberSince ? (
				<p className="mt-2 opacity-80">{t('dashboard.home.memberSince', { date: formatDate(loaderData.memberSince) })}</p>
			) : null}
			<section aria-labelledby="mes-contenus" className="mt-10">
				<h2 id="mes-contenus" className="text-xl font-semibold">
					{t('dashboard.home.contentTitle')}
				</h2>
				<div className="mt-4 rounded-xl border border-dashed border-current/25 p-6">
					<p className="font-medium">{t('dashboard.home.contentEmptyTitle')}</p>
					<p className="mt-1 opacity-80">{t('dashboard.home.contentEmptyBody')}</p>
				</div>
			</section>
		</>
	)
}
