import { Disc3 } from '#app/components/icons.tsx'
import { useTranslation } from '#app/i18n/react.tsx'
import type { Route } from './+types/home'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { getSessionProfile, requireUser } from '#app/features/accounts/session.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { getPlatform } from '#app/platform/platform.server.ts'
import { memberContents } from '#app/features/codes/contents.server.ts'
import { UnlockedView } from '#app/features/codes/unlocked-view.tsx'
import { buttonClasses } from '#app/components/ui/button.tsx'
import { Link } from 'react-router'
import { formatDay } from '#app/platform/time-zone.ts'
import { pageTitle } from '#app/features/site/band.server.ts'
import { routeStrings } from '#app/i18n/route-strings.ts'
import { cachedNextEvents } from '#app/features/events/cache.server.ts'
import { MemberUpcoming, NearYou } from '#app/features/events/member-upcoming.tsx'
import { memberEvent } from '#app/features/events/member-event.ts'
import { eventsNear } from '#app/features/events/near.server.ts'
import { DEFAULT_RADIUS_KM } from '#app/features/towns/rules.ts'
import { NewsletterSetting } from '#app/features/newsletter/member-setting.tsx'
import { memberSubscription } from '#app/features/newsletter/member-subscription.server.ts'

/** The strings this screen needs in the browser (app/i18n/route-strings.ts). */
export const handle = routeStrings(
	'codes.unlocked',
	'events.card',
	'events.status',
	'newsletter.setting',
	'newsletter.status',
	'newsletter.admin',
	'towns.field',
)

export function meta({ loaderData: data }: Route.MetaArgs) {
	return [{ title: data?.title }]
}

/** How many upcoming shows the home lists before « Tous les concerts ». */
const NEXT_EVENTS = 5

export async function loader({ request }: Route.LoaderArgs) {
	const user = await requireUser(request)
	const { database, env } = await getPlatform()
	const profile = await getSessionProfile(request)
	const [contents, next, { status: newsletter, town }] = await Promise.all([
		memberContents(database.db, env, user.id),
		// The public list (the same for everyone, kept in memory a few seconds).
		cachedNextEvents(database.db, NEXT_EVENTS),
		memberSubscription(database.db, user),
	])
	const place = town?.latitude != null && town.longitude != null ? { latitude: town.latitude, longitude: town.longitude } : null
	return {
		contents,
		events: next.events.map(memberEvent),
		hasPast: next.hasPast,
		newsletter,
		near: {
			town: place ? (town?.townLabel ?? null) : null,
			radiusKm: DEFAULT_RADIUS_KM,
			events: place ? (await eventsNear(database.db, place, DEFAULT_RADIUS_KM)).map(memberEvent) : [],
		},
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
				{loaderData.contents.length === 0 ? (
					<EmptyState
						className="mt-4"
						icon={<Disc3 aria-hidden="true" />}
						title={t('dashboard.home.contentEmptyTitle')}
						body={t('dashboard.home.contentEmptyBody')}
						action={
							<Link to="/redeem" className={buttonClasses('secondary', 'sm')}>
								{t('dashboard.home.contentRedeem')}
							</Link>
						}
					/>
				) : (
					<>
						<ul className="mt-4 grid gap-4 lg:grid-cols-2">
							{loaderData.contents.map((unlocked) => (
								<li key={unlocked.campaignId} className="rounded-card border border-line bg-surface p-5">
									<UnlockedView unlocked={unlocked} headingLevel="h3" />
								</li>
							))}
						</ul>
						<p className="mt-4 text-sm text-muted">
							{t('dashboard.home.contentMore')}{' '}
							<Link to="/redeem" className="font-semibold text-accent-fg underline underline-offset-4">
								{t('dashboard.home.contentRedeem')}
							</Link>
						</p>
					</>
				)}
			</section>
			<NearYou {...loaderData.near} className="mt-12" />
			<MemberUpcoming events={loaderData.events} hasPast={loaderData.hasPast} className="mt-12" />
			<div className="mt-12">
				<NewsletterSetting status={loaderData.newsletter} back="/dashboard" headingLevel="h2" />
			</div>
		</>
	)
}
