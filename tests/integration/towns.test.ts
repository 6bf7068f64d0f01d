import { desc, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { countAudience } from '#app/features/newsletter/audience.server.ts'
import { findSubscriber } from '#app/features/newsletter/subscribers.server.tsx'
import { newsletterSubscriber, outboxMail } from '#app/platform/db/schema.ts'
import * as claim from '#app/routes/auth/claim.tsx'
import * as signup from '#app/routes/auth/signup.tsx'
import * as settings from '#app/routes/dashboard/settings.tsx'
import * as suggestions from '#app/routes/api/towns.ts'
import * as home from '#app/routes/public/home.tsx'
import * as townPage from '#app/routes/public/newsletter-town.tsx'
import { signUpConfirmed } from '../support/members.ts'
import { startTestPlatform, type TestPlatform } from '../support/platform.ts'
import { formPost, get, outcome, routeArgs, SITE_URL } from '../support/requests.ts'

/*
 * A fan's town, through the real routes: given at the landing's sign-up and at account sign-up,
 * resolved by the server from the town list (names, labels, namesakes; coordinates a form sends are
 * ignored), changed or removed from the link of every newsletter and from the settings.
 */
let env: TestPlatform
beforeAll(async () => {
	env = await startTestPlatform()
})
afterAll(async () => {
	await env?.stop()
})
const db = () => env.platform.database.db

const subscribe = async (fields: Record<string, string>) => outcome(await home.action(routeArgs(formPost('/?index', fields), '/') as never))

async function confirm(email: string) {
	const [mail] = await db().select().from(outboxMail).where(eq(outboxMail.toAddress, email)).orderBy(desc(outboxMail.createdAt)).limit(1)
	const link = new URL(/https?:\/\/\S+\/auth\/claim\?[^\s)\]"]+/.exec(mail!.text ?? '')![0].replace(/&amp;/g, '&'))
	await claim.action(routeArgs(formPost(link.pathname + link.search, {}), '/auth/claim') as never)
}

const LYON = { townLabel: 'Lyon (Rhône)', latitude: 45.75, longitude: 4.85 }

describe('a town at the landing’s sign-up', () => {
	it('stores the town the server resolves, never the coordinates the form sends', async () => {
		const sent = await subscribe({
			email: 'lyon@exemple.fr',
			consent: 'on',
			town: 'lyon',
			latitude: '48.39',
			longitude: '-4.49',
			townId: '3030300',
		})
		expect(sent).toMatchObject({ status: 200, body: { newsletter: 'sent' } })
		expect(await findSubscriber(db(), 'lyon@exemple.fr')).toMatchObject({ status: 'pending', ...LYON })
		await confirm('lyon@exemple.fr')
		expect(await findSubscriber(db(), 'lyon@exemple.fr')).toMatchObject({ status: 'active', ...LYON })
	})

	it('asks which namesake was meant, keeps what was typed, and takes the one picked', async () => {
		const asked = await subscribe({ email: 'sd@exemple.fr', consent: 'on', town: 'Saint-Denis' })
		expect(asked.status).toBe(400)
		expect(asked.body).toMatchObject({
			newsletter: 'invalid',
			typedTown: 'Saint-Denis',
			town: { message: expect.stringContaining('laquelle') },
		})
		const choices = (asked.body as { town: { choices: string[] } }).town.choices
		expect(choices).toEqual(expect.arrayContaining(['Saint-Denis (Seine-Saint-Denis)', 'Saint-Denis (La Réunion)']))
		expect(await findSubscriber(db(), 'sd@exemple.fr')).toBeUndefined()
		const picked = await subscribe({ email: 'sd@exemple.fr', consent: 'on', town: 'Saint-Denis', townChoice: 'Saint-Denis (La Réunion)' })
		expect(picked.status).toBe(200)
		expect(await findSubscriber(db(), 'sd@exemple.fr')).toMatchObject({ townLabel: 'Saint-Denis (La Réunion)' })
	})

	it('refuses a town not in the list, in French, with the nearest names; no town is fine', async () => {
		const unknown = await subscribe({ email: 'x@exemple.fr', consent: 'on', town: 'Lyonn' })
		expect(unknown.status).toBe(400)
		expect(unknown.body).toMatchObject({
			typedTown: 'Lyonn',
			town: { message: expect.stringContaining('Nous ne trouvons pas la ville'), choices: expect.arrayContaining(['Lyon (Rhône)']) },
		})
		expect(await findSubscriber(db(), 'x@exemple.fr')).toBeUndefined()
		expect((await subscribe({ email: 'x@exemple.fr', consent: 'on', town: '' })).status).toBe(200)
		expect(await findSubscriber(db(), 'x@exemple.fr')).toMatchObject({ townId: null, latitude: null })
	})

	it('never lets a stranger change an active subscriber’s town from the landing', async () => {
		await subscribe({ email: 'lyon@exemple.fr', consent: 'on', town: 'Brest' })
		expect(await findSubscriber(db(), 'lyon@exemple.fr')).toMatchObject(LYON)
	})

	it('takes the town at account sign-up with the newsletter, and asks which among namesakes', async () => {
		const post = async (fields: Record<string, string>) =>
			outcome(
				await signup.action(
					routeArgs(
						formPost('/auth/signup', { name: 'Brestoise', password: 'un mot de passe très sûr 42', acceptPrivacy: 'on', ...fields }),
						'/auth/signup',
					) as never,
				),
			)
		const asked = await post({ email: 'brest-signup@exemple.fr', newsletter: 'on', town: 'Saint-Denis' })
		expect(asked.status).toBe(400)
		expect(asked.body).toMatchObject({ town: { choices: expect.arrayContaining(['Saint-Denis (Seine-Saint-Denis)']) } })
		// Coordinates and an id sent along are not read: the server places the town it resolved.
		const signedUp = await post({
			email: 'brest-signup@exemple.fr',
			newsletter: 'on',
			town: 'Brest (Finistère)',
			latitude: '45.75',
			longitude: '4.85',
			townId: '2996944',
		})
		expect(signedUp.status).toBe(302)
		expect(await findSubscriber(db(), 'brest-signup@exemple.fr')).toMatchObject({
			status: 'pending',
			townLabel: 'Brest (Finistère)',
			townId: 3030300,
			latitude: 48.39,
			longitude: -4.49,
		})
	})
})

describe('changing or removing one’s town', () => {
	it('from the link in every newsletter: the page shows it, saves another, removes it', async () => {
		const { unsubscribeToken: token } = (await findSubscriber(db(), 'lyon@exemple.fr'))!
		const url = `/newsletter/town?${new URLSearchParams({ token })}`
		const page = await outcome(await townPage.loader(routeArgs(get(url), '/newsletter/town') as never))
		expect(page.body).toMatchObject({ valid: true, town: 'Lyon (Rhône)', email: 'l•••@exemple.fr' })
		const post = async (fields: Record<string, string>) =>
			outcome(await townPage.action(routeArgs(formPost(url, fields), '/newsletter/town') as never))
		// A concert at Brest, 50 km around: this fan is in its audience while their town is Brest.
		const nearBrest = {
			kind: 'radius' as const,
			eventId: 'concert-brest',
			venue: 'La Carène, Brest',
			latitude: 48.39,
			longitude: -4.49,
			radiusKm: 50,
			includeNoTown: false,
			countAtSave: 0,
		}
		const inAudience = async () => (await countAudience(db(), nearBrest)) > 0
		expect(await inAudience()).toBe(false)
		expect(await post({ intent: 'save', town: 'Brest', latitude: '0', longitude: '0' })).toMatchObject({
			status: 200,
			body: { outcome: 'saved' },
		})
		expect(await findSubscriber(db(), 'lyon@exemple.fr')).toMatchObject({
			townLabel: 'Brest (Finistère)',
			latitude: 48.39,
			longitude: -4.49,
		})
		const bad = await post({ intent: 'save', town: 'Nulle-Part-sur-Rien' })
		expect(bad).toMatchObject({
			status: 400,
			body: { typed: 'Nulle-Part-sur-Rien', problem: { message: expect.stringContaining('Nous ne trouvons pas') } },
		})
		expect(await inAudience()).toBe(true)
		expect(await post({ intent: 'remove', town: '' })).toMatchObject({ status: 200, body: { outcome: 'removed' } })
		expect(await findSubscriber(db(), 'lyon@exemple.fr')).toMatchObject({
			status: 'active',
			townId: null,
			townLabel: null,
			latitude: null,
			longitude: null,
		})
		// Removed: in no radius, however wide; only « those without a town », when the admin adds them.
		expect(await inAudience()).toBe(false)
		expect(await countAudience(db(), { ...nearBrest, radiusKm: 1000 })).toBe(0)
		expect(await countAudience(db(), { ...nearBrest, includeNoTown: true })).toBeGreaterThan(0)
		const forged = await outcome(
			await townPage.loader(
				routeArgs(get('/newsletter/town?token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'), '/newsletter/town') as never,
			),
		)
		expect(forged).toMatchObject({ status: 404, body: { valid: false } })
		expect((await townPage.loader(routeArgs(get('/newsletter/town'), '/newsletter/town') as never)) as unknown).toBeTruthy()
	})

	it('from a member’s settings, on the subscriber record of their address', async () => {
		const cookie = await signUpConfirmed({ name: 'Lyonnaise', email: 'membre-lyon@exemple.fr', password: 'un mot de passe très sûr 42' })
		const post = async (fields: Record<string, string>) =>
			outcome(
				await settings.action(
					routeArgs(formPost('/dashboard/settings', { intent: 'town', ...fields }, { cookie }), '/dashboard/settings') as never,
				),
			)
		// Not subscribed: nowhere to keep a town, and it says so.
		expect(await post({ townIntent: 'save', town: 'Lyon' })).toMatchObject({
			status: 400,
			body: { townProblem: { message: expect.stringContaining('Inscrivez-vous') } },
		})
		await db().insert(newsletterSubscriber).values({
			id: 'sub-membre-lyon',
			email: 'membre-lyon@exemple.fr',
			status: 'active',
			source: 'settings',
			unsubscribeToken: 'tok-membre-lyon',
		})
		expect((await post({ townIntent: 'save', town: 'Lyon', latitude: '1', longitude: '1' })).status).toBe(302)
		expect(await findSubscriber(db(), 'membre-lyon@exemple.fr')).toMatchObject(LYON)
		const loaded = await outcome(await settings.loader(routeArgs(get('/dashboard/settings', { cookie }), '/dashboard/settings') as never))
		expect(loaded.body).toMatchObject({ town: { townLabel: 'Lyon (Rhône)' } })
		expect(await post({ townIntent: 'save', town: 'Saint-Denis' })).toMatchObject({ status: 400, body: { typedTown: 'Saint-Denis' } })
		expect((await post({ townIntent: 'remove' })).status).toBe(302)
		expect(await findSubscriber(db(), 'membre-lyon@exemple.fr')).toMatchObject({ townId: null, latitude: null })
	})
})

describe('the suggestions endpoint', () => {
	it('answers a few labels for a prefix, cacheable, and nothing for one letter', async () => {
		const found = await outcome(await suggestions.loader(routeArgs(get('/api/towns?q=bres'), '/api/towns') as never))
		expect((found.body as { towns: string[] }).towns[0]).toBe('Brest (Finistère)')
		expect(found.headers.get('cache-control')).toContain('max-age')
		expect((await outcome(await suggestions.loader(routeArgs(get('/api/towns?q=b'), '/api/towns') as never))).body).toEqual({ towns: [] })
		expect(SITE_URL).toBeTruthy()
	})
})
