import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import pino from 'pino'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPostgres, type Database } from '#app/platform/db/client.server.ts'
import { RULES } from '#app/platform/rate-limit.server.ts'
import { startRealtime, type Realtime } from '#app/platform/realtime.server.ts'
import { createTestDatabase, databaseKind, type TestDatabase } from '../support/database.ts'
import { cookieFrom } from '../support/requests.ts'
import { startTestS3, type TestS3 } from '../support/s3.ts'
import { startTestSmtp, type TestSmtp } from '../support/smtp.ts'
import { ensureBuild, startSiteServer, type SiteServer } from '../support/site-server.ts'

/*
 * Growing past one machine: two production servers (server/index.ts on one build) on one
 * PostgreSQL database and one S3 bucket, as behind a load balancer. What one instance does, the
 * other sees: sessions, events on the public pages, mail jobs sent once, rate limits, uploads,
 * live updates. The newsletter (sent once, not twice), codes (used up on both) and the stats
 * screen's live updates are added here as those features land.
 */
const BUILD_DIR = 'build-ops'
const PASSWORD = 'cheval agrafe pile correcte'

/** A direct connection to the shared database, for what a test reads behind the instances' backs. */
let direct: Database
let database: TestDatabase
let s3: TestS3
let smtp: TestSmtp
let a: SiteServer
let b: SiteServer

/** A browser without JavaScript posting a form to one instance (the Origin is that instance's). */
async function postForm(server: SiteServer, path: string, fields: Record<string, string>, cookie = '') {
	return fetch(`${server.origin}${path}`, {
		method: 'POST',
		headers: { origin: server.origin, 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
		body: new URLSearchParams(fields),
		redirect: 'manual',
	})
}

/** The profile of whoever the cookie signs in (GET /api/me), or null (401). */
async function me(server: SiteServer, cookie: string): Promise<{ email: string } | null> {
	const response = await fetch(`${server.origin}/api/me`, { headers: { cookie } })
	const body = (await response.json()) as { email: string }
	return response.status === 200 ? body : null
}

/** Signs up on one instance (no session yet: the address must be proved first). */
async function register(server: SiteServer): Promise<string> {
	const email = `fan-${randomUUID().slice(0, 8)}@exemple.fr`
	const response = await postForm(server, '/auth/signup', { name: 'Camille Fan', email, password: PASSWORD, acceptPrivacy: 'on' })
	expect(response.status).toBe(302)
	return email
}

/** Signs up, then confirms the address with the link of the mail (read from the shared outbox) and the password. */
async function signUp(server: SiteServer): Promise<{ email: string; cookie: string }> {
	const email = await register(server)
	const { rows } = (await direct.db.execute(
		sql`select text from outbox_mail where to_address = ${email} and kind = 'verify-email' order by created_at desc limit 1`,
	)) as unknown as { rows: { text: string }[] }
	const link = /https?:\/\/[^\s"<>]+token=[^\s"<>]+/.exec(rows[0]?.text ?? '')?.[0]
	expect(link, 'a confirmation link in the outbox').toBeDefined()
	const token = new URL(link!.replaceAll('&amp;', '&')).searchParams.get('token')!
	const confirmed = await postForm(server, `/auth/claim?${new URLSearchParams({ mode: 'verifyEmail', token })}`, { password: PASSWORD })
	expect(confirmed.status).toBe(200)
	const cookie = cookieFrom(confirmed.headers)
	expect(cookie).toMatch(/session_token=/)
	return { email, cookie }
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
	const deadline = Date.now() + timeoutMs
	for (;;) {
		const value = await read()
		if (done(value) || Date.now() > deadline) return value
		await new Promise((resolve) => setTimeout(resolve, 200))
	}
}

describe.runIf(databaseKind() === 'postgres')('two instances on one PostgreSQL and one S3 bucket', () => {
	let admin: { email: string; cookie: string }

	beforeAll(async () => {
		await ensureBuild(BUILD_DIR)
		database = await createTestDatabase()
		s3 = await startTestS3()
		smtp = await startTestSmtp()
		const env = { DATABASE_URL: database.databaseUrl, SMTP_URL: smtp.url, ...s3.env }
		// Started together, as after a deployment: migrations take an advisory lock.
		;[a, b] = await Promise.all([
			startSiteServer({ buildDir: BUILD_DIR, dataDir: database.dataDir, env }),
			startSiteServer({ buildDir: BUILD_DIR, dataDir: `${database.dataDir}-b`, env }),
		])
		direct = await openPostgres(database.databaseUrl!, { migrations: false })
		admin = await signUp(a)
		await direct.db.execute(sql`update "user" set role = 'admin', email_verified = true where email = ${admin.email}`)
	}, 300_000)

	afterAll(async () => {
		await Promise.all([a?.stop(), b?.stop()])
		await direct?.close()
		await s3?.close()
		await smtp?.close()
		await database?.dispose()
	})

	it('a session made on one works on the other, and signing out on one ends it on both', async () => {
		const fan = await signUp(a)
		expect((await me(a, fan.cookie))?.email).toBe(fan.email)
		expect((await me(b, fan.cookie))?.email).toBe(fan.email)
		// The site's own sign-out form (Better Auth's /api/auth/sign-out is not exposed).
		const out = await postForm(b, '/auth/signout', {}, fan.cookie)
		expect(out.status).toBe(302)
		expect(await me(a, fan.cookie)).toBeNull()
		expect(await me(b, fan.cookie)).toBeNull()
	})

	it('an event saved on one is fresh on the other’s public pages', async () => {
		const title = `Concert croisé ${randomUUID().slice(0, 6)}`
		const created = await postForm(
			a,
			'/dashboard/admin/events/new',
			{
				intent: 'publish',
				title,
				status: 'scheduled',
				startsAt: '2030-05-16T20:30',
				venueName: 'Le Chabada',
				address: '56 boulevard du Doyenné',
				postalCode: '49100',
				city: 'Angers',
				country: 'FR',
				description: 'Deux instances, une seule vérité.',
			},
			admin.cookie,
		)
		expect(created.status).toBe(302)
		const eventPath = created.headers.get('location')!.replace('/dashboard/admin', '')
		expect(await (await fetch(`${b.origin}/events`)).text()).toContain(title)

		// Renamed on B: A's public page shows the new name at once.
		const id = eventPath.split('/').pop()!.split('?')[0]!
		const renamed = `${title} (complet)`
		const saved = await postForm(
			b,
			`/dashboard/admin/events/${id}`,
			{
				intent: 'save',
				title: renamed,
				status: 'sold_out',
				startsAt: '2030-05-16T20:30',
				venueName: 'Le Chabada',
				address: '56 boulevard du Doyenné',
				postalCode: '49100',
				city: 'Angers',
				country: 'FR',
				description: 'Deux instances, une seule vérité.',
			},
			admin.cookie,
		)
		expect(saved.status).toBe(302)
		const page = await fetch(`${a.origin}/events/${id}`)
		expect(page.status).toBe(200)
		expect(await page.text()).toContain(renamed)
	})

	it('a mail job is sent once, not once per instance', async () => {
		// Both instances work the outbox queue; each mail must reach the relay exactly once.
		const fans = []
		// Four sign-ups (two per instance): with the two before, the per-address sign-up limit is reached, not passed.
		for (let i = 0; i < 4; i++) fans.push({ email: await register(i % 2 === 0 ? a : b) })
		for (const fan of fans) await smtp.waitFor(fan.email, undefined, 30_000)
		await new Promise((resolve) => setTimeout(resolve, 3_000)) // time for a second sending, if any
		for (const fan of fans) expect(smtp.to(fan.email), fan.email).toHaveLength(1)
	})

	it('rate limits count across both instances', async () => {
		const limit = RULES.resetByAddress.points
		const statuses: number[] = []
		for (let i = 0; i < limit + 4; i++) {
			const server = i % 2 === 0 ? a : b
			const response = await postForm(server, '/auth/forgot-password', { email: `oubli-${i}-${randomUUID().slice(0, 6)}@exemple.fr` })
			await response.arrayBuffer()
			statuses.push(response.status)
		}
		expect(statuses.filter((status) => status === 429)).toHaveLength(4)
		expect(statuses.slice(limit).every((status) => status === 429)).toBe(true)
	})

	it('an image uploaded through one is served by the other, from the shared bucket', async () => {
		const image = await sharp({ create: { width: 1600, height: 1000, channels: 3, background: { r: 200, g: 40, b: 90 } } })
			.jpeg()
			.toBuffer()
		const form = new FormData()
		form.set('file', new Blob([new Uint8Array(image)], { type: 'image/jpeg' }), 'affiche.jpg')
		form.set('alt', 'Affiche rose')
		const upload = await fetch(`${a.origin}/dashboard/admin/media`, {
			method: 'POST',
			headers: { origin: a.origin, cookie: admin.cookie },
			body: form,
		})
		expect(upload.status).toBe(201)
		const { statusUrl } = (await upload.json()) as { statusUrl: string }
		// The rendition job runs on whichever instance takes it; its progress is read on the other.
		const status = await until(
			async () =>
				(await (await fetch(`${b.origin}${statusUrl}`, { headers: { cookie: admin.cookie } })).json()) as {
					status: string
					image: { variants: { url: string; format: string }[] } | null
				},
			(value) => value.status !== 'processing',
		)
		expect(status.status).toBe('ready')
		const webp = status.image!.variants.find((variant) => variant.format === 'webp')!
		for (const server of [a, b]) {
			const file = await fetch(`${server.origin}${webp.url}`)
			expect(file.status).toBe(200)
			expect(file.headers.get('content-type')).toBe('image/webp')
			expect((await file.arrayBuffer()).byteLength).toBeGreaterThan(100)
		}
	})

	it('a live update published by one instance reaches the listeners of another', async () => {
		// The servers' own listeners are inside them; two more instances of the same mechanism on the
		// same database stand for them until a screen (the stats) listens over HTTP.
		const first = await openPostgres(database.databaseUrl!, { migrations: false })
		const second = await openPostgres(database.databaseUrl!, { migrations: false })
		const silent = pino({ level: 'silent' })
		let one: Realtime | undefined
		let two: Realtime | undefined
		try {
			one = await startRealtime(first, silent)
			two = await startRealtime(second, silent)
			const heard: unknown[] = []
			two.subscribe('stats', (data) => heard.push(data))
			await one.publish('stats', { scans: 3 })
			await until(
				async () => heard.length,
				(n) => n > 0,
				5_000,
			)
			expect(heard).toEqual([{ scans: 3 }])
		} finally {
			await one?.close()
			await two?.close()
			await first.close()
			await second.close()
		}
	})
})
