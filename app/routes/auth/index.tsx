import { redirect } from 'react-router'
import type { Route } from './+types/index'

/** `/auth` itself has nothing to show: the sign-in page, query kept (redirectTo). */
export function loader({ request }: Route.LoaderArgs) {
	const { search } = new URL(request.url)
	return redirect(`/auth/signin${search}`)
}
