import { Disc3 } from 'lucide-react'
import { useTranslation } from '#app/i18n/react.tsx'
import type { Route } from './+types/home'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { getProfile } from '#app/features/accounts/profile.server.ts'
import { requireUser } from '#app/features/accounts/session.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { getDb } from '#app/platform/platform.server.ts'
import { formatDay } from '#app/features/site/format.ts'
import { pageTitle } from '#app/features/site/band.server.ts'

export function meta({ loaderData: data }: Route.MetaArgs) {
	return [{ title: data?.title }]
}

export async function loader({ request }: Route.LoaderArgs) {
	const user = await requireUser(request)
	const profile = await getProfile(await getDb(), user.id)
	return {
		title: pageTitle(getT()('dashboard.home.metaTitle')),
		name: profile?.name ?? user.name,
		memberSince: profile?.createdAt ?? null,
	}
}

export default function DashboardHome({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation()
	const firstName = loaderData.name.split(/\s+/)[0]
	return (
		<>
			<PageHeader
				title={t('dashboard.home.greeting', { name: firstName })}
				description={loaderData.memberSince ? t('dashboard.home.memberSince', { date: formatDay(loaderData.memberSince) }) : undefined}
			/>
			<section aria-labelledby="mes-contenus" className="mt-10">
				<h2 id="mes-contenus" className="text-lg font-semibold tracking-tight">
					{t('dashboard.home.contentTitle')}
				</h2>
				<EmptyState
					className="mt-4"
					icon={<Disc3 aria-hidden="true" />}
					title={t('dashboard.home.contentEmptyTitle')}
					body={t('dashboard.home.contentEmptyBody')}
				/>
			</section>
		</>
	)
}
