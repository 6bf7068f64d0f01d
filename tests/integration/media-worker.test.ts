import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startMediaWorkers } from '#app/features/media/media-jobs.server.ts'
import type { MediaStatus } from '#app/features/media/rules.ts'
import { media, user } from '#app/platform/db/schema.ts'
import * as adminMedia from '#app/routes/admin/media.ts'
import * as settingsAvatar from '#app/routes/dashboard/settings-avatar.ts'
import * as settings from '#app/routes/dashboard/settings.tsx'
import * as mediaFile from '#app/routes/public/media-file.ts'
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
	env = await startTestPlatform({ env: s3.env })
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
		expect(status).toMatchObject({ status: 'ready', progress: 100, image: { width: 960, height: 480 } })
		expect(status.image!.variants).toHaveLength(6)
		expect(await inBucket(`originals/${id}.png`)).toBe(true)

		const webp = status.image!.variants.find((v) => v.format === 'webp' && v.width === 960)!
		const key = webp.url.replace(/^\/media\//, '')
		const response = (await mediaFile.loader(routeArgs(get(webp.url), '/media/*', { '*': key }))) as Response
		expect(response.status).toBe(200)
		expect(response.headers.get('content-type')).toBe('image/webp')
		expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
		expect((await sharp(new Uint8Array(await response.arrayBuffer())).metadata()).width).toBe(960)
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
})
