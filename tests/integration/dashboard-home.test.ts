import { randomUUID } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { invalidateEventCache } from '#app/features/events/cache.server.ts'
import { newsletterSubscriber } from '#app/platform/db/schema.ts'
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
 * form post) comes back to the home. The newsletter row is remembered with the member's data
 * (app/platform/session-cache.server.ts): any statement that changes it shows on the next request.
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

describe(`the member’s newsletter row on the dashboard, on ${databaseKind()}`, () => {
	const EMAIL = 'sam.lettre@exemple.fr'
	let cookie: string
	beforeAll(async () => {
		cookie = await signUpConfirmed({ name: 'Sam Lettre', email: EMAIL, password: PASSWORD })
	})
	const shows = async () => {
		const data = await home.loader(routeArgs(get('/dashboard', { cookie }), '/dashboard'))
		return { newsletter: data.newsletter, town: data.near.town }
	}
	const insertRow = (email: string, status: string) =>
		db().execute(sql`
			insert into newsletter_subscriber (id, email, status, source, unsubscribe_token, town_id, town_label, latitude, longitude)
			values (${randomUUID()}, ${email}, ${status}, 'admin', ${randomUUID()}, 1, 'Lyon (Rhône)', 45.75, 4.85)`)

	it('is remembered: a write the database does not signal is not seen yet', async () => {
		expect(await shows()).toEqual({ newsletter: null, town: null })
		// Triggers off for this transaction, as a replication tool writes: only a fresh read would see it.
		await db().transaction(async (tx) => {
			await tx.execute(sql`set local session_replication_role = replica`)
			await tx.execute(sql`
				insert into newsletter_subscriber (id, email, status, source, unsubscribe_token)
				values (${randomUUID()}, ${EMAIL}, 'active', 'admin', ${randomUUID()})`)
		})
		expect(await shows()).toEqual({ newsletter: null, town: null })
		await db().execute(sql`delete from newsletter_subscriber where email = ${EMAIL}`)
	})

	it('shows a change of the row made by any statement on the very next request', async () => {
		expect(await shows()).toEqual({ newsletter: null, town: null })
		await insertRow(EMAIL, 'active')
		expect(await shows()).toEqual({ newsletter: 'active', town: 'Lyon (Rhône)' })

		await db().execute(sql`update newsletter_subscriber set status = 'unsubscribed' where email = ${EMAIL}`)
		expect((await shows()).newsletter).toBe('unsubscribed')

		await db()
			.update(newsletterSubscriber)
			.set({ townLabel: 'Brest (Finistère)', latitude: 48.39, longitude: -4.49 })
			.where(eq(newsletterSubscriber.email, EMAIL))
		expect((await shows()).town).toBe('Brest (Finistère)')

		await db().transaction(async (tx) => {
			await tx.execute(sql`update newsletter_subscriber set status = 'bounced' where email = ${EMAIL}`)
		})
		expect((await shows()).newsletter).toBe('bounced')

		// A rolled-back change is not one.
		await db()
			.transaction(async (tx) => {
				await tx.execute(sql`update newsletter_subscriber set status = 'active' where email = ${EMAIL}`)
				throw new Error('rollback')
			})
			.catch(() => {})
		expect((await shows()).newsletter).toBe('bounced')

		await db().execute(sql`delete from newsletter_subscriber where email = ${EMAIL}`)
		expect(await shows()).toEqual({ newsletter: null, town: null })
	})

	it('follows the member’s address: a row of their new address is theirs, the old one’s no longer', async () => {
		const other = 'sam.nouvelle@exemple.fr'
		await insertRow(EMAIL, 'active')
		await insertRow(other, 'pending')
		expect((await shows()).newsletter).toBe('active')
		await db().execute(sql`update "user" set email = ${other} where email = ${EMAIL}`)
		expect((await shows()).newsletter).toBe('pending')
		await db().execute(sql`update "user" set email = ${EMAIL} where email = ${other}`)
		await db().execute(sql`delete from newsletter_subscriber where email in (${EMAIL}, ${other})`)
		expect((await shows()).newsletter).toBeNull()
	})

	// PGlite has one connection, the site's own: another process never writes to it.
	it.runIf(databaseKind() === 'postgres')('sees a change made on another connection (another instance, a script, by hand)', async () => {
		await insertRow(EMAIL, 'active')
		expect((await shows()).newsletter).toBe('active')
		const client = new pg.Client({ connectionString: env.database.databaseUrl! })
		await client.connect()
		try {
			await client.query(`update newsletter_subscriber set status = 'unsubscribed' where email = $1`, [EMAIL])
		} finally {
			await client.end()
		}
		await expect.poll(async () => (await shows()).newsletter, { timeout: 2_000, interval: 10 }).toBe('unsubscribed')
		await db().execute(sql`delete from newsletter_subscriber where email = ${EMAIL}`)
	})
})
