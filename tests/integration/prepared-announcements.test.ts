import { eq, isNotNull, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { announcementDraft } from '#app/features/newsletter/announce.server.ts'
import { readFlash } from '#app/platform/flash.server.ts'
import { newSecret as newToken } from '#app/platform/random-token.server.ts'
import { event, newsletterCampaign, newsletterSubscriber, user } from '#app/platform/db/schema.ts'
import * as newsletter from '#app/routes/admin/newsletter.tsx'
import * as stats from '#app/routes/admin/stats.tsx'
import { lyonEventForm, postEventEditor, savedEventId } from '../support/event-editor.ts'
import { signUpConfirmed } from '../support/members.ts'
import { startTestPlatform, type TestPlatform } from '../support/platform.ts'
import { cookieFrom, formPost, get, outcome, routeArgs, SITE_URL, thrown, type Outcome } from '../support/requests.ts'
import { startTestSmtp, type TestSmtp } from '../support/smtp.ts'

/*
 * « Préparer une annonce à chaque nouveau concert publié », through the real routes, with a real
 * SMTP server listening: off by default; on, an event's first publication writes one draft exactly
 * like « Annoncer aux fans proches », told on the stats screen and marked in the campaign list, and
 * nothing leaves.
 */
const NEWSLETTER = '/dashboard/admin/newsletter'
let env: TestPlatform
let smtp: TestSmtp
let adminCookie: string
let memberCookie: string
beforeAll(async () => {
	smtp = await startTestSmtp()
	env = await startTestPlatform({ env: { SMTP_URL: smtp.url, SMTP_RATE_PER_SECOND: '2000' } })
	adminCookie = await signUpConfirmed({ name: 'Régie', email: 'regie@exemple.fr', password: 'cheval agrafe pile correcte' })
	await db().update(user).set({ role: 'admin' }).where(eq(user.email, 'regie@exemple.fr'))
	memberCookie = await signUpConfirmed({ name: 'Fan', email: 'fan@exemple.fr', password: 'cheval agrafe pile correcte' })
	await db().insert(newsletterSubscriber).values({
		id: 'fan-lyon',
		email: 'fan-lyon@exemple.fr',
		status: 'active',
		source: 'landing',
		unsubscribeToken: newToken(),
		townLabel: 'Lyon (Rhône)',
		townId: 2996944,
		latitude: 45.75,
		longitude: 4.85,
	})
})
afterAll(async () => {
	await env?.stop()
	await smtp?.close()
})
const db = () => env.platform.database.db

const eventForm = (overrides: Record<string, string> = {}) => lyonEventForm({ title: 'Concert au Transbordeur', ...overrides })
const editorPost = (eventId: string, fields: Record<string, string>) => postEventEditor(adminCookie, eventId, fields)
const savedId = savedEventId
const flashOf = async (result: Outcome) =>
	(await readFlash(new Request(SITE_URL, { headers: { cookie: cookieFrom(result.headers) } }))).flash
const settingPost = (on: boolean, cookie?: string) =>
	routeArgs(formPost(NEWSLETTER, { intent: 'prepare', ...(on ? { prepareAnnouncements: 'on' } : {}) }, { cookie }), NEWSLETTER) as never
const setting = async (on: boolean) => outcome(await newsletter.action(settingPost(on, adminCookie)))
const preparedFor = (eventId: string) => db().select().from(newsletterCampaign).where(eq(newsletterCampaign.preparedForEvent, eventId))
const newsletterPage = async () =>
	(await outcome(await newsletter.loader(routeArgs(get(NEWSLETTER, { cookie: adminCookie }), NEWSLETTER) as never))).body as {
		prepare: boolean
		campaigns: { id: string; prepared: boolean }[]
	}
const statsPage = async () =>
	(await outcome(await stats.loader(routeArgs(get('/dashboard/admin/stats', { cookie: adminCookie }), '/dashboard/admin/stats') as never)))
		.body as { prepared: { id: string; subject: string }[] }

describe('a prepared announcement for each newly published concert', () => {
	it('is off by default: publishing writes no draft', async () => {
		expect((await newsletterPage()).prepare).toBe(false)
		const id = savedId(await editorPost('new', eventForm({ intent: 'publish' })))
		expect(await preparedFor(id)).toHaveLength(0)
		expect(await db().select().from(newsletterCampaign)).toHaveLength(0)
		expect((await statsPage()).prepared).toEqual([])
	})

	it('may be changed by an admin only', async () => {
		expect((await thrown(() => newsletter.action(settingPost(true, memberCookie)))).status).toBe(403)
		expect((await thrown(() => newsletter.action(settingPost(true)))).status).toBe(302)
		expect((await newsletterPage()).prepare).toBe(false)
		const turnedOn = await setting(true)
		expect(turnedOn.status).toBe(302)
		expect(await flashOf(turnedOn)).toMatchObject({ key: 'newsletter.admin.flash.prepareOn' })
		expect((await newsletterPage()).prepare).toBe(true)
	})

	it('on: one draft at the first publication, as « Annoncer aux fans proches » writes it; none on edit or re-publication; nothing sent', async () => {
		// A draft event, then saved again: no publication, no announcement.
		const id = savedId(
			await editorPost('new', eventForm({ title: 'Le Transbordeur en fête', ticketUrl: 'https://billets.exemple.fr/lyon' })),
		)
		await editorPost(id, eventForm({ title: 'Le Transbordeur en fête', ticketUrl: 'https://billets.exemple.fr/lyon' }))
		expect(await preparedFor(id)).toHaveLength(0)

		const published = await editorPost(
			id,
			eventForm({ title: 'Le Transbordeur en fête', ticketUrl: 'https://billets.exemple.fr/lyon', intent: 'publish' }),
		)
		expect(published.status).toBe(302)
		expect(await flashOf(published)).toMatchObject({ key: 'admin.events.flash.publishedPrepared' })
		const [draft, ...more] = await preparedFor(id)
		expect(more).toHaveLength(0)
		// The same text as the manual flow's, from the same code; the default radius around the venue.
		const expected = await announcementDraft(db(), env.platform.env, id)
		expect(draft).toMatchObject({ ...expected, status: 'draft', scheduledAt: null, recipients: null })
		expect(draft!.body).toContain('https://billets.exemple.fr/lyon')
		expect(draft!.body).toContain(`/events/${id}/agenda.ics`)
		expect(draft!.audience).toMatchObject({
			kind: 'radius',
			eventId: id,
			radiusKm: 150,
			includeNoTown: false,
			latitude: 45.75,
			countAtSave: 1,
		})

		// Edited, re-published, withdrawn and published again: still that one draft.
		await editorPost(id, eventForm({ title: 'Le Transbordeur en fête !', intent: 'publish' }))
		await editorPost(id, eventForm({ title: 'Le Transbordeur en fête !' }))
		await editorPost(id, eventForm({ title: 'Le Transbordeur en fête !', intent: 'unpublish' }))
		const again = await editorPost(id, eventForm({ title: 'Le Transbordeur en fête !', intent: 'publish' }))
		expect(await flashOf(again)).toMatchObject({ key: 'admin.events.flash.published' })
		expect(await preparedFor(id)).toHaveLength(1)

		// Created published: its own draft too.
		const other = savedId(await editorPost('new', eventForm({ title: 'Deuxième date', startsAt: '2030-06-01T20:30', intent: 'publish' })))
		expect(await preparedFor(other)).toHaveLength(1)
		// A show already past is published as an archive, never announced.
		const past = savedId(await editorPost('new', eventForm({ title: 'Souvenir', startsAt: '2020-06-01T20:30', intent: 'publish' })))
		expect(await preparedFor(past)).toHaveLength(0)

		// The admin is told: on the stats screen, with links, and in the campaign list.
		const shown = (await statsPage()).prepared
		expect(shown.map((d) => d.id).toSorted()).toEqual([draft!.id, (await preparedFor(other))[0]!.id].toSorted())
		const listed = (await newsletterPage()).campaigns
		expect(listed.filter((c) => c.prepared)).toHaveLength(2)

		// A prepared draft the admin deleted does not come back when the event is published again.
		await db().delete(newsletterCampaign).where(eq(newsletterCampaign.preparedForEvent, other))
		await editorPost(other, eventForm({ title: 'Deuxième date', startsAt: '2030-06-01T20:30', intent: 'unpublish' }))
		await editorPost(other, eventForm({ title: 'Deuxième date', startsAt: '2030-06-01T20:30', intent: 'publish' }))
		expect(await preparedFor(other)).toHaveLength(0)

		// Never sent: nothing queued, nothing at the relay.
		await new Promise((resolve) => setTimeout(resolve, 300))
		expect(smtp.to('fan-lyon@exemple.fr')).toHaveLength(0)
		expect(smtp.received.filter((mail) => mail.parsed.subject?.includes('on joue à'))).toHaveLength(0)
		const statuses = await db()
			.select({ status: newsletterCampaign.status })
			.from(newsletterCampaign)
			.where(isNotNull(newsletterCampaign.preparedAt))
		expect(statuses.every((c) => c.status === 'draft')).toBe(true)
	})

	it('never fails a publication: a draft the database refuses is told, and the event is published all the same', async () => {
		// A real refusal by the database (a constraint added for this test), in the publication's transaction.
		await db().execute(sql`alter table newsletter_campaign add constraint test_refuse check (subject not like '%Refusé%')`)
		try {
			const result = await editorPost('new', eventForm({ title: 'Refusé', startsAt: '2030-07-01T20:30', intent: 'publish' }))
			expect(result.status).toBe(302)
			expect(await flashOf(result)).toMatchObject({ type: 'error', key: 'admin.events.flash.publishedNotPrepared' })
			const id = savedId(result)
			expect((await db().select({ published: event.published }).from(event).where(eq(event.id, id)))[0]).toEqual({ published: true })
			expect(await preparedFor(id)).toHaveLength(0)
		} finally {
			await db().execute(sql`alter table newsletter_campaign drop constraint test_refuse`)
		}
	})

	it('off again: a new publication writes nothing', async () => {
		expect((await setting(false)).status).toBe(302)
		expect((await newsletterPage()).prepare).toBe(false)
		const id = savedId(await editorPost('new', eventForm({ title: 'Troisième date', intent: 'publish' })))
		expect(await preparedFor(id)).toHaveLength(0)
	})
})
