import { eq } from 'drizzle-orm'
import ical, { type VEvent } from 'node-ical'
import { RouterContextProvider } from 'react-router'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cachedEventDetail, FRESH_MS, invalidateEventCache } from '#app/features/events/cache.server.ts'
import { countEvents, eventsPage, pastEvents, upcomingEvents } from '#app/features/events/events.server.ts'
import { event, user } from '#app/platform/db/schema.ts'
import * as eventIcs from '#app/routes/public/event-ics.ts'
import * as eventRoute from '#app/routes/public/event.tsx'
import * as eventsIcs from '#app/routes/public/events-ics.ts'
import * as eventsRoute from '#app/routes/public/events.tsx'
import * as home from '#app/routes/public/home.tsx'
import * as robots from '#app/routes/public/robots.ts'
import * as sitemap from '#app/routes/public/sitemap.ts'
import { daysFrom, insertCover, insertEvent } from '../support/events.ts'
import { signUpConfirmed } from '../support/members.ts'
import { startTestPlatform, type TestPlatform } from '../support/platform.ts'
import { outcome, routeArgs, SITE_URL, thrown } from '../support/requests.ts'

/*
 * The public side of events against a real database: lists, the page (with its 404s, the admin's
 * draft preview, its share tags, JSON-LD and validators), the calendar files, the sitemap.
 */

let env: TestPlatform
const db = () => env.platform.database.db
const ids: Record<string, string> = {}
let memberCookie = ''
let adminCookie = ''

beforeAll(async () => {
	env = await startTestPlatform()
	const cover = await insertCover(db(), { alt: 'Le groupe sur scène, lumières rouges' })
	ids.scheduled = await insertEvent(db(), {
		title: 'Release party',
		startsAt: daysFrom(10),
		doorsAt: daysFrom(10, 19, 30),
		ticketUrl: 'https://billets.exemple.fr/release',
		priceText: '12,50 €',
		latitude: 48.882,
		longitude: 2.34,
		coverId: cover.id,
		description: 'Un **grand** soir ; avec des invités, et une barre \\ oblique.\n\nDeuxième paragraphe.',
	})
	ids.soldOut = await insertEvent(db(), {
		title: 'Complet à Lyon',
		startsAt: daysFrom(20),
		city: 'Lyon',
		venueName: 'Le Transbordeur',
		status: 'sold_out',
		ticketUrl: 'https://billets.exemple.fr/lyon',
	})
	ids.postponed = await insertEvent(db(), {
		title: 'Nantes, nouvelle date',
		startsAt: daysFrom(30),
		previousStartsAt: daysFrom(5),
		status: 'postponed',
		city: 'Nantes',
		venueName: 'Stereolux',
		ticketUrl: 'https://billets.exemple.fr/nantes',
	})
	ids.cancelled = await insertEvent(db(), {
		title: 'Lille annulé',
		startsAt: daysFrom(15),
		city: 'Lille',
		venueName: 'L’Aéronef',
		status: 'cancelled',
		ticketUrl: 'https://billets.exemple.fr/lille',
	})
	ids.hostile = await insertEvent(db(), {
		title: 'Bruxelles </script><script>alert(1)</script>',
		startsAt: daysFrom(25),
		city: 'Bruxelles',
		country: 'BE',
		venueName: 'Ancienne Belgique',
		ticketUrl: 'javascript:alert(document.cookie)',
		description: '<script>alert("x")</script>\n\n[clic](javascript:alert(1)) <img src=x onerror=alert(2)>',
	})
	ids.draft = await insertEvent(db(), { title: 'Date secrète', startsAt: daysFrom(12), published: false, publishedAt: null })
	ids.recentPast = await insertEvent(db(), {
		title: 'Rennes',
		startsAt: daysFrom(-3),
		city: 'Rennes',
		ticketUrl: 'https://billets.exemple.fr/rennes',
	})
	ids.oldPast = await insertEvent(db(), { title: 'Brest', startsAt: daysFrom(-40), city: 'Brest' })

	// A member, and an admin (the role set directly: how one becomes admin is the accounts' tests' concern).
	const signUp = async (email: string) => {
		return signUpConfirmed({ name: 'Test', email, password: 'cheval agrafe pile correcte' })
	}
	memberCookie = await signUp('fan@exemple.fr')
	adminCookie = await signUp('cheffe@exemple.fr')
	await db().update(user).set({ role: 'admin' }).where(eq(user.email, 'cheffe@exemple.fr'))
})
afterAll(async () => {
	await env?.stop()
})

function request(path: string, options: { cookie?: string; headers?: Record<string, string> } = {}) {
	const headers = new Headers({ 'user-agent': 'vitest', ...options.headers })
	if (options.cookie) headers.set('cookie', options.cookie)
	return new Request(new URL(path, SITE_URL), { headers })
}

type EventPageData = Awaited<ReturnType<typeof eventRoute.loader>>

/**
 * An event page as React Router serves it: the route's middleware around its loader. The
 * document itself is not rendered here; a thrown 404 becomes a 404 response, as the error page would.
 */
async function openEventPage(
	id: string,
	options: {
		cookie?: string
		headers?: Record<string, string>
		/** Keep what this process cached of the page (by default each call starts afresh and renders). */
		keepCache?: boolean
		/** What the render would produce (a document with a CSP nonce, for the page cache's tests). */
		render?: () => Response
	} = {},
) {
	if (!options.keepCache) invalidateEventCache(id)
	const req = request(`/events/${id}`, options)
	const args = { ...routeArgs(req, '/events/:eventId', { eventId: id }), context: new RouterContextProvider() }
	let loaderData: EventPageData | undefined
	let loaderRan = false
	const response = await eventRoute.middleware[0]!(args as never, async () => {
		loaderRan = true
		try {
			loaderData = await eventRoute.loader(args as never)
			return options.render?.() ?? new Response('<!doctype html>', { status: 200, headers: { 'Content-Type': 'text/html' } })
		} catch (error) {
			const thrownOutcome = await outcome(error)
			return new Response(null, { status: thrownOutcome.status })
		}
	})
	return { response: response as Response, loaderData, loaderRan }
}

async function icsOf(id: string, options: { cookie?: string; headers?: Record<string, string> } = {}) {
	const req = request(`/events/${id}/agenda.ics`, options)
	return (await eventIcs.loader(routeArgs(req, '/events/:eventId/agenda.ics', { eventId: id }) as never)) as Response
}

describe('event queries', () => {
	it('lists upcoming published shows soonest first, drafts and past shows left out', async () => {
		const rows = await upcomingEvents(db())
		expect(rows.map((r) => r.id)).toEqual([ids.scheduled, ids.cancelled, ids.soldOut, ids.hostile, ids.postponed])
	})

	it('lists past shows latest first', async () => {
		expect((await pastEvents(db())).map((r) => r.id)).toEqual([ids.recentPast, ids.oldPast])
		expect(await countEvents(db())).toEqual({ upcoming: 5, past: 2 })
	})

	it('pages through upcoming then past shows', async () => {
		const pages = await Promise.all([1, 2, 3, 4].map((page) => eventsPage(db(), page, { perPage: 2 })))
		expect(pages[0]!.pageCount).toBe(4)
		expect(pages.map((p) => [p.upcoming.map((e) => e.id), p.past.map((e) => e.id)])).toEqual([
			[[ids.scheduled, ids.cancelled], []],
			[[ids.soldOut, ids.hostile], []],
			[[ids.postponed], [ids.recentPast]],
			[[], [ids.oldPast]],
		])
		expect(pages[2]!.past[0]).toMatchObject({ isPast: true, title: 'Rennes' })
	})
})

describe('/events', () => {
	it('shows the first page, with French dates', async () => {
		const result = await outcome(await eventsRoute.loader(routeArgs(request('/events'), '/events') as never))
		const body = result.body as Awaited<ReturnType<typeof eventsRoute.loader>>
		expect(body.upcoming).toHaveLength(5)
		expect(body.past).toHaveLength(2)
		expect(body.upcoming[0]!.start.dateTime).toMatch(/^[a-z]+ (1er|\d{1,2}) [a-zéû]+ \d{4} à 20 h 30$/)
		expect(body.canonical).toBe(`${SITE_URL}/events`)
		// The javascript: ticket address is never handed to the page.
		expect(JSON.stringify(body)).not.toContain('javascript:')
	})

	it('sends nonsense page numbers to the list, and pages past the end to the last one', async () => {
		for (const [query, location] of [
			['?page=abc', '/events'],
			['?page=0', '/events'],
			['?page=-2', '/events'],
			['?page=1', '/events'],
			['?page=99', '/events'],
		] as const) {
			const result = await thrown(() => eventsRoute.loader(routeArgs(request(`/events${query}`), '/events') as never))
			expect(result.status, query).toBe(302)
			expect(result.headers.get('location'), query).toBe(location)
		}
	})
})

describe('the landing', () => {
	it('lists the next shows', async () => {
		invalidateEventCache()
		const result = (await home.loader()) as Awaited<ReturnType<typeof home.loader>>
		expect(result.events.map((e) => e.id)).toEqual([ids.scheduled, ids.cancelled, ids.soldOut, ids.hostile, ids.postponed])
		expect(result.hasPast).toBe(true)
	})
})

describe('/events/:eventId', () => {
	it('gives everything the page shows, in French', async () => {
		const { response, loaderData } = await openEventPage(ids.scheduled!)
		expect(response.status).toBe(200)
		const { event: page, seo } = loaderData!
		expect(page.title).toBe('Release party')
		expect(page.start.dateTime).toMatch(/ à 20 h 30$/)
		expect(page.doors?.time).toBe('19 h 30')
		expect(page.priceText).toBe('12,50 €')
		expect(page.ticketUrl).toBe('https://billets.exemple.fr/release')
		expect(page.mapUrl).toBe('https://www.openstreetmap.org/?mlat=48.882&mlon=2.34#map=17/48.882/2.34')
		expect(page.descriptionHtml).toContain('<strong>grand</strong>')
		expect(page.cover?.variants.length).toBeGreaterThan(0)
		expect(seo.title).toBe(`Release party — Paris, ${page.start.dayMonthYear} · Le Groupe`)
		expect(seo.description).toBe('Un grand soir ; avec des invités, et une barre \\ oblique. Deuxième paragraphe.')
		expect(seo.url).toBe(`${SITE_URL}/events/${ids.scheduled}`)
		expect(seo.image).toMatchObject({
			url: expect.stringMatching(/^http:\/\/localhost:3000\/media\/img\/.+\/1200\.jpg$/),
			width: 1200,
			height: 750,
		})
	})

	it('has the share tags: title, description, canonical, Open Graph and Twitter card with the cover', async () => {
		const { loaderData } = await openEventPage(ids.scheduled!)
		const tags = eventRoute.meta({ loaderData } as never) as Record<string, unknown>[]
		const find = (key: string, value: string) => tags.find((tag) => tag[key] === value)
		expect(tags[0]).toEqual({ title: loaderData!.seo.title })
		expect(find('name', 'description')).toMatchObject({ content: loaderData!.seo.description })
		expect(find('rel', 'canonical')).toMatchObject({ tagName: 'link', href: `${SITE_URL}/events/${ids.scheduled}` })
		expect(find('property', 'og:title')).toMatchObject({ content: loaderData!.seo.shareTitle })
		expect(find('property', 'og:image')).toMatchObject({ content: loaderData!.seo.image!.url })
		expect(find('property', 'og:image:width')).toMatchObject({ content: '1200' })
		expect(find('property', 'og:image:height')).toMatchObject({ content: '750' })
		expect(find('property', 'og:url')).toMatchObject({ content: `${SITE_URL}/events/${ids.scheduled}` })
		expect(find('name', 'twitter:card')).toMatchObject({ content: 'summary_large_image' })
		expect(find('name', 'twitter:image:alt')).toMatchObject({ content: 'Le groupe sur scène, lumières rouges' })
		expect(find('name', 'robots')).toBeUndefined()
	})

	it('describes each status in its JSON-LD', async () => {
		const jsonLdOf = async (id: string) => {
			const { loaderData } = await openEventPage(id)
			const tags = eventRoute.meta({ loaderData } as never) as Record<string, unknown>[]
			return tags.find((tag) => 'script:ld+json' in tag)!['script:ld+json'] as Record<string, unknown> & { image: string[] }
		}
		const scheduled = await jsonLdOf(ids.scheduled!)
		expect(scheduled).toMatchObject({
			'@type': 'MusicEvent',
			name: 'Release party',
			eventStatus: 'https://schema.org/EventScheduled',
			location: {
				'@type': 'Place',
				name: 'La Cigale',
				address: { '@type': 'PostalAddress', addressLocality: 'Paris', postalCode: '75018', addressCountry: 'FR' },
			},
			offers: {
				url: 'https://billets.exemple.fr/release',
				price: '12.50',
				priceCurrency: 'EUR',
				availability: 'https://schema.org/InStock',
			},
			performer: { '@type': 'MusicGroup', name: 'Le Groupe' },
		})
		expect(scheduled.startDate).toBe((await db().select().from(event).where(eq(event.id, ids.scheduled!)))[0]!.startsAt.toISOString())
		expect(scheduled.image[0]).toMatch(/\/1600\.jpg$/)

		const postponed = await jsonLdOf(ids.postponed!)
		expect(postponed.eventStatus).toBe('https://schema.org/EventRescheduled')
		expect(postponed.previousStartDate).toBe(daysFromIso(5))

		const cancelled = await jsonLdOf(ids.cancelled!)
		expect(cancelled.eventStatus).toBe('https://schema.org/EventCancelled')
		expect(cancelled.offers).toBeUndefined()

		const soldOut = await jsonLdOf(ids.soldOut!)
		expect(soldOut.offers).toMatchObject({ availability: 'https://schema.org/SoldOut' })
	})

	it('never hands out a javascript: ticket address, nor the description’s HTML', async () => {
		const { loaderData } = await openEventPage(ids.hostile!)
		const page = loaderData!.event
		expect(page.ticketUrl).toBeNull()
		// Raw HTML comes out as text, and the javascript: link as the words that were typed.
		expect(page.descriptionHtml).not.toMatch(/<script|<img|<a |href=/i)
		expect(page.descriptionHtml).toContain('&lt;script&gt;')
		expect(page.descriptionHtml).toContain('&lt;img src=x onerror=alert(2)&gt;')
		expect(JSON.stringify(loaderData)).not.toMatch(/javascript:alert\(document/)
		// The country is named for a show abroad.
		expect(page.countryName).toBe('Belgique')
	})

	it('is a 404 for an unknown id, a malformed id and a draft', async () => {
		for (const id of ['inconnu', '../../etc', 'x'.repeat(200), ids.draft!]) {
			const { response } = await openEventPage(id)
			expect(response.status, id).toBe(404)
			expect(response.headers.get('etag'), id).toBeNull()
		}
		expect((await openEventPage(ids.draft!, { cookie: memberCookie })).response.status).toBe(404)
	})

	it('lets an admin preview a draft, marked as such, kept out of caches and search engines', async () => {
		const { response, loaderData } = await openEventPage(ids.draft!, { cookie: adminCookie })
		expect(response.status).toBe(200)
		expect(loaderData).toMatchObject({ isDraft: true, canEdit: true })
		expect(response.headers.get('cache-control')).toBe('private, no-store')
		expect(response.headers.get('etag')).toBeNull()
		const tags = eventRoute.meta({ loaderData } as never) as Record<string, unknown>[]
		expect(tags).toContainEqual({ name: 'robots', content: 'noindex, nofollow' })
		expect(tags.some((tag) => 'script:ld+json' in tag)).toBe(false)
	})
})

function daysFromIso(days: number) {
	return daysFrom(days).toISOString()
}

describe('caching', () => {
	it('gives anonymous visitors a shared, validated copy and answers 304 to a current one', async () => {
		const first = await openEventPage(ids.soldOut!)
		const etag = first.response.headers.get('etag')!
		expect(etag).toMatch(/^W\/".+"$/)
		expect(first.response.headers.get('cache-control')).toBe('public, max-age=60, stale-while-revalidate=300')
		expect(first.response.headers.get('vary')).toBe('Cookie')
		expect(new Date(first.response.headers.get('last-modified')!).getTime()).toBeGreaterThan(0)

		const again = await openEventPage(ids.soldOut!, { headers: { 'if-none-match': etag }, keepCache: true })
		expect(again.response.status).toBe(304)
		expect(again.loaderRan).toBe(false)
		expect(again.response.headers.get('etag')).toBe(etag)

		const other = await openEventPage(ids.soldOut!, { headers: { 'if-none-match': 'W/"autre"' }, keepCache: true })
		expect(other.response.status).toBe(200)
	})

	it('changes the validator when the event changes, and serves the change at once', async () => {
		const before = (await openEventPage(ids.soldOut!)).response.headers.get('etag')!
		await db().update(event).set({ priceText: '30 €', updatedAt: new Date() }).where(eq(event.id, ids.soldOut!))
		invalidateEventCache(ids.soldOut)
		const after = await openEventPage(ids.soldOut!, { headers: { 'if-none-match': before }, keepCache: true })
		expect(after.response.status).toBe(200)
		expect(after.loaderData!.event.priceText).toBe('30 €')
		expect(after.response.headers.get('etag')).not.toBe(before)
	})

	it('notices another instance’s edit once an entry is older than FRESH_MS (one cheap version check)', async () => {
		const id = ids.postponed!
		const start = Date.now()
		const cached = await cachedEventDetail(db(), id, start)
		// Changed behind this process's back: no invalidation here.
		await db().update(event).set({ title: 'Nantes, date confirmée', updatedAt: new Date() }).where(eq(event.id, id))
		expect(await cachedEventDetail(db(), id, start + 1_000)).toBe(cached)
		const later = await cachedEventDetail(db(), id, start + FRESH_MS + 1)
		expect(later?.title).toBe('Nantes, date confirmée')
		// Unchanged: the same entry is trusted again after its check.
		expect(await cachedEventDetail(db(), id, start + 2 * FRESH_MS + 2)).toBe(later)
	})

	it('merges concurrent reads of one event, and never keeps a read overtaken by an invalidation', async () => {
		const id = ids.scheduled!
		invalidateEventCache(id)
		const [first, second] = await Promise.all([cachedEventDetail(db(), id), cachedEventDetail(db(), id)])
		expect(second).toBe(first)

		invalidateEventCache(id)
		const reading = cachedEventDetail(db(), id)
		await db().update(event).set({ priceText: '31 €', updatedAt: new Date() }).where(eq(event.id, id))
		invalidateEventCache(id)
		await reading
		expect((await cachedEventDetail(db(), id))?.priceText).toBe('31 €')
	})

	it('stops serving an event withdrawn or deleted', async () => {
		const id = await insertEvent(db(), { title: 'Éphémère', startsAt: daysFrom(50) })
		expect((await openEventPage(id)).response.status).toBe(200)
		await db().update(event).set({ published: false, updatedAt: new Date() }).where(eq(event.id, id))
		invalidateEventCache(id)
		expect((await openEventPage(id)).response.status).toBe(404)
		await db().delete(event).where(eq(event.id, id))
		invalidateEventCache(id)
		expect((await openEventPage(id)).response.status).toBe(404)
	})

	it('keeps a signed-in visitor’s page private, without validators', async () => {
		const { response } = await openEventPage(ids.scheduled!, { cookie: memberCookie })
		expect(response.status).toBe(200)
		expect(response.headers.get('cache-control')).toBe('private, no-cache')
		expect(response.headers.get('etag')).toBeNull()
	})
})

describe('calendar files', () => {
	it('gives one show as a valid iCalendar download', async () => {
		const response = await icsOf(ids.scheduled!)
		expect(response.status).toBe(200)
		expect(response.headers.get('content-type')).toBe('text/calendar; charset=utf-8')
		expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="\d{4}-\d{2}-\d{2}-release-party\.ics"$/)
		const body = await response.text()
		expect(body.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n')).toBe(true)
		expect(body.split('\r\n').every((line) => new TextEncoder().encode(line).length <= 75)).toBe(true)
		expect(body.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/)
		const parsed = ical.sync.parseICS(body)
		const uid = `${ids.scheduled}@localhost:3000`
		const vevent = parsed[uid] as VEvent
		expect(vevent).toBeDefined()
		const row = (await db().select().from(event).where(eq(event.id, ids.scheduled!)))[0]!
		expect(new Date(vevent.start as Date).toISOString()).toBe(row.startsAt.toISOString())
		// No end given: two hours after the start.
		expect(new Date(vevent.end as Date).getTime() - row.startsAt.getTime()).toBe(2 * 60 * 60 * 1000)
		expect(new Date(vevent.dtstamp as Date).toISOString()).toBe(new Date(Math.floor(row.updatedAt.getTime() / 1000) * 1000).toISOString())
		expect(vevent.summary).toBe('Release party')
		expect(vevent.location).toBe('La Cigale, 120 boulevard de Rochechouart, 75018 Paris')
		expect(vevent.url).toBe(`${SITE_URL}/events/${ids.scheduled}`)
		expect(vevent.status).toBe('CONFIRMED')
		expect(vevent.description).toContain('Ouverture des portes à 19 h 30')
		expect(vevent.description).toContain('Billets\u00a0: https://billets.exemple.fr/release')
		// Escaped on the way out, whole again once parsed: « ; », « , » and « \ ».
		expect(vevent.description).toContain('Un grand soir ; avec des invités, et une barre \\ oblique.\nDeuxième paragraphe.')
	})

	it('marks a cancelled show CANCELLED and never lists a javascript: address', async () => {
		const cancelled = ical.sync.parseICS(await (await icsOf(ids.cancelled!)).text())
		const vevent = Object.values(cancelled).find((c) => c?.type === 'VEVENT') as VEvent
		expect(vevent.status).toBe('CANCELLED')
		expect(vevent.summary).toBe('Annulé\u00a0: Lille annulé')
		expect(vevent.description).not.toContain('https://billets.exemple.fr/lille')

		const postponed = ical.sync.parseICS(await (await icsOf(ids.postponed!)).text())
		const moved = Object.values(postponed).find((c) => c?.type === 'VEVENT') as VEvent
		expect(moved.status).toBe('CONFIRMED')
		expect(moved.description).toMatch(/^Initialement prévu le [a-z]+ (1er|\d{1,2}) [a-zéû]+ \d{4}\n/)

		const hostile = (await (await icsOf(ids.hostile!)).text()).replace(/\r\n /g, '')
		expect(hostile).not.toContain('javascript:alert(document.cookie)')
		expect(hostile).toMatch(/\r\nURL:http:\/\/localhost:3000\/events\//)
		expect(hostile).toContain('LOCATION:Ancienne Belgique\\, 120 boulevard de Rochechouart\\, 75018 Bruxelles\\, Belgique')
	})

	it('answers 304 to a current copy, 404 to a draft (but not to an admin)', async () => {
		const first = await icsOf(ids.scheduled!)
		const etag = first.headers.get('etag')!
		expect(etag).toBeTruthy()
		expect((await icsOf(ids.scheduled!, { headers: { 'if-none-match': etag } })).status).toBe(304)
		expect((await icsOf(ids.draft!)).status).toBe(404)
		expect((await icsOf('inconnu')).status).toBe(404)
		const preview = await icsOf(ids.draft!, { cookie: adminCookie })
		expect(preview.status).toBe(200)
		expect(preview.headers.get('cache-control')).toBe('private, no-store')
	})

	it('publishes every upcoming show as a calendar to subscribe to', async () => {
		const response = (await eventsIcs.loader(routeArgs(request('/events.ics'), '/events.ics') as never)) as Response
		expect(response.headers.get('content-type')).toBe('text/calendar; charset=utf-8')
		const body = await response.text()
		expect(body).toContain('X-WR-CALNAME:Le Groupe en concert\r\n')
		const parsed = ical.sync.parseICS(body)
		const events = Object.values(parsed).filter((c): c is VEvent => c?.type === 'VEVENT')
		expect(events.map((e) => e.uid.split('@')[0]).sort()).toEqual(
			[ids.scheduled, ids.soldOut, ids.postponed, ids.cancelled, ids.hostile].sort(),
		)
		expect(events.find((e) => e.uid.startsWith(ids.cancelled!))?.status).toBe('CANCELLED')
		const etag = response.headers.get('etag')!
		const again = (await eventsIcs.loader(
			routeArgs(request('/events.ics', { headers: { 'if-none-match': etag } }), '/events.ics') as never,
		)) as Response
		expect(again.status).toBe(304)
	})
})

describe('search engines', () => {
	it('lists the public pages and every published event in the sitemap', async () => {
		const body = await ((await sitemap.loader()) as Response).text()
		expect(body).toContain(`<loc>${SITE_URL}/</loc>`)
		expect(body).toContain(`<loc>${SITE_URL}/events</loc>`)
		expect(body).toContain(`<loc>${SITE_URL}/events/${ids.scheduled}</loc>`)
		expect(body).toContain(`<loc>${SITE_URL}/events/${ids.oldPast}</loc>`)
		expect(body).not.toContain(ids.draft!)
	})

	it('points robots to the sitemap', async () => {
		const body = await ((await robots.loader()) as Response).text()
		expect(body).toContain(`Sitemap: ${SITE_URL}/sitemap.xml`)
		expect(body).toContain('Disallow: /dashboard')
	})
})
