import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { event as eventTable, setlist as setlistTable, user } from '#app/platform/db/schema.ts'
import { getSetlist } from '#app/features/setlist/setlists.server.ts'
import * as builder from '#app/routes/admin/setlist/builder.tsx'
import * as eventSetlist from '#app/routes/admin/setlist/event-setlist.ts'
import * as printView from '#app/routes/admin/setlist/print.tsx'
import * as songEditor from '#app/routes/admin/setlist/song-editor.tsx'
import * as songsImport from '#app/routes/admin/setlist/songs-import.tsx'
import * as songsList from '#app/routes/admin/setlist/songs.tsx'
import * as stageView from '#app/routes/admin/setlist/stage.tsx'
import * as stageWorker from '#app/routes/admin/setlist/stage-worker.ts'
import * as setlists from '#app/routes/admin/setlist/setlists.tsx'
import * as eventPage from '#app/routes/public/event.tsx'
import { daysFrom, insertEvent } from '../support/events.ts'
import { databaseKind } from '../support/database.ts'
import { signUpConfirmed } from '../support/members.ts'
import { startTestPlatform, type TestPlatform } from '../support/platform.ts'
import { formPost, get, outcome, routeArgs, thrown } from '../support/requests.ts'

/*
 * The setlist screens through their real route modules, with the Requests a browser sends: every
 * loader and action checks the admin role; refused input answers in French with the status it
 * deserves (never a 500); the event page shows a published setlist and its JSON-LD follows.
 */
const PASSWORD = 'cheval agrafe pile correcte'
const BASE = '/dashboard/admin/setlist'

let env: TestPlatform
beforeAll(async () => {
	env = await startTestPlatform()
})
afterAll(async () => {
	await env?.stop()
})
const db = () => env.platform.database.db

let counter = 0
async function signUp(name: string, role?: 'admin') {
	counter += 1
	const email = `setlist${counter}-${randomUUID().slice(0, 8)}@exemple.fr`
	const cookie = await signUpConfirmed({ name, email, password: PASSWORD })
	if (role) await db().update(user).set({ role }).where(eq(user.email, email))
	return { cookie }
}

const post = (path: string, fields: Record<string, string>, cookie: string) => formPost(path, fields, { cookie })

async function newSong(cookie: string, fields: Record<string, string>) {
	const result = await outcome(
		await songEditor.action(routeArgs(post(`${BASE}/songs/new`, fields, cookie), `${BASE}/songs/:songId`, { songId: 'new' })),
	)
	expect(result.status, JSON.stringify(result.body)).toBe(302)
	const list = await outcome(
		await songsList.loader(routeArgs(get(`${BASE}/songs?q=${encodeURIComponent(fields.title!)}`, { cookie }), `${BASE}/songs`)),
	)
	return (list.body as { rows: { id: string; title: string }[] }).rows.find((r) => r.title === fields.title)!.id
}

async function newSetlist(cookie: string, name: string) {
	const result = await outcome(await setlists.action(routeArgs(post(BASE, { intent: 'create', name }, cookie), BASE)))
	expect(result.status).toBe(302)
	return result.headers.get('location')!.split('/').pop()!
}

const save = async (cookie: string, setlistId: string, fields: Record<string, string>) =>
	outcome(
		await builder.action(
			routeArgs(post(`${BASE}/${setlistId}`, { intent: 'save', ...fields }, cookie), `${BASE}/:setlistId`, { setlistId }),
		),
	)

describe(`setlist screens on ${databaseKind()}`, () => {
	it('gives a member a 403 on every loader and action, and changes nothing', async () => {
		const boss = await signUp('Régie', 'admin')
		const id = await newSetlist(boss.cookie, 'Secrète')
		const eventId = await insertEvent(db(), { title: 'Concert', startsAt: daysFrom(5) })
		const fan = await signUp('Fan')
		const c = fan.cookie
		const args = { setlistId: id }
		const forbidden = [
			() => setlists.loader(routeArgs(get(BASE, { cookie: c }), BASE)),
			() => setlists.action(routeArgs(post(BASE, { intent: 'delete', setlistId: id }, c), BASE)),
			() => setlists.action(routeArgs(post(BASE, { intent: 'create', name: 'Piratée' }, c), BASE)),
			() => songsList.loader(routeArgs(get(`${BASE}/songs`, { cookie: c }), `${BASE}/songs`)),
			() => songsList.action(routeArgs(post(`${BASE}/songs`, { intent: 'archive', songId: 'x' }, c), `${BASE}/songs`)),
			() => songEditor.loader(routeArgs(get(`${BASE}/songs/new`, { cookie: c }), `${BASE}/songs/:songId`, { songId: 'new' })),
			() => songEditor.action(routeArgs(post(`${BASE}/songs/new`, { title: 'Piraté' }, c), `${BASE}/songs/:songId`, { songId: 'new' })),
			() => songsImport.loader(routeArgs(get(`${BASE}/songs/import`, { cookie: c }), `${BASE}/songs/import`)),
			() =>
				songsImport.action(
					routeArgs(
						post(`${BASE}/songs/import`, { intent: 'import', csv: Buffer.from('titre\nPiraté').toString('base64') }, c),
						`${BASE}/songs/import`,
					),
				),
			() => builder.loader(routeArgs(get(`${BASE}/${id}`, { cookie: c }), `${BASE}/:setlistId`, args)),
			() =>
				builder.action(
					routeArgs(post(`${BASE}/${id}`, { intent: 'save', name: 'Piratée', version: '1', items: '[]' }, c), `${BASE}/:setlistId`, args),
				),
			() => builder.action(routeArgs(post(`${BASE}/${id}`, { intent: 'publish' }, c), `${BASE}/:setlistId`, args)),
			() => builder.action(routeArgs(post(`${BASE}/${id}`, { intent: 'attach', eventId }, c), `${BASE}/:setlistId`, args)),
			() => printView.loader(routeArgs(get(`${BASE}/${id}/print`, { cookie: c }), `${BASE}/:setlistId/print`, args)),
			() => stageView.loader(routeArgs(get(`${BASE}/${id}/stage`, { cookie: c }), `${BASE}/:setlistId/stage`, args)),
			() => stageWorker.loader(routeArgs(get(`${BASE}/stage-worker.js`, { cookie: c }), `${BASE}/stage-worker.js`)),
			() => eventSetlist.loader(routeArgs(get(`${BASE}/event/${eventId}`, { cookie: c }), `${BASE}/event/:eventId`, { eventId })),
			() =>
				eventSetlist.action(
					routeArgs(post(`${BASE}/event/${eventId}`, { intent: 'attach', setlistId: id }, c), `${BASE}/event/:eventId`, { eventId }),
				),
		]
		for (const run of forbidden) {
			const result = await thrown(run)
			expect(result.status).toBe(403)
			expect(JSON.stringify(result.body)).not.toContain('Secrète')
		}
		expect(await getSetlist(db(), id)).toMatchObject({ name: 'Secrète', version: 1, published: false, event: null })
		// Signed out: to the sign-in page.
		const anonymous = await thrown(() => builder.loader(routeArgs(get(`${BASE}/${id}`), `${BASE}/:setlistId`, args)))
		expect(anonymous.status).toBe(302)
	})

	it('refuses bad input in French with a 4xx, keeping what was typed and writing nothing', async () => {
		const boss = await signUp('Régie', 'admin')
		const song = await outcome(
			await songEditor.action(
				routeArgs(post(`${BASE}/songs/new`, { title: '', duration: '7:99', tempo: 'vite' }, boss.cookie), `${BASE}/songs/:songId`, {
					songId: 'new',
				}),
			),
		)
		expect(song.status).toBe(400)
		const reply = (song.body as { result: { error: Record<string, string[]>; initialValue: Record<string, string> } }).result
		expect(reply.error.title).toEqual(['Donnez un titre au morceau.'])
		expect(reply.error.duration![0]).toMatch(/minutes et secondes/)
		expect(reply.initialValue.duration).toBe('7:99')

		const id = await newSetlist(boss.cookie, 'Intacte')
		const unreadable = await save(boss.cookie, id, { name: '', version: '1', items: 'pas du json' })
		expect(unreadable.status).toBe(400)
		expect(JSON.stringify(unreadable.body)).toContain('Donnez un nom à la setlist.')
		expect(JSON.stringify(unreadable.body)).toContain('illisible')

		// A reorder naming another setlist's item: refused (409), nothing changes on either side.
		const songId = await newSong(boss.cookie, { title: 'À l’autre' })
		const other = await newSetlist(boss.cookie, 'L’autre')
		const theirItem = { id: randomUUID(), kind: 'song', songId, label: '', notes: '' }
		expect((await save(boss.cookie, other, { name: 'L’autre', version: '1', items: JSON.stringify([theirItem]) })).status).toBe(200)
		const foreign = await save(boss.cookie, id, { name: 'Volée', version: '1', items: JSON.stringify([theirItem]) })
		expect(foreign.status).toBe(409)
		expect(foreign.body).toMatchObject({ ok: false, reason: 'foreign-items', current: { name: 'Intacte', version: 1 } })
		expect(await getSetlist(db(), id)).toMatchObject({ name: 'Intacte', items: [] })
		expect((await getSetlist(db(), other))!.items.map((i) => i.id)).toEqual([theirItem.id])

		// A stale version: 409 with the newer version.
		expect((await save(boss.cookie, id, { name: 'Première', version: '1', items: '[]' })).status).toBe(200)
		const stale = await save(boss.cookie, id, { name: 'Seconde', version: '1', items: '[]' })
		expect(stale.status).toBe(409)
		expect(stale.body).toMatchObject({ ok: false, reason: 'stale', current: { name: 'Première', version: 2 } })

		// An unknown setlist or an unknown intent: 404 and 400, never a 500.
		const missing = await thrown(async () => save(boss.cookie, 'inconnue1234', { name: 'X', version: '1', items: '[]' }))
		expect(missing.status).toBe(404)
		const unknown = await thrown(async () =>
			builder.action(routeArgs(post(`${BASE}/${id}`, { intent: 'boom' }, boss.cookie), `${BASE}/:setlistId`, { setlistId: id })),
		)
		expect(unknown.status).toBe(400)

		// A CSV in UTF-16: a French message, nothing created.
		const utf16 = Buffer.from([0xff, 0xfe, ...Buffer.from('t\0i\0t\0r\0e\0')]).toString('base64')
		const csv = await outcome(
			await songsImport.action(
				routeArgs(post(`${BASE}/songs/import`, { intent: 'preview', csv: utf16 }, boss.cookie), `${BASE}/songs/import`),
			),
		)
		expect(csv.status).toBe(400)
		expect((csv.body as { error: string }).error).toMatch(/CSV UTF-8/)
	})

	it('attaches from the event editor, publishes, and the event page shows the setlist with its JSON-LD', async () => {
		const boss = await signUp('Régie', 'admin')
		const eventId = await insertEvent(db(), { title: 'Soirée passée', startsAt: daysFrom(-2) })
		const cover = await newSong(boss.cookie, { title: 'Vieille chanson', originalArtist: 'Les Anciens', duration: '3:10' })
		const id = await newSetlist(boss.cookie, 'Le soir même')
		const items = [
			{ id: randomUUID(), kind: 'note', songId: null, label: 'accordage', notes: '' },
			{ id: randomUUID(), kind: 'encore', songId: null, label: '', notes: '' },
			{ id: randomUUID(), kind: 'song', songId: cover, label: '', notes: 'avec invité' },
		]
		expect((await save(boss.cookie, id, { name: 'Le soir même', version: '1', items: JSON.stringify(items) })).status).toBe(200)

		const panel = (fields: Record<string, string>) =>
			eventSetlist.action(routeArgs(post(`${BASE}/event/${eventId}`, fields, boss.cookie), `${BASE}/event/:eventId`, { eventId }))
		expect(await outcome(await panel({ intent: 'attach', setlistId: id }))).toMatchObject({
			status: 200,
			body: { current: { id, published: false } },
		})
		const second = await newSetlist(boss.cookie, 'Une autre')
		const taken = await outcome(await panel({ intent: 'attach', setlistId: second }))
		expect(taken.status).toBe(400)
		expect((taken.body as { error: string }).error).toContain('Le soir même')

		const page = async () =>
			outcome(
				await eventPage.loader(
					routeArgs(get(`/events/${eventId}`), '/events/:eventId', { eventId }) as Parameters<typeof eventPage.loader>[0],
				),
			)
		expect(((await page()).body as { setlist: unknown }).setlist).toBeNull()

		expect(await outcome(await panel({ intent: 'publish' }))).toMatchObject({ status: 200, body: { current: { published: true } } })
		const shown = (await page()).body as { setlist: { sections: unknown[] }; seo: { jsonLd: { workPerformed: unknown[] } } }
		expect(shown.setlist.sections).toEqual([
			{
				kind: 'encore',
				label: '',
				encoreNumber: 1,
				songs: [{ title: 'Vieille chanson', originalArtist: 'Les Anciens', notes: 'avec invité', number: 1 }],
			},
		])
		expect(JSON.stringify(shown.setlist)).not.toContain('accordage')
		expect(shown.seo.jsonLd.workPerformed).toEqual([
			{
				'@type': 'MusicComposition',
				name: 'Vieille chanson',
				recordedAs: { '@type': 'MusicRecording', byArtist: { '@type': 'MusicGroup', name: 'Les Anciens' } },
			},
		])

		// Detached from the event editor: gone from the page.
		await outcome(await panel({ intent: 'detach' }))
		expect(((await page()).body as { setlist: unknown }).setlist).toBeNull()
	})
	it('refuses to publish before the concert has begun, in French, and publishes only the version the admin sees', async () => {
		const boss = await signUp('Régie', 'admin')
		const song = await newSong(boss.cookie, { title: 'Pas encore jouée', duration: '3:00' })
		const id = await newSetlist(boss.cookie, 'Demain soir')
		const items = [{ id: randomUUID(), kind: 'song', songId: song, label: '', notes: '' }]
		expect((await save(boss.cookie, id, { name: 'Demain soir', version: '1', items: JSON.stringify(items) })).status).toBe(200)
		const future = await insertEvent(db(), { title: 'Concert à venir', startsAt: daysFrom(3) })
		const panel = (eventId: string, fields: Record<string, string>) =>
			eventSetlist.action(routeArgs(post(`${BASE}/event/${eventId}`, fields, boss.cookie), `${BASE}/event/:eventId`, { eventId }))
		await outcome(await panel(future, { intent: 'attach', setlistId: id }))
		const publish = async (fields: Record<string, string>) =>
			outcome(
				await builder.action(
					routeArgs(post(`${BASE}/${id}`, { intent: 'publish', ...fields }, boss.cookie), `${BASE}/:setlistId`, { setlistId: id }),
				),
			)

		// From the setlist's screen and from the event editor: refused, with the date, nothing published.
		const early = await publish({ version: '2' })
		expect(early.status).toBe(400)
		expect((early.body as { error: string }).error).toMatch(
			/^Le concert n’a pas encore commencé\s: la setlist pourra être publiée à partir du .+ à 20\sh\s30\.$/u,
		)
		const fromEditor = await outcome(await panel(future, { intent: 'publish' }))
		expect(fromEditor.status).toBe(400)
		expect((fromEditor.body as { error: string; current: { published: boolean } }).error).toContain('pas encore commencé')
		expect((await getSetlist(db(), id))!.published).toBe(false)

		// A setlist published before its concert was moved later never shows on the page before the show.
		await db().update(setlistTable).set({ published: true }).where(eq(setlistTable.id, id))
		const page = await outcome(
			await eventPage.loader(
				routeArgs(get(`/events/${future}`), '/events/:eventId', { eventId: future }) as Parameters<typeof eventPage.loader>[0],
			),
		)
		expect((page.body as { setlist: unknown }).setlist).toBeNull()
		await db().update(setlistTable).set({ published: false }).where(eq(setlistTable.id, id))

		// The show has begun: the version the screen shows is published; an older one is refused.
		await db()
			.update(eventTable)
			.set({ startsAt: daysFrom(-1) })
			.where(eq(eventTable.id, future))
		const stale = await publish({ version: '1' })
		expect(stale.status).toBe(409)
		expect((stale.body as { error: string }).error).toContain('rechargez-la')
		expect((await getSetlist(db(), id))!.published).toBe(false)
		const done = await publish({ version: '2' })
		expect(done.status).toBe(302)
		expect((await getSetlist(db(), id))!.published).toBe(true)
	})
})
