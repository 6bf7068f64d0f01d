import { asc } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { purgeExpired, RETENTION } from '#app/features/accounts/housekeeping.server.ts'
import { openDatabase, type Database } from '#app/platform/db/client.server.ts'
import { outboxMail, rateLimit, session, user, verification, contactMessage, contactReply, pageViewDaily } from '#app/platform/db/schema.ts'
import { createMigratedTestDatabase, databaseKind, type TestDatabase } from '../support/database.ts'

/*
 * The nightly housekeeping on a real database: what has expired or outlived its retention goes,
 * everything else stays exactly as it was.
 */
const kind = databaseKind()

let testDatabase: TestDatabase
let database: Database
beforeAll(async () => {
	testDatabase = await createMigratedTestDatabase()
	try {
		database = await openDatabase({ databaseUrl: testDatabase.databaseUrl, dataDir: testDatabase.dataDir })
	} catch (error) {
		await testDatabase.dispose()
		throw error
	}
})
afterAll(async () => {
	await database?.close()
	await testDatabase?.dispose()
})

const HOUR = 3600 * 1000
const DAY = 24 * HOUR
const ago = (ms: number) => new Date(Date.now() - ms)
const ahead = (ms: number) => new Date(Date.now() + ms)

describe(`housekeeping on ${kind}`, () => {
	it('removes exactly what expired, empties old mail bodies but keeps their record, and reports the counts', async () => {
		const db = database.db
		await db.insert(user).values({ id: 'u1', name: 'Marin', email: 'marin@exemple.fr' })
		await db.insert(session).values([
			{ id: 's-expired', token: 't-expired', userId: 'u1', expiresAt: ago(HOUR) },
			{ id: 's-long-expired', token: 't-long-expired', userId: 'u1', expiresAt: ago(90 * DAY) },
			{ id: 's-fresh', token: 't-fresh', userId: 'u1', expiresAt: ahead(7 * DAY) },
		])
		await db.insert(verification).values([
			{ id: 'v-expired', identifier: 'reset-password:a', value: 'u1', expiresAt: ago(60 * 1000) },
			{ id: 'v-fresh', identifier: 'reset-password:b', value: 'u1', expiresAt: ahead(HOUR) },
		])
		const mail = (id: string, status: 'queued' | 'sent' | 'failed', createdDaysAgo: number, body = true) => ({
			id,
			kind: 'verify-email',
			toAddress: `${id}@exemple.fr`,
			subject: `Sujet ${id}`,
			html: body ? `<p>${id}</p>` : null,
			text: body ? id : null,
			status,
			createdAt: ago(createdDaysAgo * DAY),
			sentAt: status === 'sent' ? ago(createdDaysAgo * DAY) : null,
		})
		await db
			.insert(outboxMail)
			.values([
				mail('m-fresh', 'sent', 2),
				mail('m-queued-today', 'queued', 0),
				mail('m-within-retention', 'sent', RETENTION.mailBodyDays - 1),
				mail('m-old-sent', 'sent', RETENTION.mailBodyDays + 1),
				mail('m-old-failed', 'failed', RETENTION.mailBodyDays + 10),
				mail('m-old-already-emptied', 'sent', RETENTION.mailBodyDays + 20, false),
				mail('m-past-record', 'sent', RETENTION.mailRecordDays + 1),
				mail('m-past-record-emptied', 'failed', RETENTION.mailRecordDays + 30, false),
			])
		await db.insert(rateLimit).values([
			{ key: 'signInByAccount:expired@exemple.fr', points: 8, expire: ago(60 * 1000) },
			{ key: 'resetByAddress:203.0.113.9', points: 3, expire: ago(2 * DAY) },
			{ key: 'signInByAccount:fresh@exemple.fr', points: 2, expire: ahead(10 * 60 * 1000) },
			{ key: 'claimByAddress:203.0.113.10', points: 1, expire: null },
		])

		await db.insert(contactMessage).values([
			{
				id: 'c-old',
				name: 'Ancien',
				email: 'a@exemple.fr',
				subject: 'autre',
				body: 'Vieux message',
				createdAt: ago((RETENTION.contactMessageDays + 1) * DAY),
			},
			{ id: 'c-fresh', name: 'Récent', email: 'r@exemple.fr', subject: 'booking', body: 'Message récent', createdAt: ago(3 * DAY) },
		])
		await db.insert(contactReply).values({ id: 'r-old', messageId: 'c-old', body: 'Réponse', authorName: 'Régie' })
		const dayAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString().slice(0, 10)
		const monthsDays = Math.ceil(RETENTION.pageViewMonths * 30.5)
		await db.insert(pageViewDaily).values([
			{ day: dayAgo(monthsDays + 5), path: '/', views: 4 },
			{ day: dayAgo(monthsDays + 5), path: '/events', views: 2 },
			{ day: dayAgo(monthsDays - 40), path: '/', views: 7 },
		])

		const report = await purgeExpired(db)
		expect(report).toEqual({
			sessions: 2,
			verifications: 1,
			mailBodies: 2,
			mailRecords: 2,
			rateLimits: 2,
			contactMessages: 1,
			pageViewDays: 1,
		})
		expect((await db.select({ id: contactMessage.id }).from(contactMessage)).map((r) => r.id)).toEqual(['c-fresh'])
		expect(await db.select().from(contactReply)).toEqual([])
		expect((await db.select({ views: pageViewDaily.views }).from(pageViewDaily)).map((r) => r.views)).toEqual([7])

		expect((await db.select({ id: session.id }).from(session)).map((r) => r.id)).toEqual(['s-fresh'])
		expect((await db.select({ id: verification.id }).from(verification)).map((r) => r.id)).toEqual(['v-fresh'])
		const keys = (await db.select({ key: rateLimit.key }).from(rateLimit).orderBy(asc(rateLimit.key))).map((r) => r.key)
		expect(keys).toEqual(['claimByAddress:203.0.113.10', 'signInByAccount:fresh@exemple.fr'])

		const mails = await db.select().from(outboxMail).orderBy(asc(outboxMail.id))
		const byId = Object.fromEntries(mails.map((m) => [m.id, m]))
		expect(Object.keys(byId).sort()).toEqual([
			'm-fresh',
			'm-old-already-emptied',
			'm-old-failed',
			'm-old-sent',
			'm-queued-today',
			'm-within-retention',
		])
		for (const id of ['m-fresh', 'm-queued-today', 'm-within-retention']) {
			expect(byId[id], id).toMatchObject({ html: `<p>${id}</p>`, text: id })
		}
		// Past the body retention: the content is gone, the record (address, subject, status, dates) stays.
		for (const id of ['m-old-sent', 'm-old-failed']) {
			expect(byId[id], id).toMatchObject({ html: null, text: null, toAddress: `${id}@exemple.fr`, subject: `Sujet ${id}` })
		}
		expect(byId['m-old-sent']).toMatchObject({ status: 'sent', sentAt: expect.any(Date) })
		expect(byId['m-old-failed']).toMatchObject({ status: 'failed' })

		// The member whose sessions expired is still there.
		expect(await db.select({ id: user.id }).from(user)).toEqual([{ id: 'u1' }])

		// A second run finds nothing more to do.
		expect(await purgeExpired(db)).toEqual({
			sessions: 0,
			verifications: 0,
			mailBodies: 0,
			mailRecords: 0,
			rateLimits: 0,
			contactMessages: 0,
			pageViewDays: 0,
		})
	})
})
