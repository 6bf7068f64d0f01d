import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { startMediaWorkers } from '#app/features/media/media-jobs.server.ts'
import type { MediaStatus } from '#app/features/media/rules.ts'
import { media, user } from '#app/platform/db/schema.ts'
import * as adminMedia from '#app/routes/admin/media.ts'
import * as settingsAvatar from '#app/routes/dashboard/settings-avatar.ts'
import * as settings from '#app/routes/dashboard/settings.tsx'
import * as mediaFile from '#app/routes/public/media-file.ts'
import { listStoredFiles } from '#app/platform/storage/list.server.ts'
import translation from '../../public/locales/fr-FR/translation.json'
import { databaseKind } from '../support/database.ts'
import { signUpConfirmed } from '../support/members.ts'
import { startTestPlatform, type TestPlatform } from '../support/platform.ts'
import { startTestS3, type TestS3 } from '../support/s3.ts'
import { formPost, get, outcome, routeArgs, SITE_URL } from '../support/requests.ts'

/*
 * The media workers as the server starts them (pg-boss on the test database), with the site on
 * S3 storage (an in-process s3rver): an upload is processed by the worker alone, its renditions
 * are served from the bucket, and replaced or erased images leave the bucket too.
 */
const PASSWORD = 'cheval agrafe pile correcte'

let s3: TestS3
let env: TestPlatform
beforeAll(async () => {
	s3 = await startTestS3()
	// A rendition job that failed is tried again 5 s later rather than 15 (then 10, 20…), found by a
	// worker that looks every second rather than at its 30 s safety poll: the test of the retry below
	// waits for one, with S3 back after ~2.5 s.
	env = await startTestPlatform({ env: { ...s3.env, TEST_MEDIA_RETRY_DELAY_SECONDS: '5' } })
	await startMediaWorkers(env.platform)
})
afterAll(async () => {
	await env?.stop()
	await s3?.close()
})

const db = () => env.platform.database.db

let counter = 0
async function member(role: 'user' | 'admin' = 'user') {
	counter += 1
	const email = `worker${counter}-${randomUUID().slice(0, 8)}@exemple.fr`
	const cookie = await signUpConfirmed({ name: `Membre ${counter}`, email, password: PASSWORD })
	const [row] = await db().select({ id: user.id }).from(user).where(eq(user.email, email))
	if (role === 'admin') await db().update(user).set({ role: 'admin' }).where(eq(user.id, row!.id))
	return { id: row!.id, cookie }
}

function upload(path: string, file: Uint8Array, cookie: string) {
	const form = new FormData()
	form.append('file', new Blob([file as Uint8Array<ArrayBuffer>], { type: 'image/png' }), 'image.png')
	return new Request(new URL(path, SITE_URL), {
		method: 'POST',
		body: form,
		headers: { cookie, origin: SITE_URL, accept: 'application/json' },
	})
}

async function picture(width: number, height: number) {
	return new Uint8Array(
		await sharp({ create: { width, height, channels: 3, background: '#e0a020' } })
			.png()
			.toBuffer(),
	)
}

/** Polls as the upload field does, once a second, until the image is ready or failed. */
function settled(read: () => Promise<MediaStatus>, timeoutMs = 60_000): Promise<MediaStatus> {
	return vi.waitFor(
		async () => {
			const status = await read()
			if (status.status === 'processing') throw new Error(`still processing (${status.progress} %)`)
			return status
		},
		{ timeout: timeoutMs, interval: 1_000 },
	)
}

function until(check: () => Promise<boolean>, timeoutMs = 30_000) {
	return vi.waitFor(
		async () => {
			if (!(await check())) throw new Error('condition not met yet')
		},
		{ timeout: timeoutMs, interval: 500 },
	)
}

const inBucket = async (key: string) => (await env.platform.storage.stat(key)) !== null

describe(`media workers on ${databaseKind()} with S3 storage`, () => {
	it('stores on S3, and the worker makes the renditions that /media/ then serves from the bucket', async () => {
		expect(env.platform.storage.kind).toBe('s3')
		const admin = await member('admin')
		const accepted = await outcome(
			await adminMedia.action(
				routeArgs(upload('/dashboard/admin/media', await picture(1000, 500), admin.cookie), '/dashboard/admin/media/:id?'),
			),
		)
		expect(accepted.status).toBe(201)
		const { id } = accepted.body as { id: string }
		const status = await settled(async () => {
			const answer = await adminMedia.loader(
				routeArgs(get(`/dashboard/admin/media/${id}`, { cookie: admin.cookie }), '/dashboard/admin/media/:id?', { id }),
			)
			return (await outcome(answer)).body as MediaStatus
		})
		// 480, 800 and the original's own 1000 (more than a fifth over 800), in three formats.
		expect(status).toMatchObject({ status: 'ready', progress: 100, image: { width: 1000, height: 500 } })
		expect(status.image!.variants).toHaveLength(9)
		expect(await inBucket(`originals/${id}.png`)).toBe(true)

		const webp = status.image!.variants.find((v) => v.format === 'webp' && v.width === 800)!
		const key = webp.url.replace(/^\/media\//, '')
		const response = (await mediaFile.loader(routeArgs(get(webp.url), '/media/*', { '*': key }))) as Response
		expect(response.status).toBe(200)
		expect(response.headers.get('content-type')).toBe('image/webp')
		expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
		expect((await sharp(new Uint8Array(await response.arrayBuffer())).metadata()).width).toBe(800)
		const ranged = get(webp.url)
		ranged.headers.set('range', 'bytes=0-11')
		const part = (await mediaFile.loader(routeArgs(ranged, '/media/*', { '*': key }))) as Response
		expect(part.status).toBe(206)
		// A WebP file starts with RIFF….WEBP.
		expect(new TextDecoder().decode(new Uint8Array(await part.arrayBuffer())).replace(/[^A-Z]/g, '')).toBe('RIFFWEBP')
	})

	it('keeps one avatar: a new one ready removes the old one, files included; account deletion removes the last', async () => {
		const someone = await member()
		const send = async () => {
			const result = await outcome(
				await settingsAvatar.action(
					routeArgs(upload('/dashboard/settings/avatar', await picture(400, 400), someone.cookie), '/dashboard/settings/avatar/:id?'),
				),
			)
			const { id } = result.body as { id: string }
			const status = await settled(async () => {
				const answer = await settingsAvatar.loader(
					routeArgs(get(`/dashboard/settings/avatar/${id}`, { cookie: someone.cookie }), '/dashboard/settings/avatar/:id?', { id }),
				)
				return (await outcome(answer)).body as MediaStatus
			})
			expect(status.status).toBe('ready')
			return { id, keys: [`originals/${id}.png`, ...status.image!.variants.map((v) => v.url.replace(/^\/media\//, ''))] }
		}
		const first = await send()
		for (const key of first.keys) expect(await inBucket(key), key).toBe(true)
		const second = await send()
		await until(async () => (await db().select().from(media).where(eq(media.id, first.id))).length === 0)
		await until(async () => !(await Promise.all(first.keys.map(inBucket))).some(Boolean))
		for (const key of second.keys) expect(await inBucket(key), key).toBe(true)

		const request = formPost(
			'/dashboard/settings',
			{ intent: 'delete-account', confirmation: 'SUPPRIMER', password: PASSWORD },
			{ cookie: someone.cookie },
		)
		expect((await outcome(await settings.action(routeArgs(request, '/dashboard/settings')))).status).toBe(302)
		await until(async () => !(await Promise.all(second.keys.map(inBucket))).some(Boolean))
		expect(await db().select().from(media).where(eq(media.id, second.id))).toEqual([])
	})

	describe('while S3 answers 500 for a while', () => {
		afterEach(() => s3.fail(null))

		/** One image through the admin's upload: the route's status and body. */
		const send = async (cookie: string) =>
			outcome(
				await adminMedia.action(
					routeArgs(upload('/dashboard/admin/media', await picture(800, 400), cookie), '/dashboard/admin/media/:id?'),
				),
			)
		const statusOf = async (id: string, cookie: string) =>
			(
				await outcome(
					await adminMedia.loader(routeArgs(get(`/dashboard/admin/media/${id}`, { cookie }), '/dashboard/admin/media/:id?', { id })),
				)
			).body as MediaStatus

		it('refuses an upload in French, keeps no row and no file, and takes the next one once S3 is back', async () => {
			const admin = await member('admin')
			const files = (await listStoredFiles(env.platform.storage)).map((f) => f.key).sort()
			const rows = (await db().select({ id: media.id }).from(media)).length

			s3.fail(500)
			const before = s3.failures()
			const refused = await send(admin.cookie)
			expect(refused.status).toBe(503)
			expect(JSON.stringify(refused.body)).toContain(translation.media.errors.unavailable)
			// The S3 client tried again by itself before giving up.
			expect(s3.failures() - before).toBeGreaterThan(1)
			s3.fail(null)

			expect((await db().select({ id: media.id }).from(media)).length).toBe(rows)
			expect((await listStoredFiles(env.platform.storage)).map((f) => f.key).sort()).toEqual(files)
			expect((await send(admin.cookie)).status).toBe(201)
		})

		it('answers /media/ with a French 503 and Retry-After, and the rendition job waits for S3 and retries', async () => {
			const admin = await member('admin')
			const ready = await send(admin.cookie)
			const { id: readyId } = ready.body as { id: string }
			const done = await settled(() => statusOf(readyId, admin.cookie))
			const key = done.image!.variants[0]!.url.replace(/^\/media\//, '')

			// Reads fail, writes pass: an upload is stored, but its renditions cannot read it yet.
			s3.fail(500, ['GET', 'HEAD'])
			const served = (await mediaFile.loader(routeArgs(get(`/media/${key}`), '/media/*', { '*': key }))) as Response
			expect(served.status).toBe(503)
			expect(served.headers.get('retry-after')).toBe('30')
			expect(await served.text()).toBe(translation.media.errors.storageUnavailable)

			const failed = s3.failures()
			const accepted = await send(admin.cookie)
			expect(accepted.status).toBe(201)
			const { id } = accepted.body as { id: string }
			// The worker takes the job, fails to read, and leaves the image waiting (not failed) for a retry.
			// (one attempt of the job: the S3 client's own three tries)
			await until(async () => s3.failures() >= failed + 3)
			await new Promise((resolve) => setTimeout(resolve, 2_000))
			expect((await statusOf(id, admin.cookie)).status).toBe('processing')

			s3.fail(null)
			const status = await settled(() => statusOf(id, admin.cookie), 90_000)
			expect(status.status).toBe('ready')
			for (const variant of status.image!.variants) expect(await inBucket(variant.url.replace(/^\/media\//, '')), variant.url).toBe(true)
			const again = (await mediaFile.loader(routeArgs(get(`/media/${key}`), '/media/*', { '*': key }))) as Response
			expect(again.status).toBe(200)
		}, 120_000)
	})
})
