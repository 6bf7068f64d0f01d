import { redirect } from 'react-router'
import type { Route } from './+types/social'
import { limit, failureHeaders } from '#app/features/accounts/auth-actions.server.ts'
import { safeRedirect } from '#app/features/accounts/redirect.ts'
import { getSessionUser } from '#app/features/accounts/session.server.ts'
import { configuredProviders } from '#app/platform/auth.server.ts'
import { getPlatform } from '#app/platform/platform.server.ts'
import { clientAddressOf } from '#app/platform/rate-limit.server.ts'
import { httpError } from '#app/platform/http-error.ts'

/**
 * Starts a federated sign-in (or, signed in, links a provider to the account): Better Auth sets its
 * state cookie and gives the provider's address, where the browser goes next.
 */
export function loader() {
	return redirect('/auth/signin')
}

export async function action({ request }: Route.ActionArgs) {
	const form = await request.formData()
	const provider = String(form.get('provider') ?? '')
	const { auth, env } = await getPlatform()
	if (!configuredProviders(env).some((p) => p.id === provider)) throw httpError(404)
	const limited = await limit([['signInByAddress', clientAddressOf(request)]])
	if (limited) throw httpError(429, { error: limited.message }, { headers: failureHeaders(limited) })

	const user = await getSessionUser(request)
	const linking = Boolean(user)
	const callbackURL = linking ? '/dashboard/settings?linked=1#connexion' : safeRedirect(form.get('redirectTo'))
	const errorCallbackURL = linking ? '/dashboard/settings' : '/auth/signin'
	let response: Response
	try {
		if (linking) {
			response = await auth.api.linkSocialAccount({
				body: { provider, callbackURL, errorCallbackURL },
				headers: request.headers,
				asResponse: true,
			})
		} else {
			response = await auth.api.signInSocial({
				body: { provider: provider as 'google', callbackURL, errorCallbackURL, newUserCallbackURL: callbackURL },
				headers: request.headers,
				asResponse: true,
			})
		}
	} catch {
		return redirect(`${errorCallbackURL}?error=provider_unavailable`)
	}
	if (!response.ok) return redirect(`${errorCallbackURL}?error=provider_unavailable`)
	const body = (await response.json().catch(() => null)) as { url?: string } | null
	if (!body?.url) return redirect(`${errorCallbackURL}?error=provider_unavailable`)
	const headers = new Headers()
	for (const cookie of response.headers.getSetCookie()) headers.append('Set-Cookie', cookie)
	return redirect(body.url, { headers })
}
