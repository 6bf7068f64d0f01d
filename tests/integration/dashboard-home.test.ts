import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { invalidateEventCache } from '#app/features/events/cache.server.ts'
import * as home from '#app/routes/dashboard/home.tsx'
import * as settingsNewsletter from '#app/routes/dashboard/settings-newsletter.ts'
import { databaseKind } from '../support/database.ts'
import { daysFrom, insertEvent } from '../support/events.ts'
import { signUpConfirmed } from '../support/members.ts'
import { startTestPlatform, type TestPlatform } from '../support/platform.ts'
import { formPost, get, outcome, routeArgs } from '../support/requests.ts'

/*
 * The member's dashboard home, through its real loader: the greeting, « Mes contenus », the next
 * published concerts (French, Paris time) and the member's newsletter status, whose toggle (a plain
 * form post) comes back to the home.
 */
const PASSWORD = 'cheval agrafe pile correcte'
let env: TestPlatform
let member: string
beforeAll(async () => {
	env = await startTestPlatform()
	member = await signUpConfirmed({ name: 'Lou Martin', email: 'lou.accueil@exemple.fr', password: PASSWORD })
})
afterAll(async () => {
	await env?.stop()
})
const db = () => env.platform.database.db
const show = () => home.loader(routeArgs(get('/dashboard', { cookie: member }), '/dashboard'))

describe(`the dashboard home on ${databaseKind()}`, () => {
	it('says when no concert is announced, then lists the next published ones with their date in French', async () => {
		invalidateEventCache()
		const empty = await show()
		expect(empty).toMatchObject({ name: 'Lou Martin', contents: [], events: [], newsletter: null })

		const next = await insertEvent(db(), {
			title: 'Nuit du printemps',
			startsAt: new Date('2099-03-14T19:30:00Z'),
			ticketUrl: 'https://billets.exemple.fr/nuit',
			status: 'sold_out',
		})
		await insertEvent(db(), { title: 'Brouillon secret', startsAt: daysFrom(5), published: false })
		await insertEvent(db(), { title: 'Déjà joué', startsAt: daysFrom(-5) })
		invalidateEventCache()
		const listed = await show()
		expect(listed.events.map((e) => e.title)).toEqual(['Nuit du printemps'])
		expect(listed.events[0]).toMatchObject({
			id: next,
			city: 'Paris',
			venueName: 'La Cigale',
			status: 'sold_out',
			ticketUrl: 'https://billets.exemple.fr/nuit',
			start: { date: 'samedi 14 mars 2099', time: '20 h 30' },
		})
		expect(listed.hasPast).toBe(true)
	})

	it('shows the newsletter status, and its toggle comes back to the home', async () => {
		const toggle = async (fields: Record<string, string>) =>
			outcome(
				await settingsNewsletter.action(
					routeArgs(formPost('/dashboard/settings/newsletter', fields, { cookie: member }), '/dashboard/settings/newsletter'),
				),
			)
		const on = await toggle({ subscribe: 'on', back: '/dashboard' })
		expect(on.status).toBe(302)
		expect(on.headers.get('location')).toBe('/dashboard#newsletter')
		expect((await show()).newsletter).toBe('active')
		// Any other `back` is not followed: the settings, as before.
		const off = await toggle({ subscribe: 'off', back: 'https://ailleurs.example/' })
		expect(off.headers.get('location')).toBe('/dashboard/settings#newsletter')
		expect((await show()).newsletter).toBe('unsubscribed')
	})
})
