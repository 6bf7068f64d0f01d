import { randomUUID } from 'node:crypto'
import { eq, like } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { countCachedView, countPageView, flushPageViews, pageViewSlot } from '#app/features/stats/count-page-view.server.ts'
import { parisDay } from '#app/platform/time-zone.ts'
import { OTHER_SOURCES, SOURCES_PER_DAY } from '#app/features/stats/page-views.server.ts'
import { STATS_TOPIC } from '#app/features/stats/topics.ts'
import { redeemForMember, recordAttempt } from '#app/features/codes/redeem.server.ts'
import { contactMessage, newsletterSubscriber, pageViewDaily, user } from '#app/platform/db/schema.ts'
import { startRealtime } from '#app/platform/realtime.server.ts'
import * as adminIndex from '#app/routes/admin/index.tsx'
import * as live from '#app/routes/admin/live.ts'
import * as csv from '#app/routes/admin/stats-csv.ts'
import * as stats from '#app/routes/admin/stats.tsx'
import { databaseKind } from '../support/database.ts'
import { signUpConfirmed } from '../support/members.ts'
import { insertEvent, daysFrom } from '../support/events.ts'
import { startTestPlatform, type TestPlatform } from '../support/platform.ts'
import { campaignWithCodes, members as insertMembers } from '../support/codes.ts'
import { get, outcome, routeArgs, thrown } from '../support/requests.ts'
import { watchStatements } from '../support/pglite-statements.ts'

/*
 * Audience figures and the stats screen on a real database: page views counted as the HTTP server
 * reports them, written in batches; the screen's sources, ranges, CSV export and live stream.
 */
const kind = databaseKind()
const PASSWORD = 'cheval agrafe pile correcte'
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0'

let env: TestPlatform
beforeAll(async () => {
	env = await startTestPlatform()
})
afterAll(async () => {
	await env?.stop()
})

const db = () => env.platform.database.db

async function person(role: 'admin' | 'user'): Promise<string> {
	const email = `${role}-${randomUUID().slice(0, 8)}@exemple.fr`
	const cookie = await signUpConfirmed({ name: 'Quelqu’un', email, password: PASSWORD })
	if (role === 'admin') await db().update(user).set({ role: 'admin' }).where(eq(user.email, email))
	return cookie
}

/** A finished response as the HTTP server reports it to the counting hook. */
function view(url: string, headers: Record<string, string | undefined> = {}, cookie?: string) {
	return countPageView({
		method: 'GET',
		url,
		status: 200,
		contentType: 'text/html; charset=utf-8',
		headers: { accept: 'text/html', 'sec-fetch-dest': 'document', 'user-agent': FIREFOX, ...headers },
		cookie,
	})
}

const screen = (query: string, cookie: string) =>
	stats.loader(routeArgs(get(`/dashboard/admin/stats?${query}`, { cookie }), '/dashboard/admin/stats'))

type Results = {
	id: string
	series: { key: string; total: number; daily: number[] }[]
	figures: { key: string; value: number }[]
	rankings: { key: string; rows: { label: string; value: number }[] }[]
}[]

describe(`audience figures on ${kind}`, () => {
	it('counts the views of a page from the anonymous cache in its slot, with the same rules, written with the others', async () => {
		await view('/', { referer: 'https://www.google.fr/' }) // opens the counter
		await flushPageViews()
		await db().delete(pageViewDaily)
		const slot = pageViewSlot('/contact')!
		expect(slot).toMatchObject({ path: '/contact' })
		expect(pageViewSlot('/dashboard')).toBeNull()
		const browser = { accept: 'text/html', 'sec-fetch-dest': 'document', 'sec-fetch-mode': 'navigate', 'user-agent': FIREFOX }
		for (let i = 0; i < 5; i++) countCachedView(slot, browser)
		countCachedView(slot, { ...browser, referer: 'http://localhost:3000/events' }) // the site's own page
		countCachedView(slot, { ...browser, referer: 'https://www.google.fr/' })
		// Left out: a bot, a prefetch, a fetch() from a script.
		countCachedView(slot, { ...browser, 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' })
		countCachedView(slot, { ...browser, 'sec-purpose': 'prefetch' })
		countCachedView(slot, { ...browser, 'sec-fetch-dest': 'empty', 'sec-fetch-mode': 'cors' })
		await view('/contact')
		await flushPageViews()
		const rows = await db().select().from(pageViewDaily)
		const today = parisDay()
		expect(rows).toEqual(
			expect.arrayContaining([
				{ day: today, path: '/contact', referrer: '', utmSource: '', views: 7 },
				{ day: today, path: '/contact', referrer: 'google.fr', utmSource: '', views: 1 },
			]),
		)
		expect(rows).toHaveLength(2)
		await db().delete(pageViewDaily)
	})

	// PGlite runs in the server's thread: under traffic this write comes every 2 s, and each statement
	// of it is time taken from the requests (`git show cf193c0:bench/RESULTS-public-pages.md`,
	// « What held the event loop every 2 s under cached traffic (00:59–01:10) », 2026-11-29).
	it.runIf(kind === 'pglite')(
		'writes views from no other site in one statement, and signals the stats screen only while one listens',
		async () => {
			await view('/', { referer: 'https://www.google.fr/' }) // opens the counter
			await flushPageViews()
			await db().delete(pageViewDaily)
			const sent: string[] = []
			const unwatch = watchStatements(env.platform.database.pglite!, (statement) => sent.push(statement))
			let stop = () => {}
			try {
				await view('/contact')
				await view('/contact')
				await flushPageViews()
				expect(sent).toEqual([expect.stringMatching(/^query insert into "page_view_daily"/)])

				// A stats screen open (it listens to the topic): the same write, then its signal.
				sent.length = 0
				const heard: unknown[] = []
				stop = env.platform.realtime.subscribe(STATS_TOPIC, (data) => heard.push(data))
				await view('/contact')
				await flushPageViews()
				expect(sent).toEqual([expect.stringMatching(/^query insert into "page_view_daily"/), expect.stringMatching(/pg_notify/)])
				await vi.waitFor(() => expect(heard).toEqual([{ source: 'audience' }]))
				expect(await db().select().from(pageViewDaily)).toEqual([
					{ day: parisDay(), path: '/contact', referrer: '', utmSource: '', views: 3 },
				])
			} finally {
				stop()
				unwatch()
				await db().delete(pageViewDaily)
			}
		},
	)

	it('counts views of public pages in memory and writes them per day, page, referring domain and UTM source', async () => {
		const adminCookie = await person('admin')
		const memberCookie = await person('user')
		const eventId = await insertEvent(db(), {
			title: 'Concert au Chabada',
			startsAt: daysFrom(10),
			published: true,
			venueName: 'Le Chabada',
			city: 'Angers',
		})
		for (let i = 0; i < 3; i++) await view(`/events/${eventId}?utm_source=Instagram`, { referer: 'https://l.instagram.com/?u=abc' })
		await view('/', { referer: 'https://www.google.fr/' })
		await view('/', {}, memberCookie)
		// Left out: a bot, a prefetch, the admin's own visit, a private page.
		await view('/', { 'user-agent': 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)' })
		await view('/', { 'sec-purpose': 'prefetch' })
		await view(`/events/${eventId}`, {}, adminCookie)
		await view('/dashboard/settings', {}, memberCookie)

		// Nothing is written until the batch is flushed.
		expect(await db().select().from(pageViewDaily).where(like(pageViewDaily.path, '/events/%'))).toEqual([])
		await flushPageViews()
		const rows = await db().select().from(pageViewDaily)
		const today = parisDay()
		expect(rows).toEqual(
			expect.arrayContaining([
				{ day: today, path: `/events/${eventId}`, referrer: 'l.instagram.com', utmSource: 'instagram', views: 3 },
				{ day: today, path: '/', referrer: 'google.fr', utmSource: '', views: 1 },
				{ day: today, path: '/', referrer: '', utmSource: '', views: 1 },
			]),
		)
		expect(rows).toHaveLength(3)

		// A second batch adds to the same rows.
		await view('/', { referer: 'https://www.google.fr/search' })
		await flushPageViews()
		const [google] = await db().select().from(pageViewDaily).where(eq(pageViewDaily.referrer, 'google.fr'))
		expect(google?.views).toBe(2)

		// The stats screen shows them: totals, today's bar, top pages, referrers, campaigns and the event by its title.
		const page = await outcome(await screen('periode=7', adminCookie))
		const results = (page.body as { results: Results }).results
		const audience = results.find((r) => r.id === 'audience')!
		expect(audience.series[0]).toMatchObject({ key: 'audience.views', total: 6 })
		expect(audience.series[0]!.daily.at(-1)).toBe(6)
		const ranking = (key: string) => audience.rankings.find((r) => r.key === key)!.rows
		expect(ranking('audience.pages')).toEqual([
			// Ties in path order.
			{ label: '/', value: 3, href: '/' },
			{ label: `/events/${eventId}`, value: 3, href: `/events/${eventId}` },
		])
		expect(ranking('audience.referrers')).toEqual([
			{ label: 'l.instagram.com', value: 3 },
			{ label: 'google.fr', value: 2 },
		])
		expect(ranking('audience.utm')).toEqual([{ label: 'instagram', value: 3 }])
		const events = results.find((r) => r.id === 'events')!
		expect(events.series[0]?.total).toBe(3)
		expect(events.rankings[0]!.rows[0]).toMatchObject({ label: expect.stringContaining('Concert au Chabada'), value: 3 })
		expect(events.figures[0]).toMatchObject({ key: 'events.upcoming', value: 1 })
	})
})

describe(`made-up referrers on ${kind}`, () => {
	it('keeps a day’s most frequent referring sites and UTM sources, and adds up the rest as « Autres sources »', async () => {
		const adminCookie = await person('admin')
		const before = (await db().select().from(pageViewDaily)).reduce((total, row) => total + row.views, 0)
		for (let i = 0; i < 6; i++) await view('/', { referer: 'https://duckduckgo.com/' })
		await flushPageViews()
		// 300 invented referrers and campaigns in a few batches, as a script sends them.
		for (let i = 0; i < 300; i++) {
			await view(`/?utm_source=campagne-${i}`, { referer: `https://site-invente-${i}.example/` })
			if (i % 100 === 99) await flushPageViews()
		}
		// A real referrer later in the day still makes its way in once it has more visits than the made-up ones.
		for (let i = 0; i < 4; i++) await view('/', { referer: 'https://qwant.com/' })
		await flushPageViews()

		const rows = await db().select().from(pageViewDaily).where(eq(pageViewDaily.day, parisDay()))
		const referrers = new Set(rows.map((row) => row.referrer).filter((referrer) => referrer !== ''))
		const sources = new Set(rows.map((row) => row.utmSource).filter((source) => source !== ''))
		expect(referrers.size).toBeLessThanOrEqual(SOURCES_PER_DAY + 1)
		expect(sources.size).toBeLessThanOrEqual(SOURCES_PER_DAY + 1)
		expect(referrers).toContain(OTHER_SOURCES)
		// Nothing is lost: every view is still counted, under its source or under « Autres sources ».
		expect(rows.reduce((total, row) => total + row.views, 0) - before).toBe(310)

		const page = await outcome(await screen('periode=7', adminCookie))
		const audience = (page.body as { results: Results }).results.find((r) => r.id === 'audience')!
		const ranking = audience.rankings.find((r) => r.key === 'audience.referrers')!.rows
		expect(ranking[0]).toEqual({ label: 'Autres sources', value: expect.any(Number) })
		expect(ranking).toEqual(
			expect.arrayContaining([
				{ label: 'duckduckgo.com', value: 6 },
				{ label: 'qwant.com', value: 4 },
			]),
		)
		expect(ranking).toHaveLength(10)
	})
})

describe(`the stats screen on ${kind}`, () => {
	it('is where /dashboard/admin leads, for admins only', async () => {
		const adminCookie = await person('admin')
		const memberCookie = await person('user')
		const opened = await thrown(() => adminIndex.loader(routeArgs(get('/dashboard/admin', { cookie: adminCookie }), '/dashboard/admin')))
		expect(opened.status).toBe(302)
		expect(opened.headers.get('Location')).toBe('/dashboard/admin/stats')
		for (const run of [
			() => adminIndex.loader(routeArgs(get('/dashboard/admin', { cookie: memberCookie }), '/dashboard/admin')),
			() => screen('periode=30', memberCookie),
			() => csv.loader(routeArgs(get('/dashboard/admin/stats.csv', { cookie: memberCookie }), '/dashboard/admin/stats.csv')),
			() => live.loader(routeArgs(get('/dashboard/admin/live', { cookie: memberCookie }), '/dashboard/admin/live')),
		]) {
			expect((await thrown(run)).status).toBe(403)
		}
	})

	it('counts members and contact messages per day, and answers a reversed or ten-year period in French', async () => {
		const adminCookie = await person('admin')
		await db()
			.insert(contactMessage)
			.values({ id: randomUUID(), name: 'Lou', email: 'lou@exemple.fr', subject: 'presse', body: 'Bonjour à vous tous !' })
		const page = await outcome(await screen('periode=30', adminCookie))
		const results = (page.body as { results: Results }).results
		const members = results.find((r) => r.id === 'members')!
		expect(members.series[0]!.daily).toHaveLength(30)
		expect(members.series[0]!.daily.at(-1)).toBeGreaterThanOrEqual(1)
		const contact = results.find((r) => r.id === 'contact')!
		expect(contact.series[0]!.daily.at(-1)).toBeGreaterThanOrEqual(1)
		expect(contact.figures.find((f) => f.key === 'contact.unread')!.value).toBeGreaterThanOrEqual(1)

		const reversed = await outcome(await screen('periode=perso&du=2026-05-10&au=2026-05-01', adminCookie))
		expect(reversed.status).toBe(200)
		expect(reversed.body).toMatchObject({
			error: 'La date de début doit précéder la date de fin.',
			typed: { from: '2026-05-10', to: '2026-05-01' },
		})
		const decade = await outcome(await screen('periode=perso&du=2016-01-01&au=2026-01-01', adminCookie))
		expect((decade.body as { range: { days: string[] }; notice: string }).range.days).toHaveLength(366)
		expect((decade.body as { notice: string }).notice).toMatch(/366 jours/)
	})

	it('counts codes redeemed per campaign and refused attempts, and newsletter subscribers by status', async () => {
		const adminCookie = await person('admin')
		const { campaignId, codes } = await campaignWithCodes(db(), 3, { name: 'Carte du merch' })
		const [first, second] = await insertMembers(db(), 2, 'stats')
		expect((await redeemForMember(db(), codes[0]!, first!)).outcome).toBe('granted')
		expect((await redeemForMember(db(), codes[1]!, second!)).outcome).toBe('granted')
		await recordAttempt(db(), 'granted', campaignId)
		await recordAttempt(db(), 'unknown')
		await recordAttempt(db(), 'expired', campaignId)
		await db()
			.insert(newsletterSubscriber)
			.values([
				{
					id: randomUUID(),
					email: `a-${randomUUID()}@exemple.fr`,
					status: 'active',
					source: 'landing',
					consentAt: new Date(),
					unsubscribeToken: randomUUID(),
				},
				{ id: randomUUID(), email: `b-${randomUUID()}@exemple.fr`, status: 'pending', source: 'landing', unsubscribeToken: randomUUID() },
			])

		const results = ((await outcome(await screen('periode=7', adminCookie))).body as { results: Results }).results
		const codesResult = results.find((r) => r.id === 'codes')!
		const redeemed = codesResult.series.find((s) => s.key === 'codes.redeemed')!
		expect(redeemed.daily).toHaveLength(7)
		expect(redeemed.daily.at(-1)).toBeGreaterThanOrEqual(2)
		expect(codesResult.series.find((s) => s.key === 'codes.refused')!.daily.at(-1)).toBeGreaterThanOrEqual(2)
		expect(codesResult.figures.find((f) => f.key === 'codes.generated')!.value).toBeGreaterThanOrEqual(3)
		const byCampaign = codesResult.rankings.find((r) => r.key === 'codes.byCampaign')!
		expect(byCampaign.rows).toContainEqual({ label: 'Carte du merch', value: 2, href: `/dashboard/admin/codes/${campaignId}` })

		const newsletter = results.find((r) => r.id === 'newsletter')!
		expect(newsletter.figures.find((f) => f.key === 'newsletter.active')!.value).toBeGreaterThanOrEqual(1)
		expect(newsletter.figures.find((f) => f.key === 'newsletter.pending')!.value).toBeGreaterThanOrEqual(1)
		expect(newsletter.series.map((s) => s.key)).toEqual(['newsletter.sent', 'newsletter.failed'])
	})

	it('exports what it shows as CSV', async () => {
		const cookie = await person('admin')
		const response = (await csv.loader(
			routeArgs(get('/dashboard/admin/stats.csv?periode=7', { cookie }), '/dashboard/admin/stats.csv'),
		)) as Response
		expect(response.headers.get('Content-Type')).toBe('text/csv; charset=utf-8')
		expect(response.headers.get('Content-Disposition')).toMatch(
			/attachment; filename="statistiques-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv"/,
		)
		const lines = (await response.text()).split('\r\n')
		expect(lines[0]).toContain('Jour;Audience du site\u00a0: Pages vues;')
		expect(lines.filter((line) => /^\d{4}-\d{2}-\d{2};/.test(line))).toHaveLength(7)
	})

	it('streams a change signal to the open screen, sent from another instance', async () => {
		const cookie = await person('admin')
		const controller = new AbortController()
		const request = new Request(get('/dashboard/admin/live?topic=stats', { cookie }), { signal: controller.signal })
		const response = (await live.loader(routeArgs(request, '/dashboard/admin/live'))) as Response
		expect(response.headers.get('Content-Type')).toBe('text/event-stream; charset=utf-8')
		const reader = response.body!.getReader()
		let text = ''
		const decoder = new TextDecoder()
		const readUntil = async (needle: string) => {
			while (!text.includes(needle)) {
				const { value, done } = await reader.read()
				if (done) throw new Error('stream ended')
				text += decoder.decode(value)
			}
		}
		await readUntil('event: ready')
		// Another instance on the same database (on PGlite, the same one: there is only one process).
		const other = kind === 'postgres' ? await startRealtime(env.platform.database, env.platform.logger) : env.platform.realtime
		try {
			await vi.waitFor(async () => {
				await other.publish(STATS_TOPIC, { source: 'contact' })
				await readUntil('event: changed')
			}, 10_000)
			expect(text).toContain('data: {"source":"contact"}')
		} finally {
			controller.abort()
			if (other !== env.platform.realtime) await other.close()
		}
	})
})
