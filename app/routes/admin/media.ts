import type { Route } from './+types/media'
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import { mediaStatus } from '#app/features/media/media.server.ts'
import { isMediaId, mediaJson, uploadRefusal } from '#app/features/media/responses.server.ts'
import type { UploadAccepted } from '#app/features/media/rules.ts'
import { acceptImage, readUploadForm } from '#app/features/media/upload.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { getPlatform } from '#app/platform/platform.server.ts'

/*
 * Cover images, for admins: POST /dashboard/admin/media (multipart, field `file`, optional `alt`)
 * takes an image and answers 201 with its id and where to follow it; GET /dashboard/admin/media/<id>
 * answers its status (processing with progress, ready with the image, failed with the reason).
 * components/image-upload.tsx speaks to both. The body is read only after the guard, and only up
 * to the limit (root's form guard leaves this route's multipart bodies alone).
 */
const STATUS_PATH = '/dashboard/admin/media/'

export async function loader({ request, params }: Route.LoaderArgs) {
	await requireAdmin(request)
	if (!isMediaId(params.id)) return mediaJson({ error: getT()('media.errors.notFound') }, 404)
	const status = await mediaStatus((await getPlatform()).database.db, params.id)
	if (!status) return mediaJson({ error: getT()('media.errors.notFound') }, 404)
	return mediaJson(status)
}

export async function action({ request, params }: Route.ActionArgs) {
	if (request.method !== 'POST' || params.id) {
		return Response.json({ error: getT()('errors.methodNotAllowed') }, { status: 405, headers: { Allow: 'POST' } })
	}
	const user = await requireAdmin(request)
	const read = await readUploadForm(request, 'cover')
	if (!read.ok) return uploadRefusal(read)
	const accepted = await acceptImage(await getPlatform(), { kind: 'cover', ...read.form, userId: user.id })
	if (!accepted.ok) return uploadRefusal(accepted)
	const body: UploadAccepted = { id: accepted.id, status: 'processing', progress: 0, statusUrl: STATUS_PATH + accepted.id }
	return mediaJson(body, 201)
}
