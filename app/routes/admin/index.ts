import { redirect } from 'react-router'
import type { Route } from './+types/index'
import { requireAdmin } from '#app/features/accounts/session.server.ts'

/** `/dashboard/admin` opens the stats screen, the admin's first screen. */
export async function loader({ request }: Route.LoaderArgs) {
	await requireAdmin(request)
	throw redirect('/dashboard/admin/stats')
}
