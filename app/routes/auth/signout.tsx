import { redirect } from 'react-router'
import type { Route } from './+types/signout'
import { signOut } from '#app/features/accounts/auth-actions.server.ts'
import { getSessionUser } from '#app/features/accounts/session.server.ts'

/** Sign-out is a POST (the dashboard's button); a GET only sends the visitor where they belong. */
export async function loader({ request }: Route.LoaderArgs) {
	return redirect((await getSessionUser(request)) ? '/dashboard' : '/auth/signin')
}

export async function action({ request }: Route.ActionArgs) {
	const outcome = await signOut(request)
	return redirect('/', { headers: outcome.ok ? outcome.headers : undefined })
}
