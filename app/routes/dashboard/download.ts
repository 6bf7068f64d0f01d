import type { Route } from './+types/download'
import { requireUser } from '#app/features/accounts/session.server.ts'
import { checkDownload, countDownload } from '#app/features/codes/contents.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { getPlatform } from '#app/platform/platform.server.ts'
import { storedFileResponse } from '#app/platform/storage/serve.server.ts'
import { contentDisposition } from '#app/platform/storage/storage.server.ts'

const plain = (status: number, text: string) =>
	new Response(text, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } })

/**
 * GET /dashboard/contenus/:fileId?expires=…&sig=…: a file a member's code unlocked. The link is
 * short-lived and signed for this member alone: past its time, or opened by another account, it
 * is refused. Streamed with `Range` (a download resumes); counted once per download, not per range.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
	const user = await requireUser(request)
	const { database, env, storage } = await getPlatform()
	const check = await checkDownload(database.db, env, params.fileId, user.id, new URL(request.url).searchParams)
	if (!check.ok) {
		const status = check.reason === 'expired' ? 410 : check.reason === 'forbidden' ? 403 : 404
		const t = getT()
		const messages = {
			invalid: t('codes.download.invalid'),
			expired: t('codes.download.expired'),
			forbidden: t('codes.download.forbidden'),
		}
		return plain(status, messages[check.reason])
	}
	const range = request.headers.get('range')
	const firstBytes = !range || range.trim().startsWith('bytes=0-')
	if (request.method === 'GET' && firstBytes) await countDownload(database.db, check.file.id, user.id)
	if (storage.kind === 's3') {
		// The bucket serves ranges itself, through a link that works for a minute.
		const url = await storage.signedUrl(check.file.storageKey, { expiresInSeconds: 60, downloadName: check.file.name })
		return new Response(null, { status: 302, headers: { Location: url, 'Cache-Control': 'no-store' } })
	}
	return storedFileResponse(storage, check.file.storageKey, request, {
		cacheControl: 'private, no-store',
		headers: { 'Content-Disposition': contentDisposition(check.file.name), 'Referrer-Policy': 'no-referrer' },
	})
}
