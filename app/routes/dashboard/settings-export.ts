import type { Route } from './+types/settings-export'
import { exportAccountData, exportFileName } from '#app/features/accounts/account-data.server.ts'
import { failureHeaders, limit } from '#app/features/accounts/auth-actions.server.ts'
import { requireUser } from '#app/features/accounts/session.server.ts'
import { getPlatform } from '#app/platform/platform.server.ts'
import { httpError } from '#app/platform/http-error.ts'

/**
 * « Télécharger mes données » (RGPD art. 20): the signed-in member's own data, as a JSON file.
 * Nothing is cached anywhere on the way: it is personal, and it changes.
 */
export async function loader({ request }: Route.LoaderArgs) {
	const user = await requireUser(request)
	const limited = await limit([['settingsByAccount', user.id]])
	if (limited) throw httpError(429, { error: limited.message }, { headers: failureHeaders(limited) })
	const { database, env } = await getPlatform()
	const now = new Date()
	const exported = await exportAccountData(database.db, env, user.id, now)
	if (!exported) throw httpError(404)
	return new Response(`${JSON.stringify(exported, null, 2)}\n`, {
		headers: {
			'Content-Type': 'application/json; charset=utf-8',
			'Content-Disposition': `attachment; filename="${exportFileName(now)}"`,
			'Cache-Control': 'no-store',
			'X-Content-Type-Options': 'nosniff',
		},
	})
}
