import { randomBytes } from 'node:crypto'
import { data } from 'react-router'
import type { Route } from './+types/code-files'
import { requireAdmin } from '#app/features/accounts/session.server.ts'
import { addCampaignFile, getCampaign, removeCampaignFile } from '#app/features/codes/campaigns.server.ts'
import { FILE_MAX_BYTES } from '#app/features/codes/rules.ts'
import { readBodyWithin } from '#app/features/media/upload.server.ts'
import { redirectWithFlash } from '#app/platform/flash.server.ts'
import { getPlatform } from '#app/platform/platform.server.ts'

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

	const body = await readBodyWithin(request, FILE_MAX_BYTES + 64 * 1024)
	if (!body.ok) return redirectWithFlash(back, { type: 'error', key: 'admin.codes.flash.fileTooLarge' })
	let file: FormDataEntryValue | null = null
	try {
		file = (await new Response(body.bytes, { headers: { 'Content-Type': type } }).formData()).get('file')
	} catch {
		file = null
	}
	if (!(file instanceof File) || file.size === 0) return redirectWithFlash(back, { type: 'error', key: 'admin.codes.flash.fileMissing' })
	// Control characters and path separators: never in a stored file name.
	// oxlint-disable-next-line no-control-regex -- matching control characters is the point
	const name = file.name.replace(/[\u0000-\u001f\u007f/\\]/g, '_').slice(0, 150) || 'fichier'
	const ext = /\.([a-z0-9]{1,8})$/i.exec(name)?.[1]?.toLowerCase() ?? 'bin'
	const key = `codes/${params.campaignId.toLowerCase().replace(/[^a-z0-9]/g, '')}/${randomBytes(12).toString('hex')}.${ext}`
	await storage.put(key, new Uint8Array(await file.arrayBuffer()), { contentType: file.type || 'application/octet-stream' })
	await addCampaignFile(db, {
		campaignId: params.campaignId,
		storageKey: key,
		name,
		size: file.size,
		contentType: file.type || 'application/octet-stream',
	})
	return redirectWithFlash(back, { type: 'success', key: 'admin.codes.flash.fileAdded' })
}
