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
	const headers = new Headers(outcome.ok ? outcome.headers : undefined)
	// What this browser kept for a signed-in admin goes with the session: the stage views' copies
	// and their service worker (docs/decisions/0021-stage-view-offline.md). Not "cookies": the answer
	// clears its own; not "cache": slow in some browsers, and pages signed in are never kept there.
	headers.set('Clear-Site-Data', '"storage"')
	return redirect('/', { headers })
}
