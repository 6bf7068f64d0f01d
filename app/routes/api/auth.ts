import type { Route } from './+types/auth'
import { httpError } from '#app/platform/http-error.ts'
import { getAuth } from '#app/platform/platform.server.ts'
import { getT } from '#app/platform/i18n.server.ts'

/*
 * Better Auth answers on /api/auth/* only what a browser must reach from outside the site's own
 * forms: the federated providers' return (`/callback/:id`, GET, or POST for Apple's form_post).
 * Everything else (sign-up, sign-in, reset, verification, e-mail and password changes, account
 * deletion, profile updates…) goes through the site's forms and their Zod schemas, limits and
 * rules, which call Better Auth on the server: its own endpoints would be a second door without
 * them. Anything not listed here is a 404.
 */
const EXPOSED: { method: 'GET' | 'POST'; path: RegExp }[] = [
	{ method: 'GET', path: /^\/callback\/[a-z0-9-]{1,40}$/ },
	{ method: 'POST', path: /^\/callback\/[a-z0-9-]{1,40}$/ },
]

function exposed(request: Request): boolean {
	const path = new URL(request.url).pathname.replace(/^\/api\/auth/, '')
	return EXPOSED.some((entry) => entry.method === request.method && entry.path.test(path))
}

async function handle(request: Request) {
	if (!exposed(request)) throw httpError(404, { error: getT()('errors.notFound.short') })
	return (await getAuth()).handler(request)
}

export async function loader({ request }: Route.LoaderArgs) {
	return handle(request)
}

export async function action({ request }: Route.ActionArgs) {
	return handle(request)
}
