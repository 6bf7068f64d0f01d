import { data } from 'react-router'
import type { Route } from './+types/code-files'
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import { addCampaignFile, getCampaign, removeCampaignFile } from '#app/features/codes/campaigns.server.ts'
import { FILE_MAX_BYTES } from '#app/features/codes/rules.ts'
import { MultipartError, multipartParts } from '#app/platform/multipart.server.ts'
import type { Storage } from '#app/platform/storage/storage.server.ts'
import { redirectWithFlash } from '#app/platform/flash.server.ts'
import { getPlatform } from '#app/platform/platform.server.ts'
import { randomToken } from '#app/platform/random-token.server.ts'

/**
 * POST /dashboard/admin/codes/:campaignId/files: adds a file a campaign unlocks (multipart, kept
 * privately in the storage under a key the server makes), or removes one (`intent=delete`).
 */
export async function action({ request, params }: Route.ActionArgs) {
	await requireAdmin(request)
	const { database, storage, logger } = await getPlatform()
	const db = database.db
	const campaign = await getCampaign(db, params.campaignId)
	if (!campaign) throw data(null, { status: 404 })
	const back = `/dashboard/admin/codes/${params.campaignId}`
	// The boundary is case-sensitive: only the check is made on a lower-cased copy.
	const type = request.headers.get('content-type') ?? ''

	if (!type.toLowerCase().startsWith('multipart/form-data')) {
		const form = await request.formData()
		if (form.get('intent') !== 'delete') throw data(null, { status: 400 })
		const key = await removeCampaignFile(db, params.campaignId, String(form.get('fileId') ?? ''))
		if (key) await storage.delete(key).catch((error) => logger.warn({ err: error, key }, 'could not delete a campaign file'))
		return redirectWithFlash(back, { type: 'success', key: 'admin.codes.flash.fileRemoved' })
	}

	// The file goes to the storage as it arrives (app/platform/multipart.server.ts): never whole in memory.
	const stored = await storeUploadedFile(request, params.campaignId, storage).catch((error: unknown) => {
		if (error instanceof MultipartError) return 'missing' as const
		throw error
	})
	if (stored === 'too-large' || stored === 'missing') {
		// What is left of the body is not read: the connection closes with the answer.
		const response = await redirectWithFlash(
			back,
			stored === 'too-large'
				? { type: 'error', key: 'admin.codes.flash.fileTooLarge' }
				: { type: 'error', key: 'admin.codes.flash.fileMissing' },
		)
		response.headers.set('Connection', 'close')
		return response
	}
	await addCampaignFile(db, { campaignId: params.campaignId, ...stored })
	return redirectWithFlash(back, { type: 'success', key: 'admin.codes.flash.fileAdded' })
}

class TooLarge extends Error {}

/**
 * Streams the form's `file` field into the storage, under a key the server makes: its stored
 * name, size and type; 'missing' when the form has no file (or an empty one), 'too-large' past
 * FILE_MAX_BYTES (then nothing is kept).
 */
async function storeUploadedFile(
	request: Request,
	campaignId: string,
	storage: Storage,
): Promise<{ storageKey: string; name: string; size: number; contentType: string } | 'missing' | 'too-large'> {
	for await (const part of multipartParts(request.body, request.headers.get('content-type'))) {
		if (part.name !== 'file' || !part.filename) continue
		// Control characters and path separators: never in a stored file name.
		// oxlint-disable-next-line no-control-regex -- matching control characters is the point
		const name = part.filename.replace(/[\u0000-\u001f\u007f/\\]/g, '_').slice(0, 150) || 'fichier'
		const ext = /\.([a-z0-9]{1,8})$/i.exec(name)?.[1]?.toLowerCase() ?? 'bin'
		const storageKey = `codes/${campaignId.toLowerCase().replace(/[^a-z0-9]/g, '')}/${randomToken(12, 'hex')}.${ext}`
		const contentType = part.contentType || 'application/octet-stream'
		let size = 0
		async function* counted() {
			for await (const piece of part.body) {
				size += piece.byteLength
				if (size > FILE_MAX_BYTES) throw new TooLarge()
				yield piece
			}
		}
		try {
			await storage.putStream(storageKey, counted(), { contentType })
		} catch (error) {
			if (error instanceof TooLarge) return 'too-large'
			throw error
		}
		if (size === 0) {
			await storage.delete(storageKey)
			return 'missing'
		}
		return { storageKey, name, size, contentType }
	}
	return 'missing'
}
