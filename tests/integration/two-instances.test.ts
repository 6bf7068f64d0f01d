import { randomUUID } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { formatCode } from '#app/features/codes/code-format.ts'
import { newSecret } from '#app/platform/random-token.server.ts'
import { openPostgres, type Database } from '#app/platform/db/client.server.ts'
import { code, newsletterCampaign, newsletterDelivery, newsletterSubscriber } from '#app/platform/db/schema.ts'
import { RULES } from '#app/platform/rate-limit.server.ts'
import translation from '../../public/locales/fr-FR/translation.json'
import { campaignWithCodes } from '../support/codes.ts'
import { createTestDatabase, databaseKind, type TestDatabase } from '../support/database.ts'
import { cookieFrom } from '../support/requests.ts'
import { startTestS3, type TestS3 } from '../support/s3.ts'
import { startTestSmtp, type TestSmtp } from '../support/smtp.ts'
import { ensureBuild, TEST_BUILD_DIR, startSiteServer, type SiteServer } from '../support/site-server.ts'

/*
 * Growing past one machine: two production servers (server/index.ts on one build) on one
 * PostgreSQL database and one S3 bucket, as behind a load balancer. What one instance does, the
 * other sees: sessions, events on the public pages, mail jobs sent once, rate limits, uploads, a
 * newsletter campaign sent once (not once per instance), a code used up on both, and the stats
 * screen's live updates.
 */
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

/** A server-sent events stream read as the browser's EventSource would, one event at a time. */
async function openEventStream(server: SiteServer, path: string, cookie: string) {
	const controller = new AbortController()
	const response = await fetch(`${server.origin}${path}`, { headers: { cookie, accept: 'text/event-stream' }, signal: controller.signal })
	expect(response.status).toBe(200)
	expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/)
	const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
	let buffer = ''
	const events: { event: string; data: unknown }[] = []
	const read = async () => {
		const { value, done } = await reader.read()
		if (done) throw new Error('the event stream ended')
		buffer += value
		let end
		while ((end = buffer.indexOf('\n\n')) >= 0) {
			const block = buffer.slice(0, end)
			buffer = buffer.slice(end + 2)
			const event = /^event: (.*)$/m.exec(block)?.[1]
			const data = /^data: (.*)$/m.exec(block)?.[1]
			if (event && data !== undefined) events.push({ event, data: JSON.parse(data) as unknown })
		}
	}
	return {
		/** The next event of that name (and accepted by `accept`), waiting up to 10 s for it. */
		async next(name: string, accept: (data: unknown) => boolean = () => true): Promise<unknown> {
			const timer = setTimeout(() => controller.abort(), 10_000)
			try {
				for (;;) {
					const index = events.findIndex((e) => e.event === name && accept(e.data))
					if (index >= 0) return events.splice(0, index + 1).pop()!.data
					await read()
				}
			} finally {
				clearTimeout(timer)
			}
		},
		close: () => controller.abort(),
	}
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
		await ensureBuild()
		database = await createTestDatabase()
		s3 = await startTestS3()
		smtp = await startTestSmtp()
		const env = { DATABASE_URL: database.databaseUrl, SMTP_URL: smtp.url, ...s3.env }
		// Started together, as after a deployment: migrations take an advisory lock.
		;[a, b] = await Promise.all([
			startSiteServer({ buildDir: TEST_BUILD_DIR, dataDir: database.dataDir, env }),
			startSiteServer({ buildDir: TEST_BUILD_DIR, dataDir: `${database.dataDir}-b`, env }),
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
		expect(await me(b, fan.cookie)).toBeNull()
		// A remembered the session (app/platform/session-cache.server.ts) and forgets it when B's
		// signal arrives: within the signal's latency, well before the 5 s the memory keeps anything.
		await vi.waitFor(async () => expect(await me(a, fan.cookie)).toBeNull(), { timeout: 2_000, interval: 25 })
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

	it('a newsletter campaign sent from both at once goes out once: one mail per subscriber', async () => {
		const subscribers = Array.from({ length: 30 }, (_, i) => ({
			id: randomUUID(),
			email: `abonne-${i}-${randomUUID().slice(0, 6)}@exemple.fr`,
			status: 'active' as const,
			source: 'import' as const,
			unsubscribeToken: newSecret(),
			consentAt: new Date(),
		}))
		await direct.db.insert(newsletterSubscriber).values(subscribers)
		const fields = {
			subject: `Nouvelles du groupe ${randomUUID().slice(0, 6)}`,
			preheader: 'La tournée',
			body: '## Bonjour\n\nDes **nouvelles**.',
		}
		const draft = await postForm(a, '/dashboard/admin/newsletter/campaigns/new', { intent: 'save', ...fields }, admin.cookie)
		expect(draft.status).toBe(302)
		const campaignPath = draft.headers.get('location')!.split('?')[0]!
		const campaignId = campaignPath.split('/').pop()!
		// « Envoyer » double-clicked, the two clicks reaching different instances: both queue a send job.
		const sends = await Promise.all([a, b].map((server) => postForm(server, campaignPath, { intent: 'send', ...fields }, admin.cookie)))
		expect(sends.map((response) => response.status)).toEqual([302, 302])

		for (const subscriber of subscribers) await smtp.waitFor(subscriber.email, undefined, 60_000)
		const finished = await until(
			async () => (await direct.db.select().from(newsletterCampaign).where(eq(newsletterCampaign.id, campaignId)))[0]!,
			(campaign) => campaign.status === 'sent',
		)
		expect(finished.status).toBe('sent')
		await new Promise((resolve) => setTimeout(resolve, 3_000)) // time for a second sending, if any
		for (const subscriber of subscribers) expect(smtp.to(subscriber.email), subscriber.email).toHaveLength(1)
		const deliveries = await direct.db
			.select({ status: newsletterDelivery.status, n: sql<number>`count(*)::int` })
			.from(newsletterDelivery)
			.where(eq(newsletterDelivery.campaignId, campaignId))
			.groupBy(newsletterDelivery.status)
		expect(deliveries).toEqual([{ status: 'sent', n: subscribers.length }])
	}, 120_000)

	it('a code redeemed on one is used up on the other', async () => {
		const name = `Vinyle croisé ${randomUUID().slice(0, 6)}`
		const { codes } = await campaignWithCodes(direct.db, 1, { name })
		const typed = formatCode(codes[0]!)
		const redeemed = await postForm(a, '/redeem', { code: typed }, admin.cookie)
		expect(redeemed.status).toBe(302)
		expect(redeemed.headers.get('location')).toBe('/dashboard#mes-contenus')
		// The other instance shows what the code unlocked…
		const dashboard = await fetch(`${b.origin}/dashboard`, { headers: { cookie: admin.cookie } })
		expect(dashboard.status).toBe(200)
		expect(await dashboard.text()).toContain(name)
		// …and refuses it to anyone else, in French, the typed code kept.
		const refused = await postForm(b, '/redeem', { code: typed })
		expect(refused.status).toBe(410)
		const html = await refused.text()
		expect(html).toContain(translation.codes.redeem.outcomes.used_up)
		expect(html).toContain(`value="${typed}"`)
		const [row] = await direct.db.select({ uses: code.uses }).from(code).where(eq(code.code, codes[0]!))
		expect(row!.uses).toBe(1)
	})

	it('a live update published on one reaches the stats screen open on the other', async () => {
		// The stats screen's own stream (useLiveRevalidation('/dashboard/admin/live?topic=stats')), open on B.
		const stream = await openEventStream(b, '/dashboard/admin/live?topic=stats', admin.cookie)
		try {
			expect(await stream.next('ready')).toEqual({ topic: 'stats' })
			// A code redeemed on A is news for the stats screen.
			const { codes } = await campaignWithCodes(direct.db, 1)
			const redeemed = await postForm(a, '/redeem', { code: formatCode(codes[0]!) }, admin.cookie)
			expect(redeemed.status).toBe(302)
			expect(await stream.next('changed', (data) => (data as { source?: string }).source === 'codes')).toEqual({ source: 'codes' })
		} finally {
			stream.close()
		}
	})

	it('the stats screen’s live stream is for admins only', async () => {
		const response = await fetch(`${b.origin}/dashboard/admin/live?topic=stats`, { redirect: 'manual' })
		await response.arrayBuffer()
		expect(response.status).not.toBe(200)
	})
})
