import type { Route } from './+types/policy'
import { POLICIES, readPolicy, type PolicyName } from '#app/features/site/policies.server.ts'
import { getEnv } from '#app/platform/env.server.ts'
import { pageTitle } from '#app/features/site/band.server.ts'
import { httpError } from '#app/platform/http-error.ts'

export function meta({ loaderData }: Route.MetaArgs) {
	return [{ title: loaderData?.documentTitle }]
}

/** One policy text (content/policies/<name>.md), rendered on the server. */
export function loader({ request }: Route.LoaderArgs) {
	const name = new URL(request.url).pathname.split('/').pop() as PolicyName
	if (!POLICIES.includes(name)) throw httpError(404)
	const policy = readPolicy(name, getEnv().SITE_URL)
	return { ...policy, documentTitle: pageTitle(policy.title) }
}

export default function Policy({ loaderData }: Route.ComponentProps) {
	return (
		<article>
			<h1 className="font-display text-display tracking-display uppercase">{loaderData.title}</h1>
			{/* Our own Markdown, rendered with raw HTML disabled. */}
			<div className="prose-site mt-8" dangerouslySetInnerHTML={{ __html: loaderData.html }} />
		</article>
	)
}
