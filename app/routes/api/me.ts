import { data } from 'react-router'
import type { Route } from './+types/me'
import { getProfile, parseProfileUpdate, updateProfile } from '#app/features/accounts/profile.server.ts'
import { getSessionUser } from '#app/features/accounts/session.server.ts'
import { getDb } from '#app/platform/platform.server.ts'
import { getT } from '#app/platform/i18n.server.ts'

/*
 * The profile's two calls as a JSON API: GET is getCurrentUserData, PATCH is updateUserData
 * ({ values, valuesToClear } → { data: profile }). Cross-site requests are refused by the root's
 * origin check before they get here.
 */
const noStore = { 'Cache-Control': 'private, no-store' }

function problem(status: number, error: string, extra: Record<string, unknown> = {}) {
	return data({ error, ...extra }, { status, headers: noStore })
}

export async function loader({ request }: Route.LoaderArgs) {
	const user = await getSessionUser(request)
	if (!user) return problem(401, getT()('api.me.signInRequired'))
	const profile = await getProfile(await getDb(), user.id)
	if (!profile) return problem(401, getT()('api.me.signInRequired'))
	return data(profile, { headers: noStore })
}

const MAX_BODY = 16 * 1024

export async function action({ request }: Route.ActionArgs) {
	if (request.method !== 'PATCH') {
		return data({ error: getT()('api.me.methodNotAllowed') }, { status: 405, headers: { Allow: 'GET, PATCH' } })
	}
	const user = await getSessionUser(request)
	if (!user) return problem(401, getT()('api.me.signInRequired'))
	if (!(request.headers.get('content-type') ?? '').toLowerCase().startsWith('application/json')) {
		return problem(415, getT()('api.me.notJson'))
	}
	const text = await request.text()
	if (text.length > MAX_BODY) return problem(413, getT()('api.me.tooLarge'))
	let body: unknown
	try {
		body = JSON.parse(text)
	} catch {
		return problem(400, getT()('api.me.invalidJson'))
	}
	const update = parseProfileUpdate(body)
	if (!update.ok) return problem(400, update.reason, { field: update.field })
	const profile = await updateProfile(await getDb(), user.id, update)
	if (!profile) return problem(401, getT()('api.me.signInRequired'))
	return data({ data: profile }, { headers: noStore })
}
