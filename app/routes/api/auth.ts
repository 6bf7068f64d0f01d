import type { Route } from './+types/auth'
import { getAuth } from '#app/platform/platform.server.ts'

/** Better Auth's own endpoints, at its default /api/auth, for other clients too. */
export async function loader({ request }: Route.LoaderArgs) {
	return (await getAuth()).handler(request)
}

export async function action({ request }: Route.ActionArgs) {
	return (await getAuth()).handler(request)
}
