import { useTranslation } from '#app/i18n/react.tsx'
import { Link, useRouteLoaderData } from 'react-router'
import type { Route } from './+types/home'
import { initials } from '#app/components/logo.tsx'
import { SocialLinks } from '#app/components/site-footer.tsx'
import { buttonClasses } from '#app/components/ui/button.tsx'
import { EventList } from '#app/components/event-card.tsx'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { linkClasses } from '#app/components/ui/link.tsx'
import { cachedNextEvents } from '#app/features/events/cache.server.ts'
import { newsletterSignupConstraint, subscribeAction } from '#app/features/newsletter/public.server.ts'
import { NewsletterSignup } from '#app/features/newsletter/signup-form.tsx'
import { getBand } from '#app/features/site/band.server.ts'
import { getDb } from '#app/platform/platform.server.ts'
import type { loader as rootLoader } from '#app/root.tsx'
import { routeStrings } from '#app/i18n/route-strings.ts'

/** The strings this screen needs in the browser (app/i18n/route-strings.ts). */
export const handle = routeStrings('home', 'events', 'newsletter.signup', 'towns.field')

export function meta({ loaderData: data }: Route.MetaArgs) {
	if (!data) return []
	return [
		{ title: data.name },
		{ name: 'description', content: data.tagline },
		{ property: 'og:title', content: data.name },
		{ property: 'og:description', content: data.tagline },
		{ property: 'og:type', content: 'website' },
	]
}

/** How many upcoming shows the landing lists before « Tous les concerts ». */
const NEXT_EVENTS = 5

export async function loader() {
	const band = getBand()
	const next = await cachedNextEvents(await getDb(), NEXT_EVENTS)
	return {
		name: band.name,
		tagline: band.tagline,
		events: next.events,
		hasPast: next.hasPast,
		signupConstraint: newsletterSignupConstraint(),
	}
}

/** The newsletter sign-up (features/newsletter): its answer comes only after this POST, never on a GET. */
export async function action({ request }: Route.ActionArgs) {
	return subscribeAction(request, await request.formData())
}

/** The landing: who the band is, where to find them, the next shows, and the newsletter. */
export default function Home({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation()
	const root = useRouteLoaderData<typeof rootLoader>('root')
	if (!root) return null
	const { band, user } = root
	// The poster title is sized on the name's longest word; accented capitals get room to breathe.
	const longestWord = Math.max(...band.name.split(/\s+/).map((word) => [...word].length))
	const titleStyle = {
		'--poster-chars': Math.max(longestWord, 5),
		...(/[À-ÖØ-Þ]/.test(band.name.toLocaleUpperCase('fr-FR')) ? { '--poster-leading': 1.1 } : {}),
	} as React.CSSProperties
	return (
		<>
			<section aria-labelledby="titre-groupe" className="relative isolate flex min-h-[92svh] items-end overflow-hidden">
				<div aria-hidden="true" className="hero-backdrop absolute inset-0 -z-10" />
				<span
					aria-hidden="true"
					className="hero-monogram absolute top-[6%] -right-[0.08em] -z-10 text-[min(88svh,95vw)] uppercase lg:right-[3%]"
				>
					{[...initials(band.name)][0]}
				</span>
				<div className="mx-auto w-full max-w-page px-gutter pt-36 pb-14 sm:pb-20">
					<h1 id="titre-groupe" className="poster-title text-fg" style={titleStyle}>
						{band.name}
					</h1>
					<div aria-hidden="true" className="mt-6 h-1.5 w-20 bg-accent sm:mt-8 sm:h-2 sm:w-28" />
					<div className="mt-6 flex flex-col gap-8 sm:mt-8 lg:flex-row lg:items-end lg:justify-between">
						<p className="max-w-2xl text-lg leading-snug font-medium text-fg sm:text-2xl">{band.tagline}</p>
						<div className="flex flex-wrap gap-3">
							{user ? (
								<Link to="/dashboard" className={buttonClasses('primary', 'lg')}>
									{t('home.hero.toDashboard')}
								</Link>
							) : (
								<Link to="/auth/signup" className={buttonClasses('primary', 'lg')}>
									{t('home.hero.join')}
								</Link>
							)}
							{band.contactEmail ? (
								<a href={`mailto:${band.contactEmail}`} className={buttonClasses('secondary', 'lg')}>
									{t('home.hero.contact')}
								</a>
							) : null}
						</div>
					</div>
					<SocialLinks
						socials={band.socials}
						className="mt-10 flex flex-wrap gap-x-6 gap-y-1 border-t border-fg/15 pt-4"
						linkClassName="inline-flex min-h-11 items-center rounded-control text-sm font-semibold tracking-wide text-fg uppercase underline-offset-[0.22em] hover:text-accent-fg hover:underline"
					/>
				</div>
			</section>
			<NextEvents events={loaderData.events} hasPast={loaderData.hasPast} />
			<NewsletterSignup action="/?index" fallback={actionData} bandName={band.name} constraint={loaderData.signupConstraint} />
		</>
	)
}

/** The next shows, as on a tour poster; an empty list says so and points to the past ones. */
function NextEvents(props: { events: Route.ComponentProps['loaderData']['events']; hasPast: boolean }) {
	const { t } = useTranslation()
	return (
		<section aria-labelledby="prochains-concerts" className="mx-auto w-full max-w-page px-gutter pt-6 pb-20 sm:pt-10 sm:pb-24">
			<div className="flex flex-wrap items-end justify-between gap-x-6 gap-y-3">
				<h2 id="prochains-concerts" className="font-display text-headline tracking-display uppercase">
					{t('events.home.title')}
				</h2>
				{props.events.length > 0 ? (
					<Link to="/events" className={linkClasses('default', 'inline-flex min-h-11 items-center')}>
						{t('events.home.all')}
					</Link>
				) : null}
			</div>
			{props.events.length > 0 ? (
				<div className="mt-6">
					<EventList events={props.events} headingLevel={3} />
				</div>
			) : (
				<EmptyState
					className="mt-6"
					title={t('events.home.emptyTitle')}
					body={t('events.home.emptyBody')}
					action={
						props.hasPast ? (
							<Link to="/events" className={linkClasses()}>
								{t('events.home.seePast')}
							</Link>
						) : undefined
					}
				/>
			)}
		</section>
	)
}
