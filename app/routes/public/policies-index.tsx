import { Link } from 'react-router'
import type { Route } from './+types/policies-index'
import { useTranslation } from '#app/i18n/react.tsx'
import { getT } from '#app/platform/i18n.server.ts'
import { pageTitle } from '#app/features/site/band.server.ts'

export function meta({ loaderData }: Route.MetaArgs) {
	return [{ title: loaderData?.title }, { name: 'description', content: loaderData?.description }]
}

export function loader() {
	const t = getT()
	return { title: pageTitle(t('policies.index.title')), description: t('policies.index.intro') }
}

export default function PoliciesIndex() {
	const { t } = useTranslation()
	return (
		<article>
			<h1 className="font-display text-display tracking-display uppercase">{t('policies.index.title')}</h1>
			<p className="mt-6 max-w-prose text-lg text-muted">{t('policies.index.intro')}</p>
			<ul className="mt-10 grid max-w-3xl gap-4 sm:grid-cols-2">
				<li>
					<Link to="/policies/privacy" className="block h-full rounded-card border border-line bg-surface p-6 hover:border-line-strong">
						<span className="block text-lg font-semibold">{t('policies.nav.privacy')}</span>
						<span className="mt-2 block text-muted">{t('policies.index.privacy')}</span>
					</Link>
				</li>
				<li>
					<Link to="/policies/cookies" className="block h-full rounded-card border border-line bg-surface p-6 hover:border-line-strong">
						<span className="block text-lg font-semibold">{t('policies.nav.cookies')}</span>
						<span className="mt-2 block text-muted">{t('policies.index.cookies')}</span>
					</Link>
				</li>
			</ul>
		</article>
	)
}
