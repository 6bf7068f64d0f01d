import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { code, codeDownload, codeRedemption, user } from '#app/platform/db/schema.ts'
import { addCampaignFile } from '#app/features/codes/campaigns.server.ts'
import { formatCode } from '#app/features/codes/code-format.ts'
import { erasePersonalData, exportAccountData } from '#app/features/accounts/account-data.server.ts'
import * as claim from '#app/routes/auth/claim.tsx'
import * as signin from '#app/routes/auth/signin.tsx'
import * as signup from '#app/routes/auth/signup.tsx'
import * as home from '#app/routes/dashboard/home.tsx'
import * as download from '#app/routes/dashboard/download.ts'
import * as redeem from '#app/routes/public/redeem.tsx'
import { databaseKind } from '../support/database.ts'
import { signUpConfirmed, verifyLinkFor } from '../support/members.ts'
import { startTestPlatform, type TestPlatform } from '../support/platform.ts'
import { campaignWithCodes } from '../support/codes.ts'
import { cookieFrom, formPost, get, outcome, routeArgs, SITE_URL } from '../support/requests.ts'

/*
 * The pages of redemption, called as our server calls them: /redeem for a member and for a
 * visitor, the reward claim through sign-up, « Mes contenus » and its signed downloads.
 */
const kind = databaseKind()
const PASSWORD = 'cheval agrafe pile correcte'
let env: TestPlatform
const db = () => env.platform.database.db

beforeAll(async () => {
	env = await startTestPlatform()
})
afterAll(async () => {
	await env?.stop()
})

async function member() {
	const email = `fan-${randomUUID().slice(0, 8)}@exemple.fr`
	const cookie = await signUpConfirmed({ name: 'Camille Fan', email, password: PASSWORD })
	const [row] = await db().select({ id: user.id }).from(user).where(eq(user.email, email))
	return { id: row!.id, email, cookie }
}

const post = async (typed: string, cookie?: string) =>
	outcome(await redeem.action(routeArgs(formPost('/redeem', { code: typed }, { cookie }), '/redeem')))

async function withFile() {
	const made = await campaignWithCodes(db(), 3)
	const bytes = new TextEncoder().encode('ID3 un vrai morceau, promis. '.repeat(100))
	const key = `codes/${made.campaignId.toLowerCase().replace(/[^a-z0-9]/g, '')}/morceau.mp3`
	await env.platform.storage.put(key, bytes, { contentType: 'audio/mpeg' })
	const fileId = await addCampaignFile(db(), {
		campaignId: made.campaignId,
		storageKey: key,
		name: 'Nuits blanches.mp3',
		size: bytes.length,
		contentType: 'audio/mpeg',
	})
	return { ...made, fileId, bytes }
}

describe(`/redeem on ${kind}`, () => {
	it('pre-fills ?code= and gives every visitor without a cookie the same page', async () => {
		const data = redeem.loader(routeArgs(get('/redeem?code=abcd-efgh'), '/redeem'))
		expect(data.prefill).toBe('abcd-efgh')
		const plain = redeem.loader(routeArgs(get('/redeem'), '/redeem'))
		expect(plain).toEqual(redeem.loader(routeArgs(get('/redeem'), '/redeem')))
	})

	it('answers every outcome in French, keeping what was typed', async () => {
		const unknown = await post('abcd efgh jkmn')
		expect(unknown.status).toBe(404)
		expect(unknown.body).toMatchObject({ typed: 'abcd efgh jkmn', error: expect.stringContaining('n’existe pas') })
		for (const typed of ['AB', 'A'.repeat(200), '🎸🎸🎸🎸🎸🎸🎸🎸', "'; drop table code; --"]) {
			const result = await post(typed)
			expect(result.status, typed).toBe(400)
			expect((result.body as { error: string }).error).toMatch(/code/)
		}
		expect((await post('')).status).toBe(400)
		const huge = await post('A'.repeat(5000))
		expect(huge.status).toBe(400)
		expect((huge.body as { error: string }).error).toContain('pas un code valide')
		const soon = await campaignWithCodes(db(), 1, { startsAt: new Date('2099-03-14T19:30:00Z') })
		const notYet = await post(soon.codes[0]!)
		expect(notYet.status).toBe(403)
		expect((notYet.body as { error: string }).error).toContain('14 mars 2099')
	})

	it('grants a signed-in member at once and sends them to « Mes contenus »', async () => {
		const m = await member()
		const { codes, fileId, bytes } = await withFile()
		const result = await post(formatCode(codes[0]!).toLowerCase(), m.cookie)
		expect(result.status).toBe(302)
		expect(result.headers.get('location')).toBe('/dashboard#mes-contenus')

		const page = await home.loader(routeArgs(get('/dashboard', { cookie: m.cookie }), '/dashboard'))
		expect(page.contents).toHaveLength(1)
		expect(page.contents[0]!.messageHtml).toContain('<strong>l’album</strong>')
		const href = page.contents[0]!.files[0]!.href!
		expect(href).toMatch(new RegExp(`^/dashboard/contenus/${fileId}\\?expires=\\d+&sig=`))

		// The download: whole, then resumed with a Range, counted once.
		const fetchFile = async (path: string, cookie: string, headers: Record<string, string> = {}) => {
			const request = get(path, { cookie })
			for (const [k, v] of Object.entries(headers)) request.headers.set(k, v)
			const url = new URL(path, SITE_URL)
			return (await download.loader({
				...routeArgs(request, '/dashboard/contenus/:fileId', { fileId: url.pathname.split('/').pop()! }),
			})) as Response
		}
		const whole = await fetchFile(href, m.cookie)
		expect(whole.status).toBe(200)
		expect(whole.headers.get('content-disposition')).toContain('Nuits%20blanches.mp3')
		expect(new Uint8Array(await whole.arrayBuffer())).toEqual(bytes)
		const part = await fetchFile(href, m.cookie, { range: 'bytes=100-199' })
		expect(part.status).toBe(206)
		expect(part.headers.get('content-range')).toBe(`bytes 100-199/${bytes.length}`)
		expect((await part.arrayBuffer()).byteLength).toBe(100)
		expect(await db().select().from(codeDownload).where(eq(codeDownload.userId, m.id))).toHaveLength(1)

		// Someone else with the same link, a tampered link, an expired one.
		const other = await member()
		expect((await fetchFile(href, other.cookie)).status).toBe(403)
		// One character of the signature changed, to another one whatever it was (a fixed 'A' left a
		// signature that began with 'A' untouched).
		const tampered = href.replace(/sig=(.)/, (_, first: string) => `sig=${first === 'A' ? 'B' : 'A'}`)
		expect(tampered).not.toBe(href)
		expect((await fetchFile(tampered, m.cookie)).status).toBe(403)
		const expired = new Date(Date.now() - 3600_000)
		const old = (await (await import('#app/features/codes/contents.server.ts')).memberContents(db(), env.platform.env, m.id, expired))[0]!
			.files[0]!.href!
		const gone = await fetchFile(old, m.cookie)
		expect(gone.status).toBe(410)
		expect(await gone.text()).toContain('expiré')

		// Redeeming it again keeps one use.
		const again = await post(codes[0]!, m.cookie)
		expect(again.status).toBe(302)
		expect((await db().select().from(code).where(eq(code.code, codes[0]!)))[0]!.uses).toBe(1)

		// The data export has the code and the download; deletion keeps the code spent, without the member.
		const exported = await exportAccountData(db(), env.platform.env, m.id)
		expect(exported!.codes).toEqual([expect.objectContaining({ code: codes[0], campaign: 'Vinyle « Nuits blanches »' })])
		expect(exported!.downloads).toEqual([expect.objectContaining({ file: 'Nuits blanches.mp3' })])
		await erasePersonalData(db(), { id: m.id, email: m.email })
		const [kept] = await db().select().from(codeRedemption).where(eq(codeRedemption.code, codes[0]!))
		expect(kept).toMatchObject({ status: 'granted', userId: null })
		expect((await db().select().from(code).where(eq(code.code, codes[0]!)))[0]!.uses).toBe(1)
	})

	it('reserves the code for a visitor, who keeps it through sign-up without typing it again', async () => {
		const { codes } = await withFile()
		const result = await post(codes[1]!)
		expect(result.status).toBe(200)
		const reserved = (result.body as { reserved: { claim: string; unlocked: { files: { href?: string }[] } } }).reserved
		expect(reserved.unlocked.files[0]!.href).toBeUndefined()
		expect(reserved.claim).toMatch(/^\/auth\/claim\?mode=reward&token=/)

		// Nobody else can take it meanwhile.
		const thief = await member()
		expect((await post(codes[1]!, thief.cookie)).status).toBe(410)

		// The claim page, signed out: what it unlocks, and the way to sign in or up.
		const page = await claim.loader(routeArgs(get(reserved.claim), '/auth/claim'))
		expect(page).toMatchObject({ mode: 'reward', state: 'form', signedIn: false })
		// Signed out, the POST sends to sign-in and back.
		const anonymous = await claim.action(routeArgs(formPost(reserved.claim, {}), '/auth/claim')).catch((e: unknown) => e)
		expect((anonymous as Response).status).toBe(302)

		const fan = await member()
		const claimed = await outcome(await claim.action(routeArgs(formPost(reserved.claim, {}, { cookie: fan.cookie }), '/auth/claim')))
		expect(claimed.status).toBe(302)
		expect(claimed.headers.get('location')).toBe('/dashboard#mes-contenus')
		const contents = await home.loader(routeArgs(get('/dashboard', { cookie: fan.cookie }), '/dashboard'))
		expect(contents.contents).toHaveLength(1)

		// The link is spent.
		const replay = await outcome(await claim.action(routeArgs(formPost(reserved.claim, {}, { cookie: thief.cookie }), '/auth/claim')))
		expect(replay.status).toBe(400)
		const after = await claim.loader(routeArgs(get(reserved.claim), '/auth/claim'))
		expect(after).toMatchObject({ state: 'invalid' })
	})

	it('brings a visitor who signs up back to the claim from the confirmation mail, code still held', async () => {
		const { codes } = await withFile()
		const reserved = ((await post(codes[2]!)).body as { reserved: { claim: string } }).reserved
		// The claim page's « Créer un compte » link, then the sign-up form, which opens no session.
		const email = `nouveau-${randomUUID().slice(0, 8)}@exemple.fr`
		const signupPage = await signup.loader(
			routeArgs(get(`/auth/signup?${new URLSearchParams({ redirectTo: reserved.claim })}`), '/auth/signup'),
		)
		expect(signupPage.redirectTo).toBe(reserved.claim)
		const fields = { name: 'Sacha Nouveau', email, password: PASSWORD, acceptPrivacy: 'on', redirectTo: signupPage.redirectTo! }
		const signedUp = await outcome(await signup.action(routeArgs(formPost('/auth/signup', fields), '/auth/signup')))
		expect(signedUp.status).toBe(302)
		expect(signedUp.headers.getSetCookie().join()).not.toMatch(/session_token=/)

		// Meanwhile nobody else can take the code.
		const thief = await member()
		expect((await post(codes[2]!, thief.cookie)).status).toBe(410)

		// The mail's link carries the claim; confirming with the password lands there, signed in.
		const link = await verifyLinkFor(email)
		expect(link.origin).toBe(SITE_URL)
		expect(link.searchParams.get('redirectTo')).toBe(reserved.claim)
		const target = link.pathname + link.search
		const confirmed = await outcome(await claim.action(routeArgs(formPost(target, { password: PASSWORD }), '/auth/claim')))
		expect(confirmed.status).toBe(302)
		expect(confirmed.headers.get('location')).toBe(reserved.claim)
		const cookie = cookieFrom(confirmed.headers)
		expect(cookie).toMatch(/session_token=/)

		// The claim page, signed in now: one button, no code to type; the grant is theirs.
		const page = await claim.loader(routeArgs(get(reserved.claim, { cookie }), '/auth/claim'))
		expect(page).toMatchObject({ mode: 'reward', state: 'form', signedIn: true })
		const claimed = await outcome(await claim.action(routeArgs(formPost(reserved.claim, {}, { cookie }), '/auth/claim')))
		expect(claimed.status).toBe(302)
		expect(claimed.headers.get('location')).toBe('/dashboard#mes-contenus')
		const contents = await home.loader(routeArgs(get('/dashboard', { cookie }), '/dashboard'))
		expect(contents.contents).toHaveLength(1)
		const [row] = await db().select().from(codeRedemption).where(eq(codeRedemption.code, codes[2]!))
		const [newcomer] = await db().select({ id: user.id }).from(user).where(eq(user.email, email))
		expect(row).toMatchObject({ status: 'granted', userId: newcomer!.id })
	})

	it('tells a member who reserved the code before signing in that it is theirs, and adds it in one click', async () => {
		const { codes } = await withFile()
		// Signed out: the code is held, and the browser keeps a note of it for /redeem only.
		const visitor = await post(codes[0]!)
		expect(visitor.status).toBe(200)
		const notes = visitor.headers.getSetCookie().filter((line) => line.startsWith('code_reservations='))
		// For the form posted as a page and as the hydrated page's data request, and nowhere else.
		expect(notes.map((line) => /Path=([^;]+)/.exec(line)?.[1])).toEqual(['/redeem', '/redeem.data'])
		for (const note of notes) expect(note).toMatch(/HttpOnly/)
		const pair = notes[0]!.split(';')[0]!

		// Signed up and confirmed since, they type the same code: not « déjà utilisé », but theirs.
		const fan = await member()
		const again = await post(formatCode(codes[0]!), `${fan.cookie}; ${pair}`)
		expect(again.status).toBe(200)
		const yours = (again.body as { yours: { claim: string }; error: string | null }).yours
		expect((again.body as { error: string | null }).error).toBeNull()
		expect(yours.claim).toMatch(/^\/auth\/claim\?mode=reward&token=/)
		// Someone else with the same code (and no note) is still told it is taken.
		const other = await member()
		expect((await post(codes[0]!, other.cookie)).status).toBe(410)

		// The form posts to the claim: the code is in their contents, once.
		const claimed = await outcome(await claim.action(routeArgs(formPost(yours.claim, {}, { cookie: fan.cookie }), '/auth/claim')))
		expect(claimed.headers.get('location')).toBe('/dashboard#mes-contenus')
		const [row] = await db().select().from(codeRedemption).where(eq(codeRedemption.code, codes[0]!))
		expect(row).toMatchObject({ status: 'granted', userId: fan.id })
		// Typed once more: already theirs, straight to « Mes contenus ».
		const thrice = await post(codes[0]!, `${fan.cookie}; ${pair}`)
		expect(thrice.status).toBe(302)
		expect(thrice.headers.get('location')).toBe('/dashboard#mes-contenus')
		expect(await db().select().from(code).where(eq(code.code, codes[0]!))).toMatchObject([{ uses: 1 }])
	})

	it('shows a visitor the teaser only: the message and the links’ addresses go to the member who kept the code', async () => {
		const { codes } = await withFile()
		const visitor = await post(codes[1]!)
		const reserved = (visitor.body as { reserved: { claim: string; unlocked: Record<string, unknown> } }).reserved
		const shown = JSON.stringify(reserved.unlocked)
		expect(shown).toContain('Vinyle « Nuits blanches »')
		expect(shown).toContain('Nuits blanches.mp3')
		expect(shown).toContain('Les paroles')
		expect(shown).not.toContain('exemple.fr/paroles')
		expect(shown).not.toContain('l’album')
		// The claim page, signed out or in, shows the same teaser.
		const page = JSON.stringify(await claim.loader(routeArgs(get(reserved.claim), '/auth/claim')))
		expect(page).toContain('Les paroles')
		expect(page).not.toContain('exemple.fr/paroles')
		expect(page).not.toContain('l’album')

		// Kept: the member gets the reward itself.
		const fan = await member()
		await claim.action(routeArgs(formPost(reserved.claim, {}, { cookie: fan.cookie }), '/auth/claim'))
		const contents = await home.loader(routeArgs(get('/dashboard', { cookie: fan.cookie }), '/dashboard'))
		expect(contents.contents[0]!.links).toEqual([{ label: 'Les paroles', url: 'https://exemple.fr/paroles' }])
		expect(contents.contents[0]!.messageHtml).toContain('l’album')
	})

	it('carries the claim in the link sent again when an unconfirmed member signs in from it', async () => {
		const { codes } = await withFile()
		const reserved = ((await post(codes[1]!)).body as { reserved: { claim: string } }).reserved
		// Signed up earlier, elsewhere, and never confirmed: that first link leads to the dashboard.
		const email = `distrait-${randomUUID().slice(0, 8)}@exemple.fr`
		const fields = { name: 'Noé Distrait', email, password: PASSWORD, acceptPrivacy: 'on' }
		expect((await outcome(await signup.action(routeArgs(formPost('/auth/signup', fields), '/auth/signup')))).status).toBe(302)
		const first = await verifyLinkFor(email)
		expect(first.searchParams.get('redirectTo') ?? '/dashboard').toBe('/dashboard')

		// From the claim, « Se connecter »: refused until confirmed, and the link mailed again carries the claim.
		// A confirmation token is signed with its time in whole seconds: the new one is made in a later
		// second than the first, or the two would be equal even though a new link was sent.
		await new Promise((resolve) => setTimeout(resolve, 1_010 - (Date.now() % 1_000)))
		const form = { email, password: PASSWORD, redirectTo: reserved.claim }
		const refused = await outcome(await signin.action(routeArgs(formPost('/auth/signin', form), '/auth/signin')))
		expect(refused.status).toBe(403)
		expect(refused.headers.getSetCookie().join()).not.toMatch(/session_token=/)
		const again = await verifyLinkFor(email)
		expect(again.searchParams.get('token')).not.toBe(first.searchParams.get('token'))
		expect(again.searchParams.get('redirectTo')).toBe(reserved.claim)
		const confirmed = await outcome(
			await claim.action(routeArgs(formPost(again.pathname + again.search, { password: PASSWORD }), '/auth/claim')),
		)
		expect(confirmed.status).toBe(302)
		expect(confirmed.headers.get('location')).toBe(reserved.claim)
	})

	it('never carries a redirect off the site through the confirmation mail', async () => {
		for (const redirectTo of ['https://pirate.example/claim', '//pirate.example/claim', '/\\pirate.example']) {
			const email = `prudent-${randomUUID().slice(0, 8)}@exemple.fr`
			const fields = { name: 'Alex Prudent', email, password: PASSWORD, acceptPrivacy: 'on', redirectTo }
			expect((await outcome(await signup.action(routeArgs(formPost('/auth/signup', fields), '/auth/signup')))).status).toBe(302)
			const link = await verifyLinkFor(email)
			expect(link.searchParams.get('redirectTo') ?? '/dashboard', redirectTo).toBe('/dashboard')
			// A link forged by hand with a foreign target confirms, and stays on the site.
			link.searchParams.set('redirectTo', redirectTo)
			const confirmed = await outcome(
				await claim.action(routeArgs(formPost(link.pathname + link.search, { password: PASSWORD }), '/auth/claim')),
			)
			expect(confirmed.status, redirectTo).toBe(200)
			expect(confirmed.body).toMatchObject({ state: 'done', signedIn: true })
		}
	})

	it('answers 429 with Retry-After and the wait in French once an address is locked out', async () => {
		const address = '198.19.20.20'
		let last = await outcome(
			await redeem.action(routeArgs(formPost('/redeem', { code: 'ZZZZ-ZZZZ-ZZZ2' }, { clientAddress: address }), '/redeem')),
		)
		for (let i = 0; i < 12 && last.status !== 429; i++)
			last = await outcome(
				await redeem.action(routeArgs(formPost('/redeem', { code: 'ZZZZ-ZZZZ-ZZZ2' }, { clientAddress: address }), '/redeem')),
			)
		expect(last.status).toBe(429)
		expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(60)
		expect((last.body as { error: string }).error).toMatch(/Réessayez dans \d+ minutes/)
	})
})
