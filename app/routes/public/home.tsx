import { useTranslation } from 'react-i18next'
import { Link, useRouteLoaderData } from 'react-router'
import type { Route } from './+types/home'
import { Logo } from '#app/components/logo.tsx'
import { SocialLinks } from '#app/components/site-footer.tsx'
import { buttonClasses } from '#app/components/ui/button.tsx'
import { getBand } from '#app/features/site/band.server.ts'
import type { loader as rootLoader } from '#app/root.tsx'

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

export function loader() {
	const band = getBand()
	return { name: band.name, tagline: band.tagline }
}

/** The landing: who the band is, where to find them. Events and newsletter arrive with their issues. */
export default function Home() {
	const { t } = useTranslation()
	const root = useRouteLoaderData<typeof rootLoader>('root')
	if (!root) return null
	const { band, user } = root
	return (
		<section aria-labelledby="titre-groupe" className="relative isolate flex min-h-[88dvh] items-end overflow-hidden">
			<div aria-hidden="true" className="hero-backdrop absolute inset-0 -z-10" />
			<div className="mx-auto w-full max-w-6xl px-4 pt-32 pb-16 sm:px-6 sm:pb-24">
				<Logo name={band.name} logoUrl={band.logoUrl} decorative className="mb-8 size-20 sm:size-24" />
				<h1
					id="titre-groupe"
					className="font-display text-[clamp(3.5rem,16vw,11rem)] leading-[0.88] uppercase tracking-tight break-words"
				>
					{band.name}
				</h1>
				<p className="mt-6 max-w-2xl text-lg text-ink-100 sm:text-2xl">{band.tagline}</p>
				<div className="mt-10 flex flex-wrap gap-3">
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
				<SocialLinks socials={band.socials} className="mt-10 flex flex-wrap gap-x-6 gap-y-1 text-ink-100" />
			</div>
		</section>
	)
}
