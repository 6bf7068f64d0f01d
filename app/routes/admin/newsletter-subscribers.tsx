import type { Route } from './+types/newsletter-subscribers'
import { SubscribersPage } from '#app/features/newsletter/subscribers-page.tsx'
import { subscribersAction, subscribersPageData } from '#app/features/newsletter/subscribers-page.server.ts'
import { privatePageMeta } from '#app/features/site/page-meta.ts'
import { routeStrings } from '#app/i18n/route-strings.ts'

/** The strings this screen needs in the browser (app/i18n/route-strings.ts). */
export const handle = routeStrings('newsletter', 'auth.validation', 'towns.field')

/*
 * The subscriber list, /dashboard/admin/newsletter/subscribers: search by address, filter by status,
 * pages of 50; add one address (pending, with the confirmation mail, unless the admin certifies the
 * consent); delete (the row is gone); import and export CSV. The page and its actions live in
 * features/newsletter (subscribers-page.tsx, subscribers-page.server.ts).
 */

export function meta({ loaderData }: Route.MetaArgs) {
	return privatePageMeta(loaderData?.title)
}

export async function loader({ request }: Route.LoaderArgs) {
	return subscribersPageData(request)
}

export async function action({ request }: Route.ActionArgs) {
	return subscribersAction(request)
}

export default function Subscribers({ loaderData, actionData }: Route.ComponentProps) {
	return <SubscribersPage loaderData={loaderData} lastResult={actionData?.result} />
}
