import { randomUUID } from 'node:crypto'
import type { Platform } from '#app/platform/platform.server.ts'
import { media } from '#app/platform/db/schema.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { withoutUnsafeCharacters } from '#app/platform/text-field.ts'
import { checkImage, EXTENSION, MIME } from './image-type.server.ts'
import { MEDIA_QUEUE, mediaQueueOptions } from './media-jobs.server.ts'
import { originalKey } from './media-keys.ts'
import { jobsIn } from './media.server.ts'
import { ALT_MAX, MAX_UPLOAD_BYTES, megabytes, MULTIPART_OVERHEAD_BYTES, type MediaKind } from './rules.ts'

export type UploadFailure = { ok: false; status: number; message: string }
export type UploadResult = { ok: true; id: string } | UploadFailure

const fail = (status: number, message: string): UploadFailure => ({ ok: false, status, message })

/**
 * Reads a request body up to `limit` bytes. The declared length is checked before reading
 * anything, and reading stops at the first byte past the limit (a chunked body declares nothing):
 * a 50 MB body is refused without ever being held in memory.
 */
export async function readBodyWithin(
	request: Request,
	limit: number,
): Promise<{ ok: true; bytes: Uint8Array<ArrayBuffer> } | { ok: false }> {
	const declared = request.headers.get('content-length')
	if (declared !== null && Number(declared) > limit) {
		await request.body?.cancel().catch(() => {})
		return { ok: false }
	}
	if (!request.body) return { ok: true, bytes: new Uint8Array() }
	const reader = request.body.getReader()
	const chunks: Uint8Array[] = []
	let total = 0
	for (;;) {
		const { done, value } = await reader.read()
		if (done) break
		total += value.byteLength
		if (total > limit) {
			await reader.cancel().catch(() => {})
			return { ok: false }
		}
		chunks.push(value)
	}
	const bytes = new Uint8Array(total)
	let at = 0
	for (const chunk of chunks) {
		bytes.set(chunk, at)
		at += chunk.byteLength
	}
	return { ok: true, bytes }
}

export interface UploadForm {
	file: Uint8Array
	alt: string | null
}

/**
 * The file (field `file`) and its optional description (field `alt`) of a multipart upload of
 * this kind, within its size limit; a French refusal otherwise.
 */
export async function readUploadForm(request: Request, kind: MediaKind): Promise<{ ok: true; form: UploadForm } | UploadFailure> {
	const t = getT()
	const max = MAX_UPLOAD_BYTES[kind]
	const tooLarge = fail(413, t('media.errors.tooLarge', { max: megabytes(max) }))
	const type = (request.headers.get('content-type') ?? '').toLowerCase()
	if (!type.startsWith('multipart/form-data')) {
		await request.body?.cancel().catch(() => {})
		return fail(415, t('media.errors.malformed'))
	}
	const body = await readBodyWithin(request, max + MULTIPART_OVERHEAD_BYTES)
	if (!body.ok) return tooLarge
	let formData: FormData
	try {
		formData = await new Response(body.bytes, { headers: { 'Content-Type': request.headers.get('content-type')! } }).formData()
	} catch {
		return fail(400, t('media.errors.malformed'))
	}
	const file = formData.get('file')
	if (!(file instanceof Blob) || file.size === 0) return fail(400, t('media.errors.noFile'))
	if (file.size > max) return tooLarge
	const altValue = formData.get('alt')
	const cleanAlt = typeof altValue === 'string' ? withoutUnsafeCharacters(altValue).trim() : ''
	const alt = cleanAlt ? cleanAlt.slice(0, ALT_MAX) : null
	return { ok: true, form: { file: new Uint8Array(await file.arrayBuffer()), alt } }
}

/**
 * Takes an uploaded image: checks its content, keeps the original privately, and records a media
 * row (processing, 0 %) together with the job that makes its renditions, in one transaction.
 */
export async function acceptImage(
	platform: Pick<Platform, 'database' | 'jobs' | 'storage' | 'logger' | 'env'>,
	input: { kind: MediaKind; file: Uint8Array; alt: string | null; userId: string },
): Promise<UploadResult> {
	const t = getT()
	if (input.file.byteLength > MAX_UPLOAD_BYTES[input.kind]) {
		return fail(413, t('media.errors.tooLarge', { max: megabytes(MAX_UPLOAD_BYTES[input.kind]) }))
	}
	const check = await checkImage(input.file)
	if (!check.ok) {
		if (check.reason === 'too-many-pixels') return fail(422, t('media.errors.tooManyPixels', { max: 100 }))
		if (check.reason === 'heic') return fail(415, t('media.errors.heic'))
		return fail(415, t('media.errors.notImage'))
	}
	const { database, jobs, storage, logger } = platform
	const id = randomUUID()
	const key = originalKey(id, EXTENSION[check.type])
	try {
		await storage.put(key, input.file, { contentType: MIME[check.type] })
	} catch (error) {
		logger.error({ err: error }, 'could not store an uploaded image')
		return fail(503, t('media.errors.unavailable'))
	}
	try {
		await jobs.queue(MEDIA_QUEUE, mediaQueueOptions(platform.env))
		await database.db.transaction(async (tx) => {
			await tx.insert(media).values({
				id,
				kind: input.kind,
				status: 'processing',
				progress: 0,
				originalKey: key,
				alt: input.alt,
				createdBy: input.userId,
			})
			await jobs.send(MEDIA_QUEUE, { id }, { db: jobsIn(tx), singletonKey: id })
		})
	} catch (error) {
		logger.error({ err: error }, 'could not record an uploaded image')
		await storage.delete(key).catch(() => {})
		return fail(503, t('media.errors.unavailable'))
	}
	return { ok: true, id }
}
