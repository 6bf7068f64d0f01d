import type { Route } from './+types/auth'
import { limit } from '#app/features/accounts/auth-actions.server.ts'
import { getSessionUser } from '#app/features/accounts/session.server.ts'
import { getAuth } from '#app/platform/platform.server.ts'
import { clientAddressOf, type RuleName } from '#app/platform/rate-limit.server.ts'
import { httpError } from '#app/platform/http-error.ts'

/*
 * Better Auth's own endpoints, at its default /api/auth, for other clients too. The limits that
 * guard the site's forms guard these endpoints as well: same rules, same counters.
 */
type Key = 'address' | 'email' | 'user'
const LIMITED: Record<string, [RuleName, Key][]> = {
	'/sign-in/email': [
		['signInByAddress', 'address'],
		['signInByAccount', 'email'],
	],
	'/sign-in/social': [['signInByAddress', 'address']],
	'/sign-up/email': [['signUpByAddress', 'address']],
	'/request-password-reset': [
		['resetByAddress', 'address'],
		['resetByAccount', 'email'],
	],
	'/reset-password': [['claimByAddress', 'address']],
	'/verify-email': [['claimByAddress', 'address']],
	'/send-verification-email': [['resendByAccount', 'email']],
	'/change-password': [['settingsByAccount', 'user']],
	'/change-email': [['settingsByAccount', 'user']],
	'/delete-user': [['settingsByAccount', 'user']],
}

async function guard(request: Request): Promise<Response | null> {
	const path = new URL(request.url).pathname.replace(/^\/api\/auth/, '')
	const rules = LIMITED[path]
	if (!rules) return null
	let email: string | null = null
	if (rules.some(([, key]) => key === 'email')) {
		const body = (await request
			.clone()
			.json()
			.catch(() => null)) as { email?: unknown } | null
		email = typeof body?.email === 'string' ? body.email.trim().toLowerCase() : null
	}
	const userId = rules.some(([, key]) => key === 'user') ? ((await getSessionUser(request))?.id ?? null) : null
	const checks: [RuleName, string][] = []
	for (const [rule, key] of rules) {
		const value = key === 'address' ? clientAddressOf(request) : key === 'email' ? email : userId
		if (value) checks.push([rule, value])
	}
	const limited = await limit(checks)
	if (!limited) return null
	return Response.json(
		{ code: 'TOO_MANY_REQUESTS', message: limited.message },
		{ status: 429, headers: { 'Retry-After': String(limited.retryAfterSeconds ?? 60) } },
	)
}

export async function loader({ request }: Route.LoaderArgs) {
	return (await guard(request)) ?? (await getAuth()).handler(request)
}

export async function action({ request }: Route.ActionArgs) {
	if (Number(request.headers.get('content-length') ?? 0) > 64 * 1024) {
		throw httpError(413, { error: 'Requête trop volumineuse.' })
	}
	return (await guard(request)) ?? (await getAuth()).handler(request)
}
