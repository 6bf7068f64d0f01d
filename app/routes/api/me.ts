import { data } from 'react-router'
import type { Route } from './+types/me'
import { getProfile, parseProfileUpdate, updateProfile } from '#app/features/accounts/profile.server.ts'
import { getSessionUser } from '#app/features/accounts/session.server.ts'
import { getDb } from '#app/platform/platform.server.ts'

/*
 * The seed's two callables as a JSON API: GET is getCurrentUserData, PATCH is updateUserData
 * ({ values, valuesToClear } → { data: profile }). Cross-site requests are refused by the root's
 * origin check before they get here.
 */
const noStore = { 'Cache-Control': 'private, no-store' }

function problem(status: number, error: string, extra: Record<string, unknown> = {}) {
	return data({ error, ...extra }, { status, headers: noStore })
}

export async function loader({ request }: Route.LoaderArgs) {
	const user = await getSessionUser(request)
	if (!user) return problem(401, 'Connexion requise.')
	const profile = await getProfile(await getDb(), user.id)
	if (!profile) return problem(401, 'Connexion requise.')
	return data(profile, { headers: noStore })
}

const MAX_BODY = 16 * 1024

export async function action({ request }: Route.ActionArgs) {
	if (request.method !== 'PATCH') {
		return data({ error: 'Méthode non autorisée : utilisez GET ou PATCH.' }, { status: 405, headers: { Allow: 'GET, PATCH' } })
	}
	const user = await getSessionUser(request)
	if (!user) return problem(401, 'Connexion requise.')
	if (!(request.headers.get('content-type') ?? '').toLowerCase().startsWith('application/json')) {
		return problem(415, 'Le corps doit être du JSON (Content-Type: application/json).')
	}
	const text = await request.text()
	if (text.length > MAX_BODY) return problem(413, 'Requête trop volumineuse.')
	let body: unknown
	try {
		body = JSON.parse(text)
	} catch {
		return problem(400, 'JSON invalide.')
	}
	const update = parseProfileUpdate(body)
	if (!update.ok) return problem(400, update.reason, { field: update.field })
	const profile = await updateProfile(await getDb(), user.id, update)
	if (!profile) return problem(401, 'Connexion requise.')
	return data({ data: profile }, { headers: noStore })
}
