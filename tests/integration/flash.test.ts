import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readFlash, redirectWithFlash } from '#app/platform/flash.server.ts'
import { databaseKind } from '../support/database.ts'
import { startTestPlatform, type TestPlatform } from '../support/platform.ts'

/*
 * The flash cookie of a site served over https: Secure, and signed, so that nobody but the site can
 * make a page show one of its messages.
 */
let env: TestPlatform
beforeAll(async () => {
	env = await startTestPlatform({ env: { SITE_URL: 'https://groupe.example' } })
})
afterAll(async () => {
	await env?.stop()
})

const cookieOf = (response: Response) => response.headers.getSetCookie().find((c) => c.startsWith('flash='))!

describe(`the flash cookie on ${databaseKind()}`, () => {
	it('is Secure, HttpOnly and SameSite=Lax under an https SITE_URL', async () => {
		const cookie = cookieOf(await redirectWithFlash('/', { type: 'success', key: 'auth.flash.passwordReset' }))
		expect(cookie).toMatch(/; Secure/i)
		expect(cookie).toMatch(/; HttpOnly/i)
		expect(cookie).toMatch(/; SameSite=Lax/i)
	})

	it('reads back what the site set, once', async () => {
		const pair = cookieOf(await redirectWithFlash('/', { type: 'info', key: 'auth.flash.checkInbox' })).split(';')[0]!
		const { flash, clear } = await readFlash(new Request('https://groupe.example/', { headers: { cookie: pair } }))
		expect(flash).toMatchObject({ type: 'info', key: 'auth.flash.checkInbox' })
		expect(clear).toMatch(/^flash=;/)
	})

	it('ignores a cookie the site did not sign, or whose signature was tampered with', async () => {
		// What an unsigned cookie of React Router holds: the JSON in base64.
		const forged = btoa(JSON.stringify({ id: 'x', type: 'error', key: 'auth.flash.passwordReset' }))
		const unsigned = await readFlash(new Request('https://groupe.example/', { headers: { cookie: `flash=${forged}` } }))
		expect(unsigned.flash).toBeNull()
		const pair = cookieOf(await redirectWithFlash('/', { type: 'info', key: 'auth.flash.checkInbox' })).split(';')[0]!
		// The signature's first character: its last one may only carry base64's padding bits, which
		// decode to the same bytes (and changing them would prove nothing).
		const dot = pair.lastIndexOf('.')
		const tampered = pair.slice(0, dot + 1) + (pair[dot + 1] === 'A' ? 'B' : 'A') + pair.slice(dot + 2)
		expect((await readFlash(new Request('https://groupe.example/', { headers: { cookie: tampered } }))).flash).toBeNull()
	})
})
