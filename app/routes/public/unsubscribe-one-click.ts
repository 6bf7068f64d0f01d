import { redirect } from 'react-router'
import type { Route } from './+types/unsubscribe-one-click'
import { TOKEN_PATTERN } from '#app/features/accounts/tokens.server.ts'
import { newsletterContext } from '#app/features/newsletter/public.server.ts'
import { unsubscribeByToken } from '#app/features/newsletter/subscribers.server.tsx'
import { getT } from '#app/platform/i18n.server.ts'

/*
 * RFC 8058 one-click unsubscribe: the mail client POSTs `List-Unsubscribe=One-Click` to the address
 * of the List-Unsubscribe header, without cookies, often without an Origin, and follows no redirect.
 * The opaque per-subscriber token is the whole authority. (platform/origin-check and form-guard let
 * exactly this path through.) A person who opens the address gets the /unsubscribe page instead.
 */
function tokenOf(request: Request) {
	const token = new URL(request.url).searchParams.get('token')
	return token && TOKEN_PATTERN.test(token) ? token : null
}

export function loader({ request }: Route.LoaderArgs) {
	const token = tokenOf(request)
	return redirect(token ? `/unsubscribe?token=${encodeURIComponent(token)}` : '/unsubscribe')
}

export async function action({ request }: Route.ActionArgs) {
	if (request.method !== 'POST') return new Response(getT()('newsletter.oneClick.methodNotAllowed'), { status: 405, headers: textHeaders })
	const token = tokenOf(request)
	if (!token) return new Response(getT()('newsletter.oneClick.incomplete'), { status: 400, headers: textHeaders })
	const known = await unsubscribeByToken((await newsletterContext()).db, token)
	if (!known) return new Response(getT()('newsletter.oneClick.unknown'), { status: 404, headers: textHeaders })
	return new Response(getT()('newsletter.oneClick.done'), { status: 200, headers: textHeaders })
}

const textHeaders = { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }
