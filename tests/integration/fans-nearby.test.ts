import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { placeOldVenues } from '#app/features/events/venue-place.server.ts'
import { getCampaign } from '#app/features/newsletter/campaigns.server.tsx'
import { runCampaignSlice } from '#app/features/newsletter/sender.server.ts'
import { subscribersByRegion } from '#app/features/newsletter/stats.server.ts'
import { newSecret as newToken } from '#app/platform/random-token.server.ts'
import { event, newsletterSubscriber, user } from '#app/platform/db/schema.ts'
import * as audienceCount from '#app/routes/admin/newsletter-audience.ts'
import * as compose from '#app/routes/admin/newsletter-campaign.tsx'
import * as dashboard from '#app/routes/dashboard/home.tsx'
import * as subscribersExport from '#app/routes/admin/newsletter-export.ts'
import * as subscribersList from '#app/routes/admin/newsletter-subscribers.tsx'
import * as events from '#app/routes/public/events.tsx'
import * as editor from '#app/routes/admin/event-editor.tsx'
import { lyonEventForm, postEventEditor, savedEventId } from '../support/event-editor.ts'
import { daysFrom, insertEvent } from '../support/events.ts'
import { signUpConfirmed } from '../support/members.ts'
import { startTestPlatform, type TestPlatform } from '../support/platform.ts'
import { formPost, get, outcome, routeArgs } from '../support/requests.ts'
import { startTestSmtp, type TestSmtp } from '../support/smtp.ts'
import { parisDay } from '#app/platform/time-zone.ts'

/*
 * Concerts and the fans near them, through the real routes and a real SMTP server: a venue placed
 * from its town (old events too), announced to the subscribers within reach only.
 */
const LIST = '/dashboard/admin/events'
const EDITOR = '/dashboard/admin/events/:eventId'
let env: TestPlatform
let smtp: TestSmtp
let adminCookie: string
beforeAll(async () => {
	smtp = await startTestSmtp()
	env = await startTestPlatform({ env: { SMTP_URL: smtp.url, SMTP_RATE_PER_SECOND: '2000' } })
	adminCookie = await signUpConfirmed({ name: 'Régie', email: 'regie@exemple.fr', password: 'cheval agrafe pile correcte' })
	await db().update(user).set({ role: 'admin' }).where(eq(user.email, 'regie@exemple.fr'))
})
afterAll(async () => {
	await env?.stop()
	await smtp?.close()
})
const db = () => env.platform.database.db

const eventForm = lyonEventForm
const editorPost = (eventId: string, fields: Record<string, string>) => postEventEditor(adminCookie, eventId, fields)
const savedId = savedEventId
const placeOf = async (id: string) =>
	(
		await db()
			.select({ latitude: event.latitude, longitude: event.longitude, source: event.coordinatesSource, townId: event.townId })
			.from(event)
			.where(eq(event.id, id))
	)[0]

describe('where a concert is', () => {
	it('places a venue from its town, keeps typed coordinates, and looks again when the town changes', async () => {
		const created = await editorPost('new', eventForm())
		expect(created.status).toBe(302)
		const id = savedId(created)
		expect(await placeOf(id)).toMatchObject({ latitude: 45.75, longitude: 4.85, source: 'town' })
		const page = await outcome(
			await editor.loader(routeArgs(get(`${LIST}/${id}`, { cookie: adminCookie }), EDITOR, { eventId: id }) as never),
		)
		expect(page.body).toMatchObject({ place: { source: 'town', townLabel: 'Lyon (Rhône)', mapUrl: expect.stringContaining('45.75') } })
		// Saved again as loaded: still the town's.
		await editorPost(id, eventForm({ latitude: '45.75', longitude: '4.85' }))
		expect(await placeOf(id)).toMatchObject({ source: 'town' })
		// The town changes, its old coordinates still in the fields: looked up again.
		await editorPost(id, eventForm({ city: 'Brest', latitude: '45.75', longitude: '4.85' }))
		expect(await placeOf(id)).toMatchObject({ latitude: 48.39, longitude: -4.49, source: 'town' })
		// Typed by hand: the admin's, kept.
		await editorPost(id, eventForm({ city: 'Brest', latitude: '48.3904', longitude: '-4.4861' }))
		expect(await placeOf(id)).toMatchObject({ latitude: 48.3904, longitude: -4.4861, source: 'manual', townId: null })
	})

	it('asks which town among namesakes, and keeps a city the list does not know without coordinates', async () => {
		const asked = await editorPost('new', eventForm({ city: 'Villeneuve' }))
		expect(asked.status).toBe(400)
		expect(asked.body).toMatchObject({ venueChoices: expect.arrayContaining(['Villeneuve (Aveyron)']) })
		expect(JSON.stringify(asked.body)).toContain('Villeneuve')
		const picked = await editorPost('new', eventForm({ city: 'Villeneuve', venueTown: 'Villeneuve (Aveyron)' }))
		expect(await placeOf(savedId(picked))).toMatchObject({ source: 'town', latitude: expect.closeTo(44.43, 1) })
		const unknown = await editorPost('new', eventForm({ city: 'Nulle-Part-sur-Rien' }))
		expect(unknown.status).toBe(302)
		expect(await placeOf(savedId(unknown))).toMatchObject({ source: 'unresolved', latitude: null })
	})

	it('places the events saved before the town list, in bounded batches', async () => {
		const ids: string[] = []
		for (let i = 0; i < 7; i++)
			ids.push(await insertEvent(db(), { title: `Ancien ${i}`, startsAt: daysFrom(10 + i), city: i % 2 ? 'Lyon' : 'Brest' }))
		await db().update(event).set({ coordinatesSource: null, latitude: null, longitude: null })
		// Coordinates written without a source (a script, an import) are someone's own: kept.
		const own = await insertEvent(db(), { title: 'Salle placée à la main', startsAt: daysFrom(30), city: 'Paris' })
		await db().update(event).set({ coordinatesSource: null, latitude: 48.88231, longitude: 2.34037 }).where(eq(event.id, own))
		let rounds = 0
		while ((await placeOldVenues(db(), 3)) > 0) rounds++
		expect(rounds).toBeGreaterThanOrEqual(3)
		for (const id of ids) expect((await placeOf(id))?.source).toBe('town')
		expect(await placeOf(ids[1]!)).toMatchObject({ latitude: 45.75 })
		expect(await placeOf(own)).toMatchObject({ latitude: 48.88231, longitude: 2.34037, source: 'manual' })
	})
})

const COMPOSE = '/dashboard/admin/newsletter/campaigns/:campaignId'
async function subscriber(
	email: string,
	town: { label: string; latitude: number; longitude: number } | null,
	status: 'active' | 'unsubscribed' = 'active',
) {
	await db()
		.insert(newsletterSubscriber)
		.values({
			id: email,
			email,
			status,
			source: 'landing',
			unsubscribeToken: newToken(),
			townLabel: town?.label ?? null,
			// GeoNames' ids of Brest and Lyon (the list's own), for the stats by region.
			townId: town ? (town.label.startsWith('Brest') ? 3030300 : 2996944) : null,
			latitude: town?.latitude ?? null,
			longitude: town?.longitude ?? null,
		})
}
const composeLoad = async (campaignId: string, search = '') =>
	outcome(
		await compose.loader(
			routeArgs(get(`/dashboard/admin/newsletter/campaigns/${campaignId}${search}`, { cookie: adminCookie }), COMPOSE, {
				campaignId,
			}) as never,
		),
	)
const composePost = async (campaignId: string, fields: Record<string, string>) =>
	outcome(
		await compose.action(
			routeArgs(formPost(`/dashboard/admin/newsletter/campaigns/${campaignId}`, fields, { cookie: adminCookie }), COMPOSE, {
				campaignId,
			}) as never,
		),
	)
const countFor = async (query: Record<string, string>) =>
	outcome(
		await audienceCount.loader(
			routeArgs(
				get(`/dashboard/admin/newsletter/audience?${new URLSearchParams(query)}`, { cookie: adminCookie }),
				'/dashboard/admin/newsletter/audience',
			) as never,
		),
	)

describe('announcing a concert to the fans near it', () => {
	it('writes the campaign from the event, counts the fans within reach live, and mails only them', async () => {
		await db().update(newsletterSubscriber).set({ status: 'unsubscribed' })
		await subscriber('fan-lyon@exemple.fr', { label: 'Lyon (Rhône)', latitude: 45.75, longitude: 4.85 })
		await subscriber('fan-villeurbanne@exemple.fr', { label: 'Villeurbanne (Rhône)', latitude: 45.77, longitude: 4.88 }, 'unsubscribed')
		await subscriber('fan-brest@exemple.fr', { label: 'Brest (Finistère)', latitude: 48.39, longitude: -4.49 })
		await subscriber('fan-sans-ville@exemple.fr', null)
		const created = await editorPost(
			'new',
			eventForm({ title: 'Le Transbordeur en fête', ticketUrl: 'https://billets.exemple.fr/lyon', intent: 'publish' }),
		)
		const eventId = savedId(created)

		const page = await composeLoad('new', `?event=${eventId}`)
		expect(page.body).toMatchObject({
			draft: { subject: expect.stringContaining('Lyon'), body: expect.stringContaining('https://billets.exemple.fr/lyon') },
			audience: { eventId, placed: true, radiusKm: 150, count: 1 },
		})
		const body = (page.body as { draft: { body: string } }).draft.body
		expect(body).toContain(`/events/${eventId}/agenda.ics`)
		expect(body).toMatch(/\*\*\w+ 16 mai 2030 à 20 h 30\*\*/)

		// The live count: the Brest fan comes in at 800 km, those without a town when asked.
		expect((await countFor({ audienceEvent: eventId, radiusKm: '150' })).body).toEqual({ count: 1, invalid: null })
		expect((await countFor({ audienceEvent: eventId, radiusKm: '800' })).body).toEqual({ count: 2, invalid: null })
		expect((await countFor({ audienceEvent: eventId, radiusKm: '150', includeNoTown: 'on' })).body).toEqual({ count: 2, invalid: null })
		expect((await countFor({ audienceEvent: eventId, radiusKm: '5000' })).status).toBe(400)

		const draft = (page.body as { draft: Record<string, string> }).draft
		const refused = await composePost('new', { intent: 'save', ...draft, audienceEvent: eventId, radiusKm: '0' })
		expect(refused).toMatchObject({ status: 400, body: { audienceError: expect.stringContaining('entre 10 et 1000 km') } })
		// Coordinates in the post are not read: the venue's come from the event.
		const sent = await composePost('new', {
			intent: 'send',
			...draft,
			audienceEvent: eventId,
			radiusKm: '150',
			latitude: '48.39',
			longitude: '-4.49',
		})
		expect(sent.status).toBe(302)
		const campaignId = sent.headers.get('location')!.split('/').pop()!
		expect((await getCampaign(db(), campaignId))?.audience).toMatchObject({
			kind: 'radius',
			eventId,
			radiusKm: 150,
			includeNoTown: false,
			countAtSave: 1,
			latitude: 45.75,
		})

		// The send's job, run here as its worker would (the exactly-once sender of every campaign).
		const { database, env: e, logger, realtime, jobs } = env.platform
		expect(await runCampaignSlice({ db: database.db, env: e, logger, realtime, jobs }, campaignId)).toEqual({ state: 'done' })
		const mail = await smtp.waitFor('fan-lyon@exemple.fr', undefined, 10_000)
		expect(mail.parsed.subject).toContain('Lyon')
		expect(mail.raw).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click')
		expect(mail.parsed.html).toContain('/newsletter/town?token=')
		const campaign = await getCampaign(db(), campaignId)
		expect(campaign).toMatchObject({ status: 'sent', recipients: 1 })
		expect(smtp.to('fan-brest@exemple.fr')).toHaveLength(0)
		expect(smtp.to('fan-sans-ville@exemple.fr')).toHaveLength(0)
		expect(smtp.to('fan-villeurbanne@exemple.fr')).toHaveLength(0)
		expect(smtp.to('fan-lyon@exemple.fr')).toHaveLength(1)
		// The campaign's screen says who it went to.
		expect((await composeLoad(campaignId)).body).toMatchObject({ audience: { radiusKm: 150 }, recipients: 1 })
	})

	it('goes to everyone, saying why, when the venue has no coordinates', async () => {
		const created = await editorPost('new', eventForm({ city: 'Nulle-Part-sur-Rien', title: 'Concert secret' }))
		const eventId = savedId(created)
		const page = await composeLoad('new', `?event=${eventId}`)
		// The screen says why (newsletter.announce.audience.unplaced names the venue) and counts everyone.
		expect(page.body).toMatchObject({ audience: { placed: false, count: 3, venue: expect.stringContaining('Nulle-Part-sur-Rien') } })
		const draft = (page.body as { draft: Record<string, string> }).draft
		// A radius and coordinates posted anyway change nothing: the venue has no place to measure from.
		const sent = await composePost('new', {
			intent: 'send',
			...draft,
			audienceEvent: eventId,
			radiusKm: '50',
			latitude: '45.75',
			longitude: '4.85',
		})
		expect(sent.status).toBe(302)
		const campaignId = sent.headers.get('location')!.split('/').pop()!
		expect((await getCampaign(db(), campaignId))?.audience).toBeNull()
		const { database, env: e, logger, realtime, jobs } = env.platform
		expect(await runCampaignSlice({ db: database.db, env: e, logger, realtime, jobs }, campaignId)).toEqual({ state: 'done' })
		expect(await getCampaign(db(), campaignId)).toMatchObject({ status: 'sent', recipients: 3 })
		for (const fan of ['fan-lyon@exemple.fr', 'fan-brest@exemple.fr', 'fan-sans-ville@exemple.fr'])
			expect(smtp.to(fan).filter((mail) => mail.parsed.subject?.startsWith('Concert secret'))).toHaveLength(1)
	})
})

describe('a fan sees the shows near them', () => {
	it('on the dashboard, « Près de chez vous »: the shows within reach of the member’s town, nearest first', async () => {
		const cookie = await signUpConfirmed({ name: 'Lyonnaise', email: 'membre-lyon@exemple.fr', password: 'cheval agrafe pile correcte' })
		const home = async () => outcome(await dashboard.loader(routeArgs(get('/dashboard', { cookie }), '/dashboard') as never))
		// No subscription, no town: the section says where to give one.
		expect((await home()).body).toMatchObject({ near: { town: null, events: [] } })
		await subscriber('membre-lyon@exemple.fr', { label: 'Lyon (Rhône)', latitude: 45.75, longitude: 4.85 })
		await editorPost('new', eventForm({ title: 'Grenoble, tout près', city: 'Grenoble', startsAt: '2030-04-01T20:30', intent: 'publish' }))
		await editorPost('new', eventForm({ title: 'Brest, trop loin', city: 'Brest', startsAt: '2030-03-01T20:30', intent: 'publish' }))
		const near = (await home()).body as { near: { town: string; events: { title: string; distanceKm: number }[] } }
		expect(near.near.town).toBe('Lyon (Rhône)')
		const titles = near.near.events.map((e) => e.title)
		// Lyon's shows (this file's, at 0 km) first, then Grenoble's; Brest's are out of reach.
		expect(near.near.events[0]?.distanceKm).toBe(0)
		expect(titles).toContain('Le Transbordeur en fête')
		expect(titles.at(-1)).toBe('Grenoble, tout près')
		expect(titles).not.toContain('Brest, trop loin')
		const distances = near.near.events.map((e) => e.distanceKm)
		expect(distances).toEqual(distances.toSorted((a, b) => a - b))
	})

	it('on /events, sorted by distance from a town a visitor types (nothing kept), and asks which among namesakes', async () => {
		await editorPost('new', eventForm({ title: 'Lieu inconnu', city: 'Nulle-Part-sur-Rien', intent: 'publish' }))
		const list = async (search: string) => outcome(await events.loader(routeArgs(get(`/events${search}`), '/events') as never))
		const plain = await list('')
		expect((plain.body as { nearTown: unknown }).nearTown).toBeNull()
		const fromBrest = (await list('?ville=brest')).body as {
			nearTown: { town: string; events: { title: string; distanceKm: number | null }[] }
		}
		expect(fromBrest.nearTown.town).toBe('Brest (Finistère)')
		// Coordinates in the address are not read: the town is placed by the server.
		const forged = (await list('?ville=brest&latitude=45.75&longitude=4.85')).body as typeof fromBrest
		expect(forged.nearTown.events.map((e) => e.distanceKm)).toEqual(fromBrest.nearTown.events.map((e) => e.distanceKm))
		const order = fromBrest.nearTown.events.map((e) => e.title)
		expect(fromBrest.nearTown.events[0]).toMatchObject({ distanceKm: 0 })
		expect(order.indexOf('Brest, trop loin')).toBeLessThan(order.indexOf('Le Transbordeur en fête'))
		const known = fromBrest.nearTown.events.filter((e) => e.distanceKm !== null).map((e) => e.distanceKm!)
		expect(known).toEqual(known.toSorted((a, b) => a - b))
		// The venue without a known place comes last.
		expect(fromBrest.nearTown.events.at(-1)).toMatchObject({ distanceKm: null })
		const asked = (await list('?ville=Saint-Denis')).body as { nearTown: { events: null; problem: { choices: string[] } } }
		expect(asked.nearTown.events).toBeNull()
		expect(asked.nearTown.problem.choices).toContain('Saint-Denis (Seine-Saint-Denis)')
		const picked = (await list(`?ville=Saint-Denis&townChoice=${encodeURIComponent('Saint-Denis (Seine-Saint-Denis)')}`)).body as {
			nearTown: { town: string }
		}
		expect(picked.nearTown.town).toBe('Saint-Denis (Seine-Saint-Denis)')
	})
})

describe('segments of the subscribers admin', () => {
	const LIST_PATH = '/dashboard/admin/newsletter/subscribers'
	const emails = async (query: Record<string, string>) => {
		const page = await outcome(
			await subscribersList.loader(
				routeArgs(get(`${LIST_PATH}?${new URLSearchParams(query)}`, { cookie: adminCookie }), LIST_PATH) as never,
			),
		)
		return (page.body as { list: { rows: { email: string }[] } }).list.rows.map((row) => row.email)
	}
	it('filters by distance to a town, status, source and subscription date, and exports exactly that', async () => {
		const nearLyon = await emails({ ville: 'Lyon', km: '150' })
		expect(nearLyon).toEqual(expect.arrayContaining(['fan-lyon@exemple.fr', 'fan-villeurbanne@exemple.fr']))
		expect(nearLyon).not.toContain('fan-brest@exemple.fr')
		expect(nearLyon).not.toContain('fan-sans-ville@exemple.fr')
		const activeNearLyon = await emails({ ville: 'Lyon', km: '150', status: 'active' })
		expect(activeNearLyon).toContain('fan-lyon@exemple.fr')
		expect(activeNearLyon).not.toContain('fan-villeurbanne@exemple.fr')
		expect(await emails({ ville: 'Lyon', km: '1000' })).toContain('fan-brest@exemple.fr')
		expect(await emails({ source: 'landing', ville: 'Brest' })).toEqual(['fan-brest@exemple.fr'])
		expect(await emails({ source: 'import', ville: 'Brest' })).toEqual([])
		expect(await emails({ from: '2999-01-01' })).toEqual([])
		// The site's day (Paris), which the filter reads, not UTC's: they differ for an hour or two each night.
		const today = parisDay()
		expect(await emails({ from: '2020-01-01', to: today, ville: 'Brest' })).toEqual(['fan-brest@exemple.fr'])
		// A town the list does not know: said next to the field, the other filters still apply.
		const unknown = await outcome(
			await subscribersList.loader(routeArgs(get(`${LIST_PATH}?ville=Nulle-Part-sur-Rien`, { cookie: adminCookie }), LIST_PATH) as never),
		)
		expect(unknown.body).toMatchObject({
			typedTown: 'Nulle-Part-sur-Rien',
			townProblem: { message: expect.stringContaining('Nous ne trouvons pas') },
		})
		// A distance out of bounds: said next to the field, what was typed kept, no distance filter
		// (the list and its export alike); the other filters still apply.
		for (const km of ['5000', '0', 'loin']) {
			const refused = await outcome(
				await subscribersList.loader(
					routeArgs(
						get(`${LIST_PATH}?${new URLSearchParams({ ville: 'Lyon', km, source: 'landing' })}`, { cookie: adminCookie }),
						LIST_PATH,
					) as never,
				),
			)
			expect(refused.body).toMatchObject({
				typedKm: km,
				radiusProblem: 'Choisissez une distance entre 10 et 1000 km.',
				filters: 'source=landing',
			})
		}
		// No distance filter: even those without a town are listed (any radius would leave them out).
		expect(await emails({ ville: 'Lyon', km: '5000' })).toContain('fan-sans-ville@exemple.fr')

		const csv = await subscribersExport.loader(
			routeArgs(
				get(`${LIST_PATH}.csv?${new URLSearchParams({ ville: 'Lyon', km: '150', status: 'active' })}`, { cookie: adminCookie }),
				`${LIST_PATH}.csv`,
			) as never,
		)
		const text = await (csv as Response).text()
		// Named after the site's day, as the admin's list dates everything (Paris), not UTC's.
		expect((csv as Response).headers.get('content-disposition')).toContain(`abonnes-newsletter-active-${parisDay()}.csv`)
		expect(text.split('\r\n')[0]).toContain(',ville')
		expect(text).toContain('fan-lyon@exemple.fr')
		expect(text).toContain('Lyon (Rhône)')
		expect(text).not.toContain('fan-brest@exemple.fr')
		expect(text).not.toContain('fan-villeurbanne@exemple.fr')
	})
})

describe('the stats by region', () => {
	it('counts the active subscribers by French region (else country), and those without a town', async () => {
		const { regions, withoutTown } = await subscribersByRegion(db())
		const of = (label: string) => regions.find((region) => region.label === label)?.value ?? 0
		// Lyon's fans (the unsubscribed one from Villeurbanne left out), Brest's, the one without a town.
		expect(of('Auvergne-Rhône-Alpes')).toBe(2)
		expect(of('Bretagne')).toBe(1)
		expect(withoutTown).toBe(1)
	})
})
