import { randomUUID } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createBatch, runBatch } from '#app/features/codes/batches.server.ts'
import { importTopic, runImport, type ImportProgress } from '#app/features/newsletter/imports.server.ts'
import { newSecret } from '#app/platform/random-token.server.ts'
import { code, codeBatch, newsletterImport, newsletterSubscriber, user } from '#app/platform/db/schema.ts'
import * as importRoute from '#app/routes/admin/newsletter-import.tsx'
import * as importProgressRoute from '#app/routes/admin/newsletter-import-progress.ts'
import * as exportRoute from '#app/routes/admin/newsletter-export.ts'
import * as healthz from '#app/routes/api/healthz.ts'
import { campaignWithCodes } from '../support/codes.ts'
import { databaseKind } from '../support/database.ts'
import { signUpConfirmed } from '../support/members.ts'
import { startTestPlatform, type TestPlatform } from '../support/platform.ts'
import { formPost, get, outcome, routeArgs, SITE_URL } from '../support/requests.ts'

/** What a load balancer sends to /healthz. */
const healthCheck = () => ({ request: new Request('http://localhost/healthz') }) as Parameters<typeof healthz.loader>[0]

/*
 * Heavy admin work never holds the server (docs/decisions/0022-heavy-work-in-slices.md):
 * a 100,000-line subscriber import is confirmed at once and written by its job in slices, with its
 * progress announced in steps; the subscriber export streams the whole list, complete and once; a
 * 100,000-code batch lets the event loop run between its chunks. Nothing here measures time: each
 * test proves structure (what was answered while the work was still under way, which steps were seen,
 * what was written), so a slow machine changes nothing.
 */
const kind = databaseKind()
let env: TestPlatform
let adminCookie: string
const db = () => env.platform.database.db

beforeAll(async () => {
	env = await startTestPlatform({ adminEmails: ['admin@exemple.fr'] })
	adminCookie = await signUpConfirmed({ name: 'Admin', email: 'admin@exemple.fr', password: 'cheval agrafe pile correcte' })
	await db().update(user).set({ role: 'admin' }).where(eq(user.email, 'admin@exemple.fr'))
}, 240_000)
afterAll(async () => {
	await env?.stop()
})

/** A multipart POST of the import form, as the browser sends it. */
function uploadPost(path: string, file: string, fields: Record<string, string>) {
	const form = new FormData()
	for (const [name, value] of Object.entries(fields)) form.set(name, value)
	form.set('file', new File([file], 'abonnes.csv', { type: 'text/csv' }))
	return new Request(new URL(path, SITE_URL), {
		method: 'POST',
		body: form,
		headers: { cookie: adminCookie, origin: SITE_URL, 'sec-fetch-site': 'same-origin', 'x-client-address': '198.18.200.1' },
	})
}

/**
 * Counts the turns the event loop gets while `work` runs (a turn is what a waiting request needs to
 * be read and answered) and calls `onTurn` at each.
 */
async function withLoopTurns<T>(work: () => Promise<T>, onTurn: () => void = () => {}): Promise<{ result: T; turns: number }> {
	let turns = 0
	let running = true
	const turn = () => {
		if (!running) return
		turns++
		onTurn()
		setImmediate(turn)
	}
	setImmediate(turn)
	try {
		return { result: await work(), turns }
	} finally {
		running = false
	}
}

/** Large enough for 60 slices of the job and 15 pages of the export, small enough for a busy machine. */
const IMPORT_LINES = 30_000
const KNOWN = 10
const BAD = 5
const DUPLICATES = 5
const address = (i: number) => `fan.${i}@exemple.fr`
/** The rows of a raw statement (PGlite and node-postgres both answer `{ rows }`). */
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows

describe(`heavy admin work on ${kind}`, () => {
	it('imports 30,000 lines: confirmed at once, written by its job in slices with progress in steps, each valid address once', async () => {
		// Ten addresses of the file are on the list already, one of them unsubscribed: they stay as they are.
		await db()
			.insert(newsletterSubscriber)
			.values(
				Array.from({ length: KNOWN }, (_, i) => ({
					id: randomUUID(),
					email: address(i),
					status: i === 0 ? ('unsubscribed' as const) : ('active' as const),
					source: 'landing' as const,
					unsubscribeToken: newSecret(),
				})),
			)
		const valid = IMPORT_LINES - BAD - DUPLICATES
		const lines = ['email']
		for (let i = 0; i < valid; i++) lines.push(address(i))
		for (let i = 0; i < BAD; i++) lines.push(`pas-une-adresse-${i}`)
		for (let i = 0; i < DUPLICATES; i++) lines.push(address(100 + i).toUpperCase())
		const path = '/dashboard/admin/newsletter/subscribers/import'

		const preview = await outcome(
			await importRoute.action(
				routeArgs(uploadPost(path, lines.join('\n'), { intent: 'preview', consentNote: 'Concert du 12 octobre' }), path),
			),
		)
		expect(preview.status).toBe(200)
		const shown = (
			preview.body as { preview: { id: string; valid: number; alreadyListed: number; duplicates: number; rejectedCount: number } }
		).preview
		expect(shown).toMatchObject({ valid: valid - KNOWN, alreadyListed: KNOWN, duplicates: DUPLICATES, rejectedCount: BAD })

		// The confirmation answers with the page that follows the job: nothing is written in the request.
		const confirmed = await outcome(
			await importRoute.action(routeArgs(formPost(path, { intent: 'confirm', importId: shown.id }, { cookie: adminCookie }), path)),
		)
		expect(confirmed.status).toBe(302)
		expect(confirmed.headers.get('location')).toBe(`${path}?import=${shown.id}`)
		const [queued] = await db().select().from(newsletterImport).where(eq(newsletterImport.id, shown.id))
		expect(queued).toMatchObject({ status: 'queued', total: valid - KNOWN, done: 0, added: 0 })
		// Confirming twice queues nothing more.
		const again = await outcome(
			await importRoute.action(routeArgs(formPost(path, { intent: 'confirm', importId: shown.id }, { cookie: adminCookie }), path)),
		)
		expect(again.status).toBe(400)
		const page = await outcome(await importRoute.loader(routeArgs(get(`${path}?import=${shown.id}`, { cookie: adminCookie }), path)))
		expect((page.body as { progress: ImportProgress }).progress).toMatchObject({ status: 'queued', total: valid - KNOWN, done: 0 })

		// The job, as the worker runs it. Meanwhile: the progress the admin's screen would receive at each
		// turn of the event loop, and a health check sent once the job has started.
		let latest: ImportProgress | null = null
		const atTurns: number[] = []
		const stop = env.platform.realtime.subscribe(importTopic(shown.id), (message) => (latest = message as ImportProgress))
		let finished = false
		let health: { status: number; whileRunning: boolean } | null = null
		const job = runImport({ db: db(), realtime: env.platform.realtime }, shown.id).finally(() => (finished = true))
		const probe = (async () => {
			await new Promise((resolve) => setTimeout(resolve, 0))
			const answer = await healthz.loader(healthCheck())
			health = { status: answer.status, whileRunning: !finished }
		})()
		const { turns } = await withLoopTurns(
			() => job,
			() => {
				if (latest && latest.done !== atTurns.at(-1)) atTurns.push(latest.done)
			},
		)
		await probe
		await new Promise((resolve) => setTimeout(resolve, 200))
		stop()

		// The server could answer during the import: the health check came back before it ended.
		expect(health).toEqual({ status: 200, whileRunning: true })
		expect(turns).toBeGreaterThan(30)
		// The screen moved in steps: several values between 0 and the end, always forward.
		const between = atTurns.filter((done) => done > 0 && done < valid - KNOWN)
		expect(between.length).toBeGreaterThanOrEqual(5)
		expect([...atTurns].sort((a, b) => a - b)).toEqual(atTurns)
		expect(latest).toMatchObject({ status: 'done', done: valid - KNOWN, added: valid - KNOWN })

		// Every valid new address exactly once, active with its consent; those already listed unchanged.
		const [counts] = rowsOf<{ n: number; distinct_emails: number; imported: number }>(
			await db().execute(sql`
				select count(*)::int as n, count(distinct email)::int as distinct_emails,
					count(*) filter (where source = 'import' and status = 'active' and consent_note = 'Concert du 12 octobre')::int as imported
				from newsletter_subscriber where email like 'fan.%'`),
		)
		expect(counts).toEqual({ n: valid, distinct_emails: valid, imported: valid - KNOWN })
		const [first] = await db()
			.select()
			.from(newsletterSubscriber)
			.where(eq(newsletterSubscriber.email, address(0)))
		expect(first).toMatchObject({ status: 'unsubscribed', source: 'landing' })
		const [done] = await db().select().from(newsletterImport).where(eq(newsletterImport.id, shown.id))
		expect(done).toMatchObject({ status: 'done', done: valid - KNOWN, added: valid - KNOWN, addresses: '' })

		// A job retried after it finished writes nothing more; the progress stream says « done » at once.
		const listSize = async () =>
			Number(
				(
					await db()
						.select({ n: sql<number>`count(*)::int` })
						.from(newsletterSubscriber)
				)[0]!.n,
			)
		const before = await listSize()
		await runImport({ db: db(), realtime: env.platform.realtime }, shown.id)
		expect(await listSize()).toBe(before)
		const stream = await importProgressRoute.loader(
			routeArgs(get(`/dashboard/admin/newsletter/imports/${shown.id}/progress`, { cookie: adminCookie }), '', { importId: shown.id }),
		)
		const reader = stream.body!.getReader()
		let text = ''
		while (!text.includes('event: progress')) text += new TextDecoder().decode((await reader.read()).value)
		await reader.cancel()
		expect(text).toContain('"status":"done"')
	}, 300_000)

	it('a job that stopped half-way resumes where it was and writes no address twice', async () => {
		const emails = Array.from({ length: 1_200 }, (_, i) => `reprise.${i}@exemple.fr`)
		const [admin] = await db().select({ id: user.id }).from(user).where(eq(user.email, 'admin@exemple.fr'))
		const id = randomUUID()
		// A confirmed import whose job starts from nothing…
		await db()
			.insert(newsletterImport)
			.values({ id, createdBy: admin!.id, consentNote: 'Salon', addresses: emails.join('\n'), total: emails.length, status: 'running' })
		await runImport({ db: db() }, id)
		const [row] = await db().select().from(newsletterImport).where(eq(newsletterImport.id, id))
		expect(row).toMatchObject({ status: 'done', done: 1_200, added: 1_200 })
		// …and one whose job died after its first slice (the same addresses: those lines are written).
		const rerun = randomUUID()
		await db()
			.insert(newsletterImport)
			.values({
				id: rerun,
				createdBy: admin!.id,
				consentNote: 'Salon',
				addresses: emails.join('\n'),
				total: 1_200,
				status: 'running',
				done: 500,
				added: 500,
			})
		await runImport({ db: db() }, rerun)
		const [second] = await db().select().from(newsletterImport).where(eq(newsletterImport.id, rerun))
		// Its 700 remaining lines were all there already: nothing added, nothing doubled.
		expect(second).toMatchObject({ status: 'done', done: 1_200, added: 500 })
		const [n] = rowsOf<{ n: number }>(
			await db().execute(sql`select count(*)::int as n from newsletter_subscriber where email like 'reprise.%'`),
		)
		expect(n!.n).toBe(1_200)
	}, 120_000)

	it('exports the whole list as a stream of pages: complete, each address once, the server answering meanwhile', async () => {
		const expected = Number(
			(
				await db()
					.select({ n: sql<number>`count(*)::int` })
					.from(newsletterSubscriber)
			)[0]!.n,
		)
		expect(expected).toBeGreaterThan(IMPORT_LINES - 100)
		const response = (await exportRoute.loader(
			routeArgs(get('/dashboard/admin/newsletter/subscribers.csv', { cookie: adminCookie }), ''),
		)) as Response
		expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8')
		const reader = response.body!.getReader()
		let chunks = 0
		let text = ''
		let health: { status: number; chunksBefore: number } | null = null
		const decoder = new TextDecoder('utf-8', { ignoreBOM: true })
		const { turns } = await withLoopTurns(async () => {
			while (true) {
				const { value, done } = await reader.read()
				if (done) break
				chunks++
				text += decoder.decode(value, { stream: true })
				if (chunks === 2) void healthz.loader(healthCheck()).then((answer) => (health = { status: answer.status, chunksBefore: chunks }))
			}
		})
		// Streamed in pages, the health check answered before the last of them.
		expect(chunks).toBeGreaterThan(10)
		expect(turns).toBeGreaterThan(10)
		expect(health).not.toBeNull()
		expect(health!.status).toBe(200)
		expect(health!.chunksBefore).toBeLessThan(chunks)
		const rows = text
			.replace(/^\uFEFF/, '')
			.replace(/\r\n$/, '')
			.split('\r\n')
		expect(rows[0]).toBe('email,statut,source,origine_du_consentement,date_du_consentement,version_politique,inscrit_le,ville')
		const emails = rows.slice(1).map((line) => line.split(',')[0]!)
		expect(emails).toHaveLength(expected)
		expect(new Set(emails).size).toBe(expected)
		expect([...emails].sort()).toEqual(emails)
	}, 300_000)

	it('generates 100,000 codes with the event loop free between chunks and progress seen in steps', async () => {
		const { campaignId } = await campaignWithCodes(db(), 0)
		const noJobs = { queue: async () => {}, send: async () => null } as never
		const id = await createBatch(db(), noJobs, { campaignId, count: 100_000, label: 'Merch', userId: null })
		let latest = 0
		const atTurns: number[] = []
		const stop = env.platform.realtime.subscribe(`codes.batch.${id}`, (m) => (latest = (m as { created: number }).created))
		const { turns } = await withLoopTurns(
			() => runBatch({ db: db(), storage: env.platform.storage, realtime: env.platform.realtime }, id),
			() => {
				if (latest !== atTurns.at(-1)) atTurns.push(latest)
			},
		)
		await new Promise((resolve) => setTimeout(resolve, 200))
		stop()
		expect(turns).toBeGreaterThan(50)
		// What an open batch screen was sent while the batch ran: several steps, not « 0 » then « 100 000 ».
		expect(atTurns.filter((n) => n > 0 && n < 100_000).length).toBeGreaterThanOrEqual(5)
		expect(latest).toBe(100_000)
		const [batch] = await db().select().from(codeBatch).where(eq(codeBatch.id, id))
		expect(batch).toMatchObject({ status: 'done', created: 100_000 })
		const [n] = await db()
			.select({ n: sql<number>`count(*)::int` })
			.from(code)
			.where(eq(code.batchId, id))
		expect(Number(n!.n)).toBe(100_000)
	}, 300_000)
})
