import type { Route } from './+types/settings-avatar'
import { failureHeaders, limit } from '#app/features/accounts/auth-actions.server.ts'
import { requireUser } from '#app/features/accounts/session.server.ts'
import { mediaStatus, memberAvatarIds, removeMedia } from '#app/features/media/media.server.ts'
import { isMediaId, mediaJson, uploadRefusal } from '#app/features/media/responses.server.ts'
import type { UploadAccepted } from '#app/features/media/rules.ts'
import { acceptImage, readUploadForm } from '#app/features/media/upload.server.ts'
import { redirectWithFlash } from '#app/platform/flash.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { getPlatform } from '#app/platform/platform.server.ts'

/*
 * The member's own avatar, from the settings page: POST multipart (field `file`) sends a new one
 * (201 with its id and status address; it replaces the old one once ready); POST `intent=remove`
 * (a plain form) removes it; GET /dashboard/settings/avatar/<id> follows an upload of one's own.
 */
const STATUS_PATH = '/dashboard/settings/avatar/'
const SETTINGS = '/dashboard/settings'

export async function loader({ request, params }: Route.LoaderArgs) {
	const user = await requireUser(request)
	const notFound = () => mediaJson({ error: getT()('media.errors.notFound') }, 404)
	if (!isMediaId(params.id)) return notFound()
	const status = await mediaStatus((await getPlatform()).database.db, params.id, { ownerId: user.id, kind: 'avatar' })
	return status ? mediaJson(status) : notFound()
}

export async function action({ request, params }: Route.ActionArgs) {
	if (request.method !== 'POST' || params.id) {
		return Response.json({ error: getT()('errors.methodNotAllowed') }, { status: 405, headers: { Allow: 'POST' } })
	}
	const user = await requireUser(request)
	const platform = await getPlatform()
	const multipart = (request.headers.get('content-type') ?? '').toLowerCase().startsWith('multipart/form-data')

	if (!multipart) {
		const form = await request.formData()
		if (form.get('intent') !== 'remove') return Response.json({ error: getT()('media.errors.malformed') }, { status: 400 })
		await removeMedia(platform.database.db, platform.jobs, await memberAvatarIds(platform.database.db, user.id))
		return redirectWithFlash(SETTINGS, { type: 'success', key: 'settings.flash.avatarRemoved' })
	}

	const limited = await limit([['settingsByAccount', user.id]])
	if (limited) {
		await request.body?.cancel().catch(() => {})
		return Response.json({ error: limited.message }, { status: 429, headers: failureHeaders(limited) })
	}
	const read = await readUploadForm(request, 'avatar')
	if (!read.ok) return uploadRefusal(read)
	const accepted = await acceptImage(platform, { kind: 'avatar', ...read.form, userId: user.id })
	if (!accepted.ok) return uploadRefusal(accepted)
	const body: UploadAccepted = { id: accepted.id, status: 'processing', progress: 0, statusUrl: STATUS_PATH + accepted.id }
	return mediaJson(body, 201)
}
