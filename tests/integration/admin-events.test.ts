import { randomUUID } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cachedEventDetail } from '#app/features/events/cache.server.ts'
import { listEvents } from '#app/features/events/admin.server.ts'
import { readFlash } from '#app/platform/flash.server.ts'
import { event, media, user } from '#app/platform/db/schema.ts'
import * as editor from '#app/routes/admin/event-editor.tsx'
import * as list from '#app/routes/admin/events.tsx'
import { unsafeTextMessage } from '#app/platform/text-field.ts'
import { REMEMBERED_TABLES } from '#app/platform/table-memory.server.ts'
import { databaseKind } from '../support/database.ts'
import { signUpConfirmed } from '../support/members.ts'
import { startTestPlatform, type TestPlatform } from '../support/platform.ts'
import { cookieFrom, formPost, get, outcome, routeArgs, SITE_URL, thrown, type Outcome } from '../support/requests.ts'

/*
 * The admin's events: the list and the editor, through their real route modules' loaders and
 * actions with the Request a browser would send, on a real database. Every loader and action
 * checks the admin role itself; every refused form answers in French, next to the field, with
 * what was typed.
 */
const PASSWORD = 'cheval agrafe pile correcte'
const LIST = '/dashboard/admin/events'
const EDITOR = '/dashboard/admin/events/:eventId'

let env: TestPlatform
beforeAll(async () => {
	env = await startTestPlatform()
})
afterAll(async () => {
	await env?.stop()
})

const db = () => env.platform.database.db

interface Person {
	id: string
	cookie: string
}

let counter = 0
async function signUp(name: string): Promise<Person> {
	counter += 1
	const email = `personne${counter}-${randomUUID().slice(0, 8)}@exemple.fr`
	const cookie = await signUpConfirmed({ name, email, password: PASSWORD })
	const [row] = await db().select({ id: user.id }).from(user).where(eq(user.email, email))
	return { id: row!.id, cookie }
}

async function admin(name = 'Régie du groupe'): Promise<Person> {
	const person = await signUp(name)
	await db().update(user).set({ role: 'admin' }).where(eq(user.id, person.id))
	return person
}

interface Reply {
	status?: string
	initialValue?: Record<string, unknown> | null
	error?: Record<string, string[] | null> | null
}

const reply = (result: Outcome) => (result.body as { result: Reply }).result

/** A complete, valid editor form (a show in 2030, Paris time), with some fields replaced. */
function eventForm(overrides: Record<string, string> = {}): Record<string, string> {
	return {
		intent: 'save',
		title: 'Concert de printemps',
		status: 'scheduled',
		startsAt: '2030-05-16T20:30',
		doorsAt: '2030-05-16T19:30',
		endsAt: '2030-05-16T23:00',
		venueName: 'Le Chabada',
		address: '56 boulevard du Doyenné',
		postalCode: '49100',
		city: 'Angers',
		country: 'FR',
		latitude: '47,4851',
		longitude: '-0,5437',
		ticketUrl: 'https://billetterie.exemple.fr/printemps',
		priceText: '15 € / 12 € en prévente',
		description: 'Première partie : **Les Voisins**.',
		...overrides,
	}
}

async function listLoad(cookie: string, search = '') {
	return outcome(await list.loader(routeArgs(get(`${LIST}${search}`, { cookie }), LIST)))
}

async function listPost(cookie: string, fields: Record<string, string>, search = '') {
	return outcome(await list.action(routeArgs(formPost(`${LIST}${search}`, fields, { cookie }), LIST)))
}

async function editorLoad(cookie: string, eventId: string) {
	return outcome(await editor.loader(routeArgs(get(`${LIST}/${eventId}`, { cookie }), EDITOR, { eventId })))
}

async function editorPost(cookie: string, eventId: string, fields: Record<string, string>) {
	return outcome(await editor.action(routeArgs(formPost(`${LIST}/${eventId}`, fields, { cookie }), EDITOR, { eventId })))
}

/** The flash message a redirect carries (what the next page shows as a toast). */
async function flashOf(result: Outcome) {
	const cookie = cookieFrom(result.headers)
	const { flash } = await readFlash(new Request(SITE_URL, { headers: { cookie } }))
	return flash
}

/** Creates an event through the editor and returns its id. */
async function create(cookie: string, overrides: Record<string, string> = {}): Promise<string> {
	const result = await editorPost(cookie, 'new', eventForm(overrides))
	expect(result.status, JSON.stringify(result.body)).toBe(302)
	const id = result.headers.get('location')!.split('/').pop()!
	expect(id).toMatch(/^[A-Za-z0-9_-]{12}$/)
	return id
}

async function row(id: string) {
	const [found] = await db().select().from(event).where(eq(event.id, id))
	return found
}

describe(`admin events on ${databaseKind()}`, () => {
	describe('the admin role, checked by every loader and action', () => {
		// Fourteen refused requests after two sign-ups: longer than the default on a busy machine.
		it('gives a member a 403 everywhere, and changes nothing', { timeout: 90_000 }, async () => {
			const boss = await admin()
			const id = await create(boss.cookie)
			const m = await signUp('Fan')
			const forbidden = [
				() => list.loader(routeArgs(get(LIST, { cookie: m.cookie }), LIST)),
				() => list.action(routeArgs(formPost(LIST, { intent: 'delete', eventId: id }, { cookie: m.cookie }), LIST)),
				() => editor.loader(routeArgs(get(`${LIST}/${id}`, { cookie: m.cookie }), EDITOR, { eventId: id })),
				() => editor.loader(routeArgs(get(`${LIST}/new`, { cookie: m.cookie }), EDITOR, { eventId: 'new' })),
				...['save', 'publish', 'unpublish', 'delete', 'preview'].flatMap((intent) => [
					() =>
						editor.action(
							routeArgs(formPost(`${LIST}/${id}`, eventForm({ intent, title: 'Piraté' }), { cookie: m.cookie }), EDITOR, { eventId: id }),
						),
					() =>
						editor.action(
							routeArgs(formPost(`${LIST}/new`, eventForm({ intent, title: 'Piraté' }), { cookie: m.cookie }), EDITOR, { eventId: 'new' }),
						),
				]),
			]
			for (const run of forbidden) {
				const result = await thrown(run)
				expect(result.status).toBe(403)
				expect(JSON.stringify(result.body)).not.toContain('Concert de printemps')
			}
			const stored = await row(id)
			expect(stored).toMatchObject({ title: 'Concert de printemps', published: false })
			expect(await db().select().from(event).where(eq(event.title, 'Piraté'))).toHaveLength(0)
		})

		it('sends a signed-out visitor to sign in, coming back afterwards', async () => {
			const page = await thrown(() => list.loader(routeArgs(get(`${LIST}?tab=past`), LIST)))
			expect(page.status).toBe(302)
			expect(page.headers.get('location')).toBe(`/auth/signin?redirectTo=${encodeURIComponent(`${LIST}?tab=past`)}`)
			const save = await thrown(() => editor.action(routeArgs(formPost(`${LIST}/new`, eventForm()), EDITOR, { eventId: 'new' })))
			expect(save.status).toBe(302)
			expect(save.headers.get('location')).toMatch(/^\/auth\/signin\?/)
		})
	})

	describe('create, edit, publish, unpublish, delete', () => {
		it('goes through the life of an event', async () => {
			const boss = await admin()
			const other = await admin('Manager')

			// The editor opens without any stored event.
			const blank = await editorLoad(boss.cookie, 'new')
			expect(blank.status).toBe(200)
			expect(blank.body).toMatchObject({ event: null, values: { title: '', country: 'FR', status: 'scheduled' } })

			// Saved: a draft, with its author, its id made by the server, Paris time read right.
			const created = await editorPost(boss.cookie, 'new', eventForm())
			expect(created.status).toBe(302)
			const id = created.headers.get('location')!.split('/').pop()!
			expect(created.headers.get('location')).toBe(`${LIST}/${id}`)
			expect(await flashOf(created)).toMatchObject({ type: 'success', key: 'admin.events.flash.created' })
			let stored = await row(id)
			expect(stored).toMatchObject({
				title: 'Concert de printemps',
				published: false,
				publishedAt: null,
				createdBy: boss.id,
				updatedBy: boss.id,
				venueName: 'Le Chabada',
				city: 'Angers',
				country: 'FR',
				latitude: 47.4851,
				longitude: -0.5437,
				priceText: '15 € / 12 € en prévente',
				status: 'scheduled',
			})
			expect(stored!.startsAt.toISOString()).toBe('2030-05-16T18:30:00.000Z')
			expect(stored!.doorsAt!.toISOString()).toBe('2030-05-16T17:30:00.000Z')

			// The editor shows it back in Paris time, coordinates the French way.
			const opened = await editorLoad(boss.cookie, id)
			expect(opened.body).toMatchObject({
				event: { id, published: false },
				values: { startsAt: '2030-05-16T20:30', doorsAt: '2030-05-16T19:30', endsAt: '2030-05-16T23:00', latitude: '47,4851' },
			})
			expect((opened.body as { descriptionHtml: string }).descriptionHtml).toContain('<strong>Les Voisins</strong>')

			// Edited by another admin: it is theirs now.
			const saved = await editorPost(
				other.cookie,
				id,
				eventForm({ title: 'Concert d’été', startsAt: '2030-07-14T21:00', doorsAt: '', endsAt: '' }),
			)
			expect(saved.status).toBe(302)
			expect(await flashOf(saved)).toMatchObject({ key: 'admin.events.flash.saved' })
			stored = await row(id)
			expect(stored).toMatchObject({ title: 'Concert d’été', createdBy: boss.id, updatedBy: other.id, doorsAt: null, endsAt: null })
			expect(stored!.startsAt.toISOString()).toBe('2030-07-14T19:00:00.000Z')

			// Published: online, with the date of its first publication.
			const published = await editorPost(boss.cookie, id, eventForm({ intent: 'publish', title: 'Concert d’été' }))
			expect(published.status).toBe(302)
			expect(await flashOf(published)).toMatchObject({ key: 'admin.events.flash.published' })
			stored = await row(id)
			expect(stored!.published).toBe(true)
			const firstPublication = stored!.publishedAt
			expect(firstPublication).toBeInstanceOf(Date)

			// Withdrawn, then published again: the first publication's date stays.
			const unpublished = await editorPost(boss.cookie, id, eventForm({ intent: 'unpublish', title: 'Concert d’été' }))
			expect(await flashOf(unpublished)).toMatchObject({ key: 'admin.events.flash.unpublished' })
			expect((await row(id))!.published).toBe(false)
			await editorPost(boss.cookie, id, eventForm({ intent: 'publish', title: 'Concert d’été' }))
			expect((await row(id))!.publishedAt!.getTime()).toBe(firstPublication!.getTime())

			// Deleted: gone, back to the list with a message; the page is then a 404.
			const deleted = await editorPost(boss.cookie, id, { intent: 'delete' })
			expect(deleted.status).toBe(302)
			expect(deleted.headers.get('location')).toBe(LIST)
			expect(await flashOf(deleted)).toMatchObject({ key: 'admin.events.flash.deleted', values: { title: 'Concert d’été' } })
			expect(await row(id)).toBeUndefined()
			expect(
				(await thrown(() => editor.loader(routeArgs(get(`${LIST}/${id}`, { cookie: boss.cookie }), EDITOR, { eventId: id })))).status,
			).toBe(404)
			// Deleting it again (another tab) says so rather than failing.
			expect(await flashOf(await editorPost(boss.cookie, id, { intent: 'delete' }))).toMatchObject({
				key: 'admin.events.flash.alreadyDeleted',
			})
		})

		it('publishes a new event straight away', async () => {
			const boss = await admin()
			const result = await editorPost(boss.cookie, 'new', eventForm({ intent: 'publish' }))
			expect(await flashOf(result)).toMatchObject({ key: 'admin.events.flash.published' })
			const id = result.headers.get('location')!.split('/').pop()!
			expect(await row(id)).toMatchObject({ published: true })
		})

		it('answers an unknown event with a 404, for the page and for every form', async () => {
			const boss = await admin()
			for (const eventId of ['AAAAAAAAAAAA', 'pas un id !', 'x'.repeat(300)]) {
				expect((await thrown(() => editor.loader(routeArgs(get(`${LIST}/x`, { cookie: boss.cookie }), EDITOR, { eventId })))).status).toBe(
					404,
				)
				for (const intent of ['save', 'publish', 'unpublish']) {
					const result = await thrown(() =>
						editor.action(routeArgs(formPost(`${LIST}/x`, eventForm({ intent }), { cookie: boss.cookie }), EDITOR, { eventId })),
					)
					expect(result.status).toBe(404)
				}
			}
			const unknownIntent = await thrown(() =>
				editor.action(
					routeArgs(formPost(`${LIST}/new`, eventForm({ intent: 'launch' }), { cookie: boss.cookie }), EDITOR, { eventId: 'new' }),
				),
			)
			expect(unknownIntent.status).toBe(400)
		})
	})

	describe('validation, in French, with what was typed kept', () => {
		const long = (length: number) => 'x'.repeat(length)
		const cases: Array<[string, Record<string, string>, string, string]> = [
			['an empty title', { title: '   ' }, 'title', 'Donnez un titre à l’événement.'],
			['a title over 120 characters', { title: long(121) }, 'title', 'Le titre ne peut pas dépasser 120 caractères.'],
			['a NUL byte in the title', { title: 'Concert\u0000' }, 'title', unsafeTextMessage()],
			['a bidi override in the city', { city: 'Nantes\u202e' }, 'city', unsafeTextMessage()],
			['a control character in the description', { description: 'Ligne 1\nLigne 2\u0007' }, 'description', unsafeTextMessage()],
			['no start', { startsAt: '' }, 'startsAt', 'Indiquez la date et l’heure du début.'],
			[
				'a start that is no date',
				{ startsAt: '2030-02-30T20:00' },
				'startsAt',
				'Cette date n’est pas valide\u00a0: choisissez un jour et une heure.',
			],
			[
				'a start in year 30000',
				{ startsAt: '30000-01-01T20:00' },
				'startsAt',
				'Cette date n’est pas valide\u00a0: choisissez un jour et une heure.',
			],
			['an end before the start', { endsAt: '2030-05-16T19:00' }, 'endsAt', 'La fin doit être après le début.'],
			['an end equal to the start', { endsAt: '2030-05-16T20:30' }, 'endsAt', 'La fin doit être après le début.'],
			['doors after the start', { doorsAt: '2030-05-16T21:00' }, 'doorsAt', 'L’ouverture des portes doit précéder le début.'],
			[
				'a postponed show without its first date',
				{ status: 'postponed', previousStartsAt: '' },
				'previousStartsAt',
				'Indiquez la date initialement prévue.',
			],
			['an unknown status', { status: 'hidden' }, 'status', 'Choisissez un statut.'],
			['no venue', { venueName: '' }, 'venueName', 'Indiquez le nom de la salle ou du lieu.'],
			['a venue over 120 characters', { venueName: long(121) }, 'venueName', 'Le nom du lieu ne peut pas dépasser 120 caractères.'],
			['no city', { city: ' ' }, 'city', 'Indiquez la ville.'],
			['a city over 80 characters', { city: long(81) }, 'city', 'La ville ne peut pas dépasser 80 caractères.'],
			['an address over 200 characters', { address: long(201) }, 'address', 'L’adresse ne peut pas dépasser 200 caractères.'],
			['a postal code over 12 characters', { postalCode: long(13) }, 'postalCode', 'Le code postal ne peut pas dépasser 12 caractères.'],
			['a three-letter country', { country: 'FRA' }, 'country', 'Indiquez le pays par son code à deux lettres\u00a0: FR, BE, CH…'],
			['no country', { country: '' }, 'country', 'Indiquez le pays par son code à deux lettres\u00a0: FR, BE, CH…'],
			[
				'a country that does not exist',
				{ country: 'QQ' },
				'country',
				'Ce code pays n’existe pas\u00a0: utilisez le code à deux lettres (FR, BE, CH, GB…).',
			],
			['a latitude of 91', { latitude: '91' }, 'latitude', 'La latitude est un nombre entre −90 et 90 (par exemple 48,8566).'],
			['a latitude in words', { latitude: 'nord' }, 'latitude', 'La latitude est un nombre entre −90 et 90 (par exemple 48,8566).'],
			['a longitude of -180.5', { longitude: '-180.5' }, 'longitude', 'La longitude est un nombre entre −180 et 180 (par exemple 2,3522).'],
			['a latitude without longitude', { longitude: '' }, 'longitude', 'Indiquez la latitude et la longitude, ou aucune des deux.'],
			['a longitude without latitude', { latitude: '' }, 'latitude', 'Indiquez la latitude et la longitude, ou aucune des deux.'],
			[
				'a javascript: ticket link',
				{ ticketUrl: 'javascript:alert(document.cookie)' },
				'ticketUrl',
				'L’adresse de la billetterie doit commencer par https:// (ou http://).',
			],
			[
				'a JavaScript: ticket link in capitals',
				{ ticketUrl: ' JavaScript:alert(1)' },
				'ticketUrl',
				'L’adresse de la billetterie doit commencer par https:// (ou http://).',
			],
			[
				'a data: ticket link',
				{ ticketUrl: 'data:text/html,<script>alert(1)</script>' },
				'ticketUrl',
				'L’adresse de la billetterie doit commencer par https:// (ou http://).',
			],
			[
				'a ticket link without scheme',
				{ ticketUrl: 'billetterie.exemple.fr' },
				'ticketUrl',
				'L’adresse de la billetterie doit commencer par https:// (ou http://).',
			],
			[
				'an ftp ticket link',
				{ ticketUrl: 'ftp://exemple.fr/billets' },
				'ticketUrl',
				'L’adresse de la billetterie doit commencer par https:// (ou http://).',
			],
			[
				'a ticket link over 500 characters',
				{ ticketUrl: `https://exemple.fr/${long(490)}` },
				'ticketUrl',
				'L’adresse de la billetterie ne peut pas dépasser 500 caractères.',
			],
			['a price over 60 characters', { priceText: long(61) }, 'priceText', 'Le prix ne peut pas dépasser 60 caractères.'],
			[
				'a description over 10,000 characters',
				{ description: long(10_001) },
				'description',
				'La description ne peut pas dépasser 10\u202f000 caractères.',
			],
			['a forged cover id', { coverId: '../../etc/passwd' }, 'coverId', 'Cette image n’est pas valide\u00a0: envoyez-la de nouveau.'],
		]

		it.each(cases)('refuses %s', async (_name, overrides, field, message) => {
			const boss = await admin()
			const before = (await db().select({ id: event.id }).from(event)).length
			const typed = eventForm({ ...overrides, title: overrides.title ?? 'Titre gardé' })
			const result = await editorPost(boss.cookie, 'new', typed)
			expect(result.status).toBe(400)
			expect(reply(result).error?.[field]).toEqual([message])
			// Only that field is wrong.
			expect(Object.keys(reply(result).error ?? {}).filter((key) => (reply(result).error?.[key]?.length ?? 0) > 0)).toEqual([field])
			// Everything typed comes back, as typed.
			const { intent: _intent, ...fields } = typed
			for (const [name, value] of Object.entries(fields)) {
				if (value.trim() !== '') expect(reply(result).initialValue?.[name], name).toBe(value)
			}
			expect((await db().select({ id: event.id }).from(event)).length).toBe(before)
		})

		it('shows every error at once', async () => {
			const boss = await admin()
			const result = await editorPost(
				boss.cookie,
				'new',
				eventForm({ title: '', city: '', endsAt: '2030-05-16T18:00', ticketUrl: 'javascript:void(0)', status: 'postponed' }),
			)
			expect(result.status).toBe(400)
			expect(Object.keys(reply(result).error ?? {}).sort()).toEqual(['city', 'endsAt', 'previousStartsAt', 'ticketUrl', 'title'])
		})

		it('refuses the same on an existing event, and leaves it as it was', async () => {
			const boss = await admin()
			const id = await create(boss.cookie, { ticketUrl: 'https://billets.exemple.fr/' })
			const result = await editorPost(boss.cookie, id, eventForm({ ticketUrl: 'javascript:alert(1)', intent: 'publish' }))
			expect(result.status).toBe(400)
			expect(reply(result).error?.ticketUrl).toEqual(['L’adresse de la billetterie doit commencer par https:// (ou http://).'])
			expect(await row(id)).toMatchObject({ ticketUrl: 'https://billets.exemple.fr/', published: false })
		})

		it('refuses a cover that was never uploaded, and takes one that was', async () => {
			const boss = await admin()
			const refused = await editorPost(boss.cookie, 'new', eventForm({ coverId: 'AbCdEfGhIjKl' }))
			expect(refused.status).toBe(400)
			expect(reply(refused).error?.coverId).toEqual(['Cette image n’est pas valide\u00a0: envoyez-la de nouveau.'])
			const mediaId = `cover-${randomUUID().slice(0, 8)}`
			await db()
				.insert(media)
				.values({ id: mediaId, kind: 'cover', originalKey: `originals/${mediaId}`, createdBy: boss.id })
			const id = await create(boss.cookie, { coverId: mediaId })
			expect(await row(id)).toMatchObject({ coverId: mediaId })
			// An avatar is not a cover.
			const avatarId = `avatar-${randomUUID().slice(0, 8)}`
			await db()
				.insert(media)
				.values({ id: avatarId, kind: 'avatar', originalKey: `originals/${avatarId}`, createdBy: boss.id })
			expect((await editorPost(boss.cookie, id, eventForm({ coverId: avatarId }))).status).toBe(400)
		})

		it('keeps coordinates only as a pair, and reads them the French way', async () => {
			const boss = await admin()
			const id = await create(boss.cookie, { latitude: '−12,5', longitude: '+130.25' })
			expect(await row(id)).toMatchObject({ latitude: -12.5, longitude: 130.25 })
			// Emptied, they are the venue's town's again, from the town list (Angers).
			await editorPost(boss.cookie, id, eventForm({ latitude: '', longitude: '' }))
			expect(await row(id)).toMatchObject({ latitude: 47.47, longitude: -0.55, coordinatesSource: 'town' })
			// In a town the list does not know, emptied coordinates stay empty.
			await editorPost(boss.cookie, id, eventForm({ city: 'Nulle-Part-sur-Rien', latitude: '', longitude: '' }))
			expect(await row(id)).toMatchObject({ latitude: null, longitude: null, coordinatesSource: 'unresolved' })
		})

		it('keeps the first date of a postponed show, and forgets it once it is not postponed any more', async () => {
			const boss = await admin()
			const id = await create(boss.cookie, { status: 'postponed', previousStartsAt: '2030-03-31T02:30' })
			// 02:30 did not exist that night (clocks jumped to 03:00): read as 03:30 summer time.
			expect((await row(id))!.previousStartsAt!.toISOString()).toBe('2030-03-31T01:30:00.000Z')
			await editorPost(boss.cookie, id, eventForm({ status: 'sold_out', previousStartsAt: '2030-03-29T20:00' }))
			expect(await row(id)).toMatchObject({ status: 'sold_out', previousStartsAt: null })
		})
	})

	describe('a date in the past', () => {
		it('is allowed for a new event, with a warning', async () => {
			const boss = await admin()
			const result = await editorPost(boss.cookie, 'new', eventForm({ startsAt: '2019-06-21T20:00', doorsAt: '', endsAt: '' }))
			expect(result.status).toBe(302)
			const flash = await flashOf(result)
			expect(flash).toMatchObject({ type: 'info', key: 'admin.events.flash.createdInPast' })
			const id = result.headers.get('location')!.split('/').pop()!
			expect((await row(id))!.startsAt.toISOString()).toBe('2019-06-21T18:00:00.000Z')
		})

		it('warns when an existing event is moved into the past, not at each save of an old show', async () => {
			const boss = await admin()
			const id = await create(boss.cookie)
			const moved = await editorPost(boss.cookie, id, eventForm({ startsAt: '2020-01-10T20:00', doorsAt: '', endsAt: '' }))
			expect(await flashOf(moved)).toMatchObject({ key: 'admin.events.flash.savedInPast' })
			const again = await editorPost(
				boss.cookie,
				id,
				eventForm({ startsAt: '2020-01-10T20:00', doorsAt: '', endsAt: '', title: 'Archive' }),
			)
			expect(await flashOf(again)).toMatchObject({ key: 'admin.events.flash.saved' })
		})
	})

	describe('Markdown', () => {
		it('stores a script as text, and never renders it as one', async () => {
			const boss = await admin()
			const description = 'Salut <script>alert(1)</script> et <img src=x onerror=alert(1)> [clic](javascript:alert(1))'
			const id = await create(boss.cookie, { description })
			expect((await row(id))!.description).toBe(description)

			const preview = await editorPost(boss.cookie, id, { intent: 'preview', description })
			expect(preview.status).toBe(200)
			const html = (preview.body as { html: string }).html
			expect(html).not.toMatch(/<script|<img|href="javascript:/i)
			expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
			expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;')

			const opened = await editorLoad(boss.cookie, id)
			expect((opened.body as { descriptionHtml: string }).descriptionHtml).not.toMatch(/<script|<img|href="javascript:/i)
		})

		it('previews a new event too, and renders what Markdown means', async () => {
			const boss = await admin()
			const preview = await editorPost(boss.cookie, 'new', {
				intent: 'preview',
				description: '## Infos\r\n\r\n- Bar\r\n- [Accès](https://exemple.fr)',
			})
			const html = (preview.body as { html: string }).html
			// The page's title is the h1 and « À propos » an h2: the description's own headings start below.
			expect(html).toContain('<h3>Infos</h3>')
			expect(html).toContain('<a href="https://exemple.fr" rel="noopener noreferrer">Accès</a>')
			expect(((await editorPost(boss.cookie, 'new', { intent: 'preview', description: '   ' })).body as { html: string }).html).toBe('')
		})
	})

	describe('the public pages’ cache', () => {
		it('shows a save, an unpublication and a deletion at once', async () => {
			const boss = await admin()
			const id = await create(boss.cookie, { intent: 'publish', title: 'Avant' })
			expect((await cachedEventDetail(db(), id))?.title).toBe('Avant')
			await editorPost(boss.cookie, id, eventForm({ title: 'Après' }))
			expect((await cachedEventDetail(db(), id))?.title).toBe('Après')
			await editorPost(boss.cookie, id, eventForm({ intent: 'unpublish', title: 'Après' }))
			expect(await cachedEventDetail(db(), id)).toBeNull()
			await editorPost(boss.cookie, id, eventForm({ intent: 'publish', title: 'Encore' }))
			expect((await cachedEventDetail(db(), id))?.title).toBe('Encore')
			await editorPost(boss.cookie, id, { intent: 'delete' })
			expect(await cachedEventDetail(db(), id)).toBeNull()
		})
	})

	describe('the list', () => {
		it('sorts events into upcoming, past and drafts, with counts, searches and deletes', async () => {
			await db().delete(event)
			const boss = await admin()
			const upcoming = await create(boss.cookie, {
				intent: 'publish',
				title: 'Fête de la musique',
				venueName: 'Place du Ralliement',
				city: 'Angers',
			})
			const later = await create(boss.cookie, {
				intent: 'publish',
				title: 'Tournée d’hiver',
				startsAt: '2031-01-20T20:00',
				doorsAt: '',
				endsAt: '',
				city: 'Nantes',
				venueName: 'Stereolux',
			})
			const past = await create(boss.cookie, {
				intent: 'publish',
				title: 'Release party',
				startsAt: '2021-09-10T20:00',
				doorsAt: '',
				endsAt: '',
				city: 'Saint-Étienne',
				venueName: 'Le Fil',
			})
			const draft = await create(boss.cookie, { title: 'Festival 100% rock', city: 'Évreux', venueName: 'Le Tangram' })

			const all = await listLoad(boss.cookie)
			expect(all.status).toBe(200)
			const body = all.body as { list: Awaited<ReturnType<typeof listEvents>> }
			expect(body.list.counts).toEqual({ upcoming: 2, past: 1, drafts: 1 })
			expect(body.list.tab).toBe('upcoming')
			expect(body.list.rows.map((r) => r.id)).toEqual([upcoming, later])
			expect(((await listLoad(boss.cookie, '?tab=past')).body as typeof body).list.rows.map((r) => r.id)).toEqual([past])
			expect(((await listLoad(boss.cookie, '?tab=drafts')).body as typeof body).list.rows.map((r) => r.id)).toEqual([draft])
			// An unknown tab is the first one, a silly page the nearest one.
			expect(((await listLoad(boss.cookie, '?tab=secret&page=-4')).body as typeof body).list).toMatchObject({ tab: 'upcoming', page: 1 })
			expect(((await listLoad(boss.cookie, '?page=999')).body as typeof body).list.page).toBe(1)

			// Search: title, venue or city, without minding capitals or accents; counts follow.
			const search = async (q: string, tab = 'upcoming') =>
				((await listLoad(boss.cookie, `?tab=${tab}&q=${encodeURIComponent(q)}`)).body as typeof body).list
			expect((await search('fete')).rows.map((r) => r.id)).toEqual([upcoming])
			expect((await search('STEREOLUX')).rows.map((r) => r.id)).toEqual([later])
			expect((await search('saint-etienne', 'past')).rows.map((r) => r.id)).toEqual([past])
			expect((await search('evreux')).counts).toEqual({ upcoming: 0, past: 0, drafts: 1 })
			// LIKE's wildcards are plain characters: « % » finds only the title that has one.
			expect((await search('%')).counts).toEqual({ upcoming: 0, past: 0, drafts: 1 })
			expect((await search('100%', 'drafts')).rows.map((r) => r.id)).toEqual([draft])
			expect((await search('_')).counts).toEqual({ upcoming: 0, past: 0, drafts: 0 })
			// A very long search is cut, not refused.
			expect((await search('x'.repeat(5000))).query).toHaveLength(100)

			// Deleting from the list goes back to the same tab and search.
			const deleted = await listPost(boss.cookie, { intent: 'delete', eventId: past }, '?tab=past&q=fil')
			expect(deleted.status).toBe(302)
			expect(deleted.headers.get('location')).toBe(`${LIST}?tab=past&q=fil`)
			expect(await flashOf(deleted)).toMatchObject({ key: 'admin.events.flash.deleted', values: { title: 'Release party' } })
			expect(await row(past)).toBeUndefined()
			expect(await flashOf(await listPost(boss.cookie, { intent: 'delete', eventId: past }))).toMatchObject({
				key: 'admin.events.flash.alreadyDeleted',
			})
			expect(
				(await thrown(() => list.action(routeArgs(formPost(LIST, { intent: 'publish' }, { cookie: boss.cookie }), LIST)))).status,
			).toBe(400)
		})

		it('reads a search with a NUL byte or a bidi override without an error', async () => {
			const { cookie } = await admin()
			const result = await listLoad(cookie, `?q=${encodeURIComponent('con\u0000cert\u202e')}`)
			expect(result.status).toBe(200)
		})

		it('cuts the list into pages', async () => {
			await db().delete(event)
			const now = new Date()
			await db()
				.insert(event)
				.values(
					Array.from({ length: 53 }, (_, i) => ({
						id: `page-${String(i).padStart(2, '0')}`,
						title: `Date ${i}`,
						startsAt: new Date(now.getTime() + (i + 1) * 86_400_000),
						venueName: 'Salle',
						city: 'Lyon',
						published: true,
					})),
				)
			const first = await listEvents(db(), { tab: 'upcoming' })
			expect(first).toMatchObject({ page: 1, pageSize: 50, counts: { upcoming: 53 } })
			expect(first.rows).toHaveLength(50)
			const second = await listEvents(db(), { tab: 'upcoming', page: 2 })
			expect(second.rows.map((r) => r.title)).toEqual(['Date 50', 'Date 51', 'Date 52'])
		})
	})

	/*
	 * The list is kept in memory while the events' table is unchanged (app/platform/table-memory.server.ts):
	 * every statement that writes it, however written, shows on the next request, and an event whose
	 * end passes moves to the past tab without any write.
	 */
	describe('the list in memory', () => {
		type Listed = { list: Awaited<ReturnType<typeof listEvents>> }
		const titles = async (cookie: string, search = '') => ((await listLoad(cookie, search)).body as Listed).list.rows.map((r) => r.title)
		const insertRaw = (title: string, at = new Date(Date.now() + 86_400_000)) =>
			db().execute(sql`
				insert into event (id, title, starts_at, venue_name, city, published)
				values (${`raw-${randomUUID().slice(0, 8)}`}, ${title}, ${at.toISOString()}::timestamptz, 'Salle', 'Lyon', true)`)

		it('has the database signal every write of each table it keeps reads of', async () => {
			const rows = (await db().execute(sql`
				select c.relname as "table", t.tgtype as "type", t.tgenabled as "enabled"
				from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_proc p on p.oid = t.tgfoid
				where p.proname = 'band_table_change' and not t.tgisinternal`)) as unknown as {
				rows: { table: string; type: number; enabled: string }[]
			}
			for (const table of REMEMBERED_TABLES) {
				// pg_trigger's tgtype bits: ROW 1, INSERT 4, DELETE 8, UPDATE 16, TRUNCATE 32; 'O': origin and local.
				const bits = rows.rows.filter((row) => row.table === table && row.enabled === 'O').reduce((all, row) => all | row.type, 0)
				expect(bits & 1, `${table}: once per statement`).toBe(0)
				expect(bits & (4 | 8 | 16 | 32), table).toBe(4 | 8 | 16 | 32)
			}
		})

		it('is remembered: a write the database does not signal is not seen yet', async () => {
			await db().delete(event)
			const { cookie } = await admin()
			expect(await titles(cookie)).toEqual([])
			await db().transaction(async (tx) => {
				await tx.execute(sql`set local session_replication_role = replica`)
				await tx.insert(event).values({
					id: 'silent-0001',
					title: 'En silence',
					startsAt: new Date(Date.now() + 86_400_000),
					venueName: 'Salle',
					city: 'Lyon',
					published: true,
				})
			})
			expect(await titles(cookie)).toEqual([])
			await db().delete(event)
		})

		it('shows a change made by any statement on the very next request', async () => {
			await db().delete(event)
			const { cookie } = await admin()
			expect(await titles(cookie)).toEqual([])
			await insertRaw('À la main')
			expect(await titles(cookie)).toEqual(['À la main'])
			await db().execute(sql`update event set title = 'À la main, revu' where title = 'À la main'`)
			expect(await titles(cookie)).toEqual(['À la main, revu'])
			await db().update(event).set({ published: false }).where(eq(event.title, 'À la main, revu'))
			expect(await titles(cookie)).toEqual([])
			expect(await titles(cookie, '?tab=drafts')).toEqual(['À la main, revu'])
			// A rolled-back change is not one.
			await db()
				.transaction(async (tx) => {
					await tx.update(event).set({ published: true })
					throw new Error('rollback')
				})
				.catch(() => {})
			expect(await titles(cookie, '?tab=drafts')).toEqual(['À la main, revu'])
			await db().execute(sql`delete from event`)
			expect(await titles(cookie, '?tab=drafts')).toEqual([])
		})

		it('moves an event to the past tab once it is over, with nothing written', async () => {
			await db().delete(event)
			const { cookie } = await admin()
			const endsAt = new Date(Date.now() + 1_500)
			await db()
				.insert(event)
				.values({
					id: 'ending-0001',
					title: 'Bientôt fini',
					startsAt: new Date(Date.now() - 3_600_000),
					endsAt,
					venueName: 'Salle',
					city: 'Lyon',
					published: true,
				})
			expect(await titles(cookie)).toEqual(['Bientôt fini'])
			expect(await titles(cookie, '?tab=past')).toEqual([])
			await new Promise((resolve) => setTimeout(resolve, endsAt.getTime() - Date.now() + 50))
			expect(await titles(cookie)).toEqual([])
			expect(await titles(cookie, '?tab=past')).toEqual(['Bientôt fini'])
			await db().delete(event)
		})

		// PGlite has one connection, the site's own: another process never writes to it.
		it.runIf(databaseKind() === 'postgres')('sees a change made on another connection (another instance, a script, by hand)', async () => {
			await db().delete(event)
			const { cookie } = await admin()
			expect(await titles(cookie)).toEqual([])
			const client = new pg.Client({ connectionString: env.database.databaseUrl! })
			await client.connect()
			try {
				await client.query(
					`insert into event (id, title, starts_at, venue_name, city, published) values ('other-0001', 'D’ailleurs', now() + interval '1 day', 'Salle', 'Lyon', true)`,
				)
			} finally {
				await client.end()
			}
			await expect.poll(() => titles(cookie), { timeout: 2_000, interval: 10 }).toEqual(['D’ailleurs'])
			await db().delete(event)
		})
	})
})
