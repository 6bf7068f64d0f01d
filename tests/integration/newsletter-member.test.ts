import { afterAll, beforeAll, expect, it } from 'vitest'
import { findSubscriber } from '#app/features/newsletter/subscribers.server.tsx'
import * as subscribers from '#app/routes/admin/newsletter-subscribers.tsx'
import * as settings from '#app/routes/dashboard/settings.tsx'
import * as settingsExport from '#app/routes/dashboard/settings-export.ts'
import * as settingsNewsletter from '#app/routes/dashboard/settings-newsletter.ts'
import * as oneClick from '#app/routes/public/unsubscribe-one-click.ts'
import { databaseKind } from '../support/database.ts'
import { signUpConfirmed } from '../support/members.ts'
import { startTestPlatform, type TestPlatform } from '../support/platform.ts'
import { formPost, get, outcome, routeArgs, SITE_URL } from '../support/requests.ts'

/*
 * A member's newsletter toggle and the subscriber record are one truth, both ways, through the real
 * routes: what the member switches in /dashboard/settings is what the admin's list and the data
 * export show; what happens to the record elsewhere (one-click unsubscribe, the admin deleting or
 * adding the address) is what the settings and the export show next.
 */
const PASSWORD = 'cheval agrafe pile correcte'
const ADMIN = 'admin-lettre@exemple.fr'
const MEMBER = 'Membre.Lettre@Exemple.fr'
let env: TestPlatform
let admin: string
let member: string
beforeAll(async () => {
	env = await startTestPlatform({ env: { ADMIN_EMAILS: ADMIN } })
	admin = await signUpConfirmed({ name: 'Admin', email: ADMIN, password: PASSWORD })
	member = await signUpConfirmed({ name: 'Membre', email: MEMBER, password: PASSWORD })
})
afterAll(async () => {
	await env?.stop()
})
const db = () => env.platform.database.db

/** What the member's settings page shows for the newsletter. */
async function settingsShow() {
	const data = await settings.loader(routeArgs(get('/dashboard/settings', { cookie: member }), '/dashboard/settings'))
	return data.newsletter
}

/** The newsletter part of the member's data export (the JSON file from the settings). */
async function exported() {
	const response = await settingsExport.loader(
		routeArgs(get('/dashboard/settings/export', { cookie: member }), '/dashboard/settings/export'),
	)
	return (await response.json()).newsletter as { subscription: Record<string, unknown> | null; issues: unknown[] }
}

/** The admin's list, searched for the member's address. */
async function adminListShows() {
	const path = `/dashboard/admin/newsletter/subscribers?q=${encodeURIComponent('membre.lettre')}`
	const data = await subscribers.loader(routeArgs(get(path, { cookie: admin }), '/dashboard/admin/newsletter/subscribers'))
	return data.list.rows.map((row) => ({ email: row.email, status: row.status }))
}

async function toggle(subscribe: 'on' | 'off') {
	const request = formPost('/dashboard/settings/newsletter', { subscribe }, { cookie: member })
	const result = await outcome(await settingsNewsletter.action(routeArgs(request, '/dashboard/settings/newsletter')))
	expect(result.status).toBe(302)
}

async function adminPost(fields: Record<string, string>) {
	const request = formPost('/dashboard/admin/newsletter/subscribers', fields, { cookie: admin })
	return outcome(await subscribers.action(routeArgs(request, '/dashboard/admin/newsletter/subscribers')))
}

it(`shows in the settings, the admin's list and the data export the one record of the member's address (${databaseKind()})`, async () => {
	const email = MEMBER.toLowerCase()
	expect(await settingsShow()).toBeNull()
	expect((await exported()).subscription).toBeNull()

	// The member switches it on: the record of their (verified) address is active at once.
	await toggle('on')
	expect(await findSubscriber(db(), email)).toMatchObject({ status: 'active', source: 'settings' })
	expect(await settingsShow()).toBe('active')
	expect(await adminListShows()).toEqual([{ email, status: 'active' }])
	const on = await exported()
	expect(on.subscription).toMatchObject({ email, status: 'active', source: 'settings', policyVersion: expect.any(String) })
	expect(on.subscription!.consentAt).toEqual(expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/))
	expect(JSON.stringify(on)).not.toMatch(/token/i)

	// One click in a newsletter's footer (no session): the settings and the export follow.
	const { unsubscribeToken } = (await findSubscriber(db(), email))!
	const body = new FormData()
	body.set('List-Unsubscribe', 'One-Click')
	const click = new Request(`${SITE_URL}/unsubscribe/one-click?token=${unsubscribeToken}`, { method: 'POST', body })
	expect(((await oneClick.action(routeArgs(click, '/unsubscribe/one-click') as never)) as Response).status).toBe(200)
	expect(await settingsShow()).toBe('unsubscribed')
	expect((await exported()).subscription).toMatchObject({ status: 'unsubscribed', unsubscribedAt: expect.any(String) })
	expect(await adminListShows()).toEqual([{ email, status: 'unsubscribed' }])

	// On again from the settings, then off: the same row each time, never a second one.
	await toggle('on')
	expect(await adminListShows()).toEqual([{ email, status: 'active' }])
	await toggle('off')
	expect(await adminListShows()).toEqual([{ email, status: 'unsubscribed' }])
	expect(await settingsShow()).toBe('unsubscribed')

	// The admin deletes the address: gone from the settings and the export too.
	const { id } = (await findSubscriber(db(), email))!
	expect((await adminPost({ intent: 'delete', id })).status).toBe(302)
	expect(await settingsShow()).toBeNull()
	expect((await exported()).subscription).toBeNull()

	// The admin adds it back, certifying a consent given on paper: the member sees it on.
	expect(
		(await adminPost({ intent: 'add', email: MEMBER, certified: 'on', consentNote: 'Formulaire papier, concert de Lyon' })).status,
	).toBe(302)
	expect(await settingsShow()).toBe('active')
	expect((await exported()).subscription).toMatchObject({
		status: 'active',
		source: 'admin',
		consentNote: 'Formulaire papier, concert de Lyon',
	})
})

it('refuses a certified addition without saying where the consent was given, in French, input kept', async () => {
	const result = await adminPost({ intent: 'add', email: 'papier@exemple.fr', certified: 'on', consentNote: '' })
	expect(result.status).toBe(400)
	const reply = (result.body as { result: { error: Record<string, string[]>; initialValue: Record<string, string> } }).result
	expect(reply.error.consentNote).toEqual(['Indiquez où cette personne a donné son accord.'])
	expect(reply.initialValue.email).toBe('papier@exemple.fr')
	expect(await findSubscriber(db(), 'papier@exemple.fr')).toBeUndefined()
})
