import { redirect } from 'react-router'
import type { Route } from './+types/index'
import { requireAdmin } from '#app/features/accounts/session.server.ts'

/** `/dashboard/admin` opens the stats screen, the admin's first screen. */
export async function loader({ request }: Route.LoaderArgs) {
	await requireAdmin(request)
	throw redirect('/dashboard/admin/stats')
}

/*
 * Never shown (the loader always redirects or refuses), but a screen in the tree needs a component:
 * without one, a refused member's 403 page was never hydrated in the browser.
 */
export default function AdminIndex() {
	return null
}
