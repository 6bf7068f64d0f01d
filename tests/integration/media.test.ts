import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { MEDIA_DELETE_QUEUE } from '#app/features/media/media.server.ts'
import { MEDIA_QUEUE } from '#app/features/media/media-jobs.server.ts'
import { publicImage } from '#app/features/media/media.server.ts'
import { processMedia } from '#app/features/media/variants.server.ts'
import { media, user } from '#app/platform/db/schema.ts'
import type { Storage } from '#app/platform/storage/storage.server.ts'
import * as adminMedia from '#app/routes/admin/media.ts'
import * as files from '#app/routes/api/files.ts'
import * as settingsAvatar from '#app/routes/dashboard/settings-avatar.ts'
import * as settings from '#app/routes/dashboard/settings.tsx'
import * as mediaFile from '#app/routes/public/media-file.ts'
import { databaseKind } from '../support/database.ts'
import { signUpConfirmed } from '../support/members.ts'
import { startTestPlatform, type TestPlatform } from '../support/platform.ts'
import { formPost, get, outcome, routeArgs, SITE_URL, thrown } from '../support/requests.ts'

/*
 * Image uploads end to end on a real database and the local storage: the upload routes with the
 * Request a browser sends (multipart), the checks by content and size, the rendition job run as
 * its worker runs it, GET /media/<key> and the signed /files/ links. No job worker runs in this
 * file: each test runs the job itself, when it wants (media-worker.test.ts runs the real workers).
 */
const PASSWORD = 'cheval agrafe pile correcte'
const MB = 1024 * 1024

let env: TestPlatform
beforeAll(async () => {
	env = await startTestPlatform()
})
afterAll(async () => {
	await env?.stop()
})
afterEach(() => {
	vi.useRealTimers()
})

const platform = () => env.platform
const db = () => env.platform.database.db
const deps = () => ({ db: db(), storage: platform().storage, logger: platform().logger })

interface Member {
	id: string
	email: string
	cookie: string
}

let counter = 0
async function member(role: 'user' | 'admin' = 'user'): Promise<Member> {
	counter += 1
	const email = `image${counter}-${randomUUID().slice(0, 8)}@exemple.fr`
	const cookie = await signUpConfirmed({ name: `Membre ${counter}`, email, password: PASSWORD })
	const [row] = await db().select({ id: user.id }).from(user).where(eq(user.email, email))
	if (role === 'admin') await db().update(user).set({ role: 'admin' }).where(eq(user.id, row!.id))
	return { id: row!.id, email, cookie }
}

/** A multipart upload as the browser's FormData sends it. */
function uploadRequest(path: string, file: Uint8Array, options: { cookie?: string; name?: string; type?: string; alt?: string } = {}) {
	const form = new FormData()
	form.append('file', new Blob([file as Uint8Array<ArrayBuffer>], { type: options.type ?? 'image/jpeg' }), options.name ?? 'photo.jpg')
	if (options.alt) form.append('alt', options.alt)
	const headers = new Headers({ origin: SITE_URL, 'sec-fetch-site': 'same-origin', accept: 'application/json', 'user-agent': 'vitest' })
	if (options.cookie) headers.set('cookie', options.cookie)
	return new Request(new URL(path, SITE_URL), { method: 'POST', body: form, headers })
}

async function uploadCover(admin: Member, file: Uint8Array, options: { name?: string; type?: string; alt?: string } = {}) {
	const request = uploadRequest('/dashboard/admin/media', file, { cookie: admin.cookie, ...options })
	return outcome(await adminMedia.action(routeArgs(request, '/dashboard/admin/media/:id?')))
}

async function coverStatus(admin: Member, id: string) {
	return outcome(
		await adminMedia.loader(
			routeArgs(get(`/dashboard/admin/media/${id}`, { cookie: admin.cookie }), '/dashboard/admin/media/:id?', { id }),
		),
	)
}

async function getMedia(key: string, headers: Record<string, string> = {}) {
	const request = get(`/media/${key}`)
	for (const [name, value] of Object.entries(headers)) request.headers.set(name, value)
	return (await mediaFile.loader(routeArgs(request, '/media/*', { '*': key }))) as Response
}

async function row(id: string) {
	const [found] = await db().select().from(media).where(eq(media.id, id))
	return found
}

/** A photo as a phone takes it: EXIF with the camera, the place (GPS) and the date. */
async function photoWithGps(width: number, height: number, format: 'png' | 'jpeg' = 'png') {
	const image = sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } })
		.composite([
			{
				input: { create: { width: Math.round(width / 2), height: Math.round(height / 2), channels: 3, background: '#2040c0' } },
				gravity: 'northwest',
			},
		])
		.withExif({
			IFD0: { Make: 'Appareil', Model: 'Test 1', Copyright: 'Nina' },
			IFD2: { DateTimeOriginal: '2026:03:14 21:30:00' },
			IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 24/1', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 3/1' },
		})
	return new Uint8Array(format === 'png' ? await image.png().toBuffer() : await image.jpeg().toBuffer())
}

/** Whether EXIF data holds a GPS directory (its pointer, tag 0x8825, in either byte order). */
function hasGps(exif: Buffer | undefined): boolean {
	return Boolean(exif && (exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88]))))
}

describe(`image uploads on ${databaseKind()}`, () => {
	describe('who may upload', () => {
		it('sends a signed-out visitor to sign in, and refuses a member the covers', async () => {
			const png = await photoWithGps(64, 48)
			const anonymous = await thrown(() =>
				adminMedia.action(routeArgs(uploadRequest('/dashboard/admin/media', png), '/dashboard/admin/media/:id?')),
			)
			expect(anonymous.status).toBe(302)
			const someone = await member()
			const refused = await thrown(() =>
				adminMedia.action(
					routeArgs(uploadRequest('/dashboard/admin/media', png, { cookie: someone.cookie }), '/dashboard/admin/media/:id?'),
				),
			)
			expect(refused.status).toBe(403)
			const avatar = await thrown(() =>
				settingsAvatar.action(routeArgs(uploadRequest('/dashboard/settings/avatar', png), '/dashboard/settings/avatar/:id?')),
			)
			expect(avatar.status).toBe(302)
			expect(await db().select().from(media)).toEqual([])
		})
	})

	describe('checks by content and size', () => {
		it('refuses a text file named .jpg, with the French message', async () => {
			const admin = await member('admin')
			const text = new TextEncoder().encode('Ceci est une liste de courses, pas une photo.\n'.repeat(20))
			const result = await uploadCover(admin, text, { name: 'affiche.jpg', type: 'image/jpeg' })
			expect(result.status).toBe(415)
			expect(result.body).toEqual({ error: 'Ce fichier n’est pas une image (JPEG, PNG, WebP ou AVIF).' })
			// Nor an SVG, nor a GIF, nor a PNG signature on garbage: only what sharp can read as what it says.
			const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>')
			expect((await uploadCover(admin, svg, { name: 'logo.png', type: 'image/png' })).status).toBe(415)
			const gif = new Uint8Array(
				await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
					.gif()
					.toBuffer(),
			)
			expect((await uploadCover(admin, gif, { name: 'anim.webp', type: 'image/webp' })).status).toBe(415)
			const fakePng = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Uint8Array(200).fill(7)])
			expect((await uploadCover(admin, fakePng, { name: 'x.png', type: 'image/png' })).status).toBe(415)
			expect(await db().select().from(media)).toEqual([])
		})

		it('takes JPEG, PNG, WebP and AVIF whatever their names say', async () => {
			const admin = await member('admin')
			const base = sharp({ create: { width: 40, height: 30, channels: 3, background: '#336699' } })
			for (const [format, name] of [
				['jpeg', 'a.png'],
				['png', 'b.txt'],
				['webp', 'c'],
				['avif', 'd.jpg'],
			] as const) {
				const file = new Uint8Array(await base.clone().toFormat(format).toBuffer())
				const result = await uploadCover(admin, file, { name, type: 'application/octet-stream' })
				expect(result.status, format).toBe(201)
				const id = (result.body as { id: string }).id
				expect((await row(id))!.originalKey).toBe(`originals/${id}.${format === 'jpeg' ? 'jpg' : format}`)
			}
		})

		it('refuses a body over the limit from its Content-Length, without reading it', async () => {
			const admin = await member('admin')
			let pulled = 0
			const body = new ReadableStream<Uint8Array>({
				pull(controller) {
					pulled += 64 * 1024
					controller.enqueue(new Uint8Array(64 * 1024))
				},
			})
			const request = new Request(new URL('/dashboard/admin/media', SITE_URL), {
				method: 'POST',
				body,
				duplex: 'half',
				headers: {
					cookie: admin.cookie,
					origin: SITE_URL,
					'content-type': 'multipart/form-data; boundary=----limite',
					'content-length': String(50 * MB),
				},
			} as RequestInit)
			expect(request.headers.get('content-length')).toBe(String(50 * MB))
			const result = await outcome(await adminMedia.action(routeArgs(request, '/dashboard/admin/media/:id?')))
			expect(result.status).toBe(413)
			expect(result.body).toEqual({ error: 'Ce fichier est trop lourd : 15 Mo au maximum.' })
			expect(result.headers.get('connection')).toBe('close')
			// The stream's own read-ahead, nothing more.
			expect(pulled).toBeLessThanOrEqual(2 * 64 * 1024)
		})

		it('stops reading a body without a length (chunked) right past the limit', async () => {
			const admin = await member('admin')
			let pulled = 0
			const chunk = new Uint8Array(256 * 1024)
			const body = new ReadableStream<Uint8Array>({
				pull(controller) {
					if (pulled >= 50 * MB) return controller.close()
					pulled += chunk.byteLength
					controller.enqueue(chunk)
				},
			})
			const request = new Request(new URL('/dashboard/admin/media', SITE_URL), {
				method: 'POST',
				body,
				duplex: 'half',
				headers: { cookie: admin.cookie, origin: SITE_URL, 'content-type': 'multipart/form-data; boundary=----limite' },
			} as RequestInit)
			const result = await outcome(await adminMedia.action(routeArgs(request, '/dashboard/admin/media/:id?')))
			expect(result.status).toBe(413)
			expect(pulled).toBeLessThan(16 * MB)
			expect(pulled).toBeGreaterThan(15 * MB)
		})

		it('refuses a 6 MB avatar (5 MB at most)', async () => {
			const someone = await member()
			const big = new Uint8Array(6 * MB)
			big.set(await photoWithGps(32, 32))
			const request = uploadRequest('/dashboard/settings/avatar', big, { cookie: someone.cookie })
			const result = await outcome(await settingsAvatar.action(routeArgs(request, '/dashboard/settings/avatar/:id?')))
			expect(result.status).toBe(413)
			expect(result.body).toEqual({ error: 'Ce fichier est trop lourd : 5 Mo au maximum.' })
		})

		it('answers a malformed multipart body and a missing file in French, never with a 500', async () => {
			const admin = await member('admin')
			const broken = new Request(new URL('/dashboard/admin/media', SITE_URL), {
				method: 'POST',
				body: '------x\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\n\r\ntronqué',
				headers: { cookie: admin.cookie, origin: SITE_URL, 'content-type': 'multipart/form-data; boundary=----x' },
			})
			const malformed = await outcome(await adminMedia.action(routeArgs(broken, '/dashboard/admin/media/:id?')))
			expect(malformed.status).toBe(400)
			expect(malformed.body).toEqual({ error: 'L’envoi est incomplet ou mal formé. Réessayez.' })
			const form = new FormData()
			form.append('alt', 'rien')
			const empty = new Request(new URL('/dashboard/admin/media', SITE_URL), {
				method: 'POST',
				body: form,
				headers: { cookie: admin.cookie, origin: SITE_URL },
			})
			const missing = await outcome(await adminMedia.action(routeArgs(empty, '/dashboard/admin/media/:id?')))
			expect(missing.status).toBe(400)
			expect(missing.body).toEqual({ error: 'Choisissez une image à envoyer.' })
		})
	})

	describe('the rendition job', () => {
		it('stores the original privately, records the image processing at 0 %, and queues its job', async () => {
			const admin = await member('admin')
			const png = await photoWithGps(1200, 800)
			const result = await uploadCover(admin, png, { name: 'concert.png', alt: 'La scène du Trianon' })
			expect(result.status).toBe(201)
			const accepted = result.body as { id: string; status: string; progress: number; statusUrl: string }
			expect(accepted).toMatchObject({ status: 'processing', progress: 0, statusUrl: `/dashboard/admin/media/${accepted.id}` })
			expect(await row(accepted.id)).toMatchObject({
				kind: 'cover',
				status: 'processing',
				progress: 0,
				alt: 'La scène du Trianon',
				createdBy: admin.id,
			})
			const jobs = await (await platform().jobs.boss()).findJobs(MEDIA_QUEUE, { key: accepted.id })
			expect(jobs.map((j) => j.data)).toEqual([{ id: accepted.id }])
			// The original is kept as sent (its GPS too, privately); /media/ never serves it.
			const original = await platform().storage.read(`originals/${accepted.id}.png`)
			expect(Buffer.from(original!).equals(Buffer.from(png))).toBe(true)
			expect((await getMedia(`originals/${accepted.id}.png`)).status).toBe(404)
			expect(await publicImage(db(), accepted.id)).toBeNull()
		})

		it('makes AVIF, WebP and JPEG at each width, upright and without any metadata, with progress up to 100', async () => {
			const admin = await member('admin')
			const png = await photoWithGps(1200, 800)
			expect(hasGps((await sharp(png).metadata()).exif)).toBe(true)
			const { id } = (await uploadCover(admin, png)).body as { id: string }

			// Progress as seen at each file written.
			const seen: number[] = []
			const storage = platform().storage
			const watching: Storage = {
				...storage,
				put: async (key, body, options) => {
					seen.push((await row(id))!.progress)
					return storage.put(key, body, options)
				},
			}
			expect(await processMedia({ ...deps(), storage: watching }, id, { isLast: false })).toBe('ready')
			expect(seen.length).toBe(9)
			expect(seen).toEqual([...seen].sort((a, b) => a - b))
			expect(seen[0]).toBeGreaterThan(0)

			const done = (await row(id))!
			expect(done).toMatchObject({ status: 'ready', progress: 100, width: 1200, height: 800, error: null })
			const widths = [...new Set(done.variants.map((v) => v.width))].sort((a, b) => a - b)
			expect(widths).toEqual([480, 800, 1200])
			expect(done.variants.map((v) => v.format).sort()).toEqual(['avif', 'avif', 'avif', 'jpeg', 'jpeg', 'jpeg', 'webp', 'webp', 'webp'])
			for (const variant of done.variants) {
				const file = await platform().storage.read(variant.key)
				expect(file, variant.key).not.toBeNull()
				expect(file!.byteLength).toBe(variant.bytes)
				const meta = await sharp(file!).metadata()
				expect(meta.format).toBe(variant.format === 'avif' ? 'heif' : variant.format)
				expect(meta.width).toBe(variant.width)
				expect(meta.height).toBe(variant.height)
				expect(variant.height).toBe(Math.round((variant.width * 800) / 1200))
				expect(meta.exif, `${variant.key} has EXIF`).toBeUndefined()
				expect(meta.xmp).toBeUndefined()
				expect(meta.iptc).toBeUndefined()
				expect(hasGps(meta.exif)).toBe(false)
			}
			const image = await publicImage(db(), id)
			expect(image).toMatchObject({ width: 1200, height: 800 })
			expect(image!.variants.every((v) => v.url.startsWith(`/media/img/${id}/`))).toBe(true)
		})

		it('turns a photo upright by its EXIF orientation before cutting it', async () => {
			const admin = await member('admin')
			// Stored 800 × 600, to be shown turned a quarter (orientation 6): 600 × 800.
			const sideways = new Uint8Array(
				await sharp({ create: { width: 800, height: 600, channels: 3, background: '#aa3355' } })
					.jpeg()
					.withMetadata({ orientation: 6 })
					.toBuffer(),
			)
			expect((await sharp(sideways).metadata()).orientation).toBe(6)
			const { id } = (await uploadCover(admin, sideways)).body as { id: string }
			expect(await processMedia(deps(), id, { isLast: false })).toBe('ready')
			const done = (await row(id))!
			expect({ width: done.width, height: done.height }).toEqual({ width: 600, height: 800 })
			const jpeg = done.variants.find((v) => v.format === 'jpeg' && v.width === 480)!
			const meta = await sharp((await platform().storage.read(jpeg.key))!).metadata()
			expect({ width: meta.width, height: meta.height, orientation: meta.orientation }).toEqual({
				width: 480,
				height: 640,
				orientation: undefined,
			})
		})

		it('cuts an avatar square at 96, 192 and 384 pixels', async () => {
			const someone = await member()
			const photo = await photoWithGps(900, 500, 'jpeg')
			const request = uploadRequest('/dashboard/settings/avatar', photo, { cookie: someone.cookie })
			const result = await outcome(await settingsAvatar.action(routeArgs(request, '/dashboard/settings/avatar/:id?')))
			expect(result.status).toBe(201)
			const { id, statusUrl } = result.body as { id: string; statusUrl: string }
			expect(statusUrl).toBe(`/dashboard/settings/avatar/${id}`)
			expect(await processMedia(deps(), id, { isLast: false })).toBe('ready')
			const done = (await row(id))!
			expect(done.variants.map((v) => `${v.format} ${v.width}×${v.height}`).sort()).toEqual([
				'avif 192×192',
				'avif 384×384',
				'avif 96×96',
				'jpeg 192×192',
				'jpeg 384×384',
				'jpeg 96×96',
				'webp 192×192',
				'webp 384×384',
				'webp 96×96',
			])
			for (const variant of done.variants)
				expect((await sharp((await platform().storage.read(variant.key))!).metadata()).exif).toBeUndefined()
		})

		it('ends a corrupt image failed, with its reason in French, at once', async () => {
			const admin = await member('admin')
			const whole = await photoWithGps(1000, 700, 'jpeg')
			// The header is intact (the upload's checks pass), the picture is cut in the middle.
			const truncated = whole.subarray(0, Math.floor(whole.byteLength * 0.6))
			const upload = await uploadCover(admin, truncated)
			expect(upload.status).toBe(201)
			const { id } = upload.body as { id: string }
			expect(await processMedia(deps(), id, { isLast: false })).toBe('failed')
			expect(await row(id)).toMatchObject({
				status: 'failed',
				error: 'Cette image est endommagée ou incomplète : elle n’a pas pu être lue. Essayez avec une autre.',
			})
			const status = await coverStatus(admin, id)
			expect(status.body).toMatchObject({ id, status: 'failed', error: expect.stringContaining('endommagée'), image: null })
			// Running the job again changes nothing.
			expect(await processMedia(deps(), id, { isLast: false })).toBe('skipped')
		})

		it('resumes after a crash where it stopped, and fails with a reason after its last attempt', async () => {
			const admin = await member('admin')
			const { id } = (await uploadCover(admin, await photoWithGps(1200, 700))).body as { id: string }
			const storage = platform().storage
			let writes = 0
			const crashing: Storage = {
				...storage,
				put: async (key, body, options) => {
					if (++writes > 4) throw new Error('disque plein')
					return storage.put(key, body, options)
				},
			}
			await expect(processMedia({ ...deps(), storage: crashing }, id, { isLast: false })).rejects.toThrow('disque plein')
			const halfway = (await row(id))!
			expect(halfway.status).toBe('processing')
			expect(halfway.variants).toHaveLength(4)
			expect(halfway.progress).toBeGreaterThan(0)
			expect(halfway.progress).toBeLessThan(100)

			// The retry writes only what is missing.
			const written: string[] = []
			const counting: Storage = { ...storage, put: async (key, body, options) => (written.push(key), storage.put(key, body, options)) }
			expect(await processMedia({ ...deps(), storage: counting }, id, { isLast: false })).toBe('ready')
			expect(written).toHaveLength(5)
			expect(written.some((key) => halfway.variants.some((v) => v.key === key))).toBe(false)
			expect((await row(id))!.variants).toHaveLength(9)

			// Another image whose storage never comes back: failed after the last attempt.
			const { id: other } = (await uploadCover(admin, await photoWithGps(300, 200))).body as { id: string }
			const broken: Storage = { ...storage, put: async () => Promise.reject(new Error('S3 injoignable')) }
			await expect(processMedia({ ...deps(), storage: broken }, other, { isLast: false })).rejects.toThrow('S3 injoignable')
			expect(await processMedia({ ...deps(), storage: broken }, other, { isLast: true })).toBe('failed')
			expect((await row(other))!.error).toBe('La préparation de l’image a échoué. Réessayez, ou essayez avec une autre image.')
		})
	})

	describe('status endpoints', () => {
		it('tells an admin how far an image is, and a member only about their own avatar', async () => {
			const admin = await member('admin')
			const { id } = (await uploadCover(admin, await photoWithGps(600, 360))).body as { id: string }
			expect((await coverStatus(admin, id)).body).toEqual({
				id,
				kind: 'cover',
				status: 'processing',
				progress: 0,
				error: null,
				image: null,
			})
			await processMedia(deps(), id, { isLast: false })
			const ready = await coverStatus(admin, id)
			expect(ready.headers.get('cache-control')).toBe('private, no-store')
			expect(ready.body).toMatchObject({ id, status: 'ready', progress: 100, image: { width: 600, height: 360 } })
			expect((await coverStatus(admin, randomUUID())).status).toBe(404)
			expect((await coverStatus(admin, '../../etc/passwd')).status).toBe(404)

			const someone = await member()
			const forbidden = await thrown(() =>
				adminMedia.loader(
					routeArgs(get(`/dashboard/admin/media/${id}`, { cookie: someone.cookie }), '/dashboard/admin/media/:id?', { id }),
				),
			)
			expect(forbidden.status).toBe(403)
			const avatarStatus = (cookie: string, mediaId: string) =>
				settingsAvatar
					.loader(routeArgs(get(`/dashboard/settings/avatar/${mediaId}`, { cookie }), '/dashboard/settings/avatar/:id?', { id: mediaId }))
					.then(outcome)
			// A cover is not their avatar; someone else's avatar is not either.
			expect((await avatarStatus(someone.cookie, id)).status).toBe(404)
			const other = await member()
			const request = uploadRequest('/dashboard/settings/avatar', await photoWithGps(200, 200), { cookie: other.cookie })
			const { id: avatarId } = (await outcome(await settingsAvatar.action(routeArgs(request, '/dashboard/settings/avatar/:id?')))).body as {
				id: string
			}
			expect((await avatarStatus(other.cookie, avatarId)).body).toMatchObject({ id: avatarId, kind: 'avatar', status: 'processing' })
			expect((await avatarStatus(someone.cookie, avatarId)).status).toBe(404)
		})
	})

	describe('GET /media/<key>', () => {
		let key: string
		beforeAll(async () => {
			const admin = await member('admin')
			const { id } = (await uploadCover(admin, await photoWithGps(600, 400))).body as { id: string }
			await processMedia(deps(), id, { isLast: false })
			key = (await row(id))!.variants.find((v) => v.format === 'avif' && v.width === 480)!.key
		})

		it('serves a rendition immutable, with its type, length and ETag', async () => {
			const response = await getMedia(key)
			expect(response.status).toBe(200)
			expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
			expect(response.headers.get('content-type')).toBe('image/avif')
			expect(response.headers.get('accept-ranges')).toBe('bytes')
			expect(response.headers.get('x-content-type-options')).toBe('nosniff')
			const body = new Uint8Array(await response.arrayBuffer())
			expect(response.headers.get('content-length')).toBe(String(body.byteLength))
			expect((await sharp(body).metadata()).width).toBe(480)
			const etag = response.headers.get('etag')!
			expect(etag).toMatch(/^"[^"]+"$/)
			const again = await getMedia(key, { 'if-none-match': etag })
			expect(again.status).toBe(304)
		})

		it('honours Range requests', async () => {
			const size = Number((await getMedia(key)).headers.get('content-length'))
			const first = await getMedia(key, { range: 'bytes=0-99' })
			expect(first.status).toBe(206)
			expect(first.headers.get('content-range')).toBe(`bytes 0-99/${size}`)
			expect(first.headers.get('content-length')).toBe('100')
			expect((await first.arrayBuffer()).byteLength).toBe(100)
			const tail = await getMedia(key, { range: 'bytes=-10' })
			expect(tail.headers.get('content-range')).toBe(`bytes ${size - 10}-${size - 1}/${size}`)
			expect((await tail.arrayBuffer()).byteLength).toBe(10)
			const beyond = await getMedia(key, { range: `bytes=${size}-` })
			expect(beyond.status).toBe(416)
			expect(beyond.headers.get('content-range')).toBe(`bytes */${size}`)
		})

		it('answers 404 to anything that is not a rendition key, a path traversal first of all', async () => {
			const id = key.split('/')[1]!
			for (const bad of [
				'../../../etc/passwd',
				'img/../../../../etc/passwd',
				`img/${id}/../../originals/${id}.png`,
				'%2e%2e/%2e%2e/etc/passwd',
				'..%2f..%2fetc%2fpasswd',
				`originals/${id}.png`,
				`img/${id}/480.png`,
				`img/${id}/480.AVIF`,
				`img/${id}/0480.avif`,
				`img/${id.toUpperCase()}/480.avif`,
				`img/${id}/480.avif/`,
				`/img/${id}/480.avif`,
				`img/${randomUUID()}/480.avif`,
				'',
			]) {
				const response = await getMedia(bad)
				expect(response.status, bad).toBe(404)
				expect(await response.text()).toBe('Fichier introuvable.')
			}
		})
	})

	describe('signed links to local files', () => {
		it('serves a file while the link is valid, and refuses it changed or expired', async () => {
			const storage = platform().storage
			await storage.put('exports/notes.txt', new TextEncoder().encode('programme du concert'), { contentType: 'text/plain' })
			const url = new URL(await storage.signedUrl('exports/notes.txt', { expiresInSeconds: 60, downloadName: 'programme.txt' }))
			const fetchFile = async (target: URL) => {
				const key = target.pathname.replace(/^\/files\//, '')
				return (await files.loader(routeArgs(get(target.pathname + target.search), '/files/*', { '*': key }))) as Response
			}
			const ok = await fetchFile(url)
			expect(ok.status).toBe(200)
			expect(await ok.text()).toBe('programme du concert')
			expect(ok.headers.get('content-disposition')).toContain('filename="programme.txt"')
			expect(ok.headers.get('cache-control')).toBe('private, no-store')

			const otherFile = new URL(url)
			otherFile.pathname = '/files/exports/other.txt'
			expect((await fetchFile(otherFile)).status).toBe(403)
			const tampered = new URL(url)
			tampered.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600))
			expect((await fetchFile(tampered)).status).toBe(403)
			expect(((await files.loader(routeArgs(get('/files/x'), '/files/*', { '*': '../../etc/passwd' }))) as Response).status).toBe(404)

			vi.useFakeTimers({ toFake: ['Date'] })
			vi.setSystemTime(Date.now() + 61_000)
			const expired = await fetchFile(url)
			expect(expired.status).toBe(410)
			expect(await expired.text()).toBe('Ce lien a expiré\u00a0: demandez-en un nouveau.')
		})
	})

	describe('avatars', () => {
		async function sendAvatar(someone: Member, width = 300, height = 300) {
			const request = uploadRequest('/dashboard/settings/avatar', await photoWithGps(width, height), { cookie: someone.cookie })
			const result = await outcome(await settingsAvatar.action(routeArgs(request, '/dashboard/settings/avatar/:id?')))
			expect(result.status).toBe(201)
			return (result.body as { id: string }).id
		}

		it('shows the latest ready avatar on the settings page, and removes it', async () => {
			const someone = await member()
			const first = await sendAvatar(someone)
			await processMedia(deps(), first, { isLast: false })
			const page = (await settings.loader(routeArgs(get('/dashboard/settings', { cookie: someone.cookie }), '/dashboard/settings'))) as {
				avatar: { id: string; width: number } | null
			}
			expect(page.avatar).toMatchObject({ id: first, width: 300, height: 300 })

			const remove = formPost('/dashboard/settings/avatar', { intent: 'remove' }, { cookie: someone.cookie })
			const removed = await outcome(await settingsAvatar.action(routeArgs(remove, '/dashboard/settings/avatar/:id?')))
			expect(removed.status).toBe(302)
			expect(removed.headers.get('location')).toBe('/dashboard/settings')
			expect(await row(first)).toBeUndefined()
			// Its files go by a job, queued with the rows' deletion.
			const deletions = await (await platform().jobs.boss()).findJobs<{ keys: string[] }>(MEDIA_DELETE_QUEUE)
			expect(deletions.some((job) => job.data.keys.includes(`originals/${first}.png`))).toBe(true)
		})

		it('erases the member’s avatars with their account', async () => {
			const someone = await member()
			const id = await sendAvatar(someone)
			await processMedia(deps(), id, { isLast: false })
			const request = formPost(
				'/dashboard/settings',
				{ intent: 'delete-account', confirmation: 'SUPPRIMER', password: PASSWORD },
				{ cookie: someone.cookie },
			)
			const result = await outcome(await settings.action(routeArgs(request, '/dashboard/settings')))
			expect(result.status).toBe(302)
			expect(await row(id)).toBeUndefined()
			const deletions = await (await platform().jobs.boss()).findJobs<{ keys: string[] }>(MEDIA_DELETE_QUEUE)
			expect(deletions.some((job) => job.data.keys.includes(`originals/${id}.png`) && job.data.keys.length === 10)).toBe(true)
		})
	})
})
