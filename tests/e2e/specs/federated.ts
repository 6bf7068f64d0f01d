/*
 * Signing in with a real OpenID Connect provider (oidc-provider in the test process, configured on
 * the site through OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET and OIDC_NAME): a new member,
 * the same member coming back, a refused consent, and the takeover of an address by whoever
 * registers it first with a password.
 */
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import type { BrowserContext, Page } from 'playwright-core'
import { newMember, signUpByForm, signUpOnly } from '../support/accounts.ts'
import { audit } from '../support/axe.ts'
import { continueWithProvider, me, providerButtonName, signInMethods, signInWithProvider } from '../support/federated.ts'
import { closeAll, h, newVisitor, pathOf, sameSite, SEQUENTIAL, visit, waitForPath } from '../support/harness.ts'
import { linkIn } from '../support/mailbox.ts'
import { t } from '../support/i18n.ts'
import type { OidcUser } from '../support/oidc.ts'

const run = randomBytes(3).toString('hex')

function providerUser(login: string, name: string): OidcUser {
	return h.oidc.addUser({ login: `${login}-${run}`, email: `${login}-${run}@idp.example.test`, name })
}

/** The form-level alert of the sign-in page (the provider's error is shown there). */
async function signInAlert(page: Page): Promise<string> {
	const alert = page.getByRole('alert').filter({ hasText: /\S/ })
	await alert.first().waitFor()
	return (await alert.first().innerText()).trim()
}

export function federatedSpecs() {
	describe('signing in with the OpenID Connect provider', SEQUENTIAL, () => {
		let alix: OidcUser
		let context: BrowserContext
		let page: Page
		let alixId = ''

		before(async () => {
			alix = providerUser('alix', 'Alix Fournisseur')
			context = await newVisitor()
			page = await context.newPage()
		})
		after(() => closeAll(context))

		test('a new visitor continues with the provider, consents, and lands on the dashboard as a new member', async () => {
			await visit(page, '/auth/signin')
			await page.getByRole('button', { name: providerButtonName() }).waitFor()

			const trip = await continueWithProvider(page, alix, 'allow')
			assert.deepEqual(trip.prompts, ['login', 'consent'], 'the provider asked who it is, then for consent')
			// The site asked for a code, with PKCE (S256), a state, a nonce and the three scopes.
			const authorize = h.requests
				.map((r) => new URL(r.url))
				.find((url) => url.origin === h.oidc.origin && url.pathname === '/auth' && url.searchParams.get('client_id') === h.oidc.clientId)
			assert.ok(authorize, 'the browser never went to the provider’s authorization endpoint')
			const params = authorize.searchParams
			assert.equal(params.get('response_type'), 'code')
			assert.equal(params.get('code_challenge_method'), 'S256')
			assert.match(params.get('code_challenge') ?? '', /^[A-Za-z0-9_-]{43}$/)
			assert.ok((params.get('state') ?? '').length >= 16, 'no state')
			assert.ok(params.get('nonce'), 'no nonce')
			assert.deepEqual((params.get('scope') ?? '').split(' ').sort(), ['email', 'openid', 'profile'])
			assert.equal(params.get('redirect_uri'), `${h.origin}/api/auth/callback/oidc`)
			assert.equal(trip.landedOn.pathname, '/dashboard', `landed on ${trip.landedOn.pathname}${trip.landedOn.search}`)
			await page.getByRole('heading', { level: 1, name: t('dashboard.home.greeting', { name: 'Alix' }) }).waitFor()

			const profile = await me(context)
			assert.equal(profile.status, 200)
			assert.equal(profile.name, alix.name, 'the profile name comes from the provider')
			assert.equal(profile.email, alix.email)
			assert.equal(profile.emailVerified, true, 'the provider vouches for the address (email_verified)')
			// A verified address: no « Confirmez votre adresse e-mail » banner.
			assert.equal(await page.getByRole('complementary', { name: t('dashboard.verify.title') }).count(), 0)
			assert.deepEqual(await signInMethods(context), ['oidc'])
			alixId = profile.id ?? ''
			assert.ok(alixId)
			await audit(page, 'dashboard')
		})

		test('signing out and in again with the provider returns to the same account', async () => {
			await page.getByRole('button', { name: t('dashboard.signOut') }).click()
			await waitForPath(page, (url) => url.pathname === '/')
			assert.equal((await me(context)).status, 401, 'signed out')

			// The provider remembers the person and the consent: straight back.
			const again = await signInWithProvider(page, alix)
			assert.equal(again.landedOn.pathname, '/dashboard')
			const profile = await me(context)
			assert.equal(profile.id, alixId, 'the same account as the first time')

			// Another device, sent to sign in by the page it wanted: the provider asks again who it
			// is; still the same account, and back on the page it asked for.
			const other = await newVisitor()
			try {
				const otherPage = await other.newPage()
				await visit(otherPage, '/dashboard/settings')
				assert.equal(pathOf(otherPage), '/auth/signin?redirectTo=%2Fdashboard%2Fsettings')
				const trip = await continueWithProvider(otherPage, alix, 'allow')
				assert.ok(trip.prompts.includes('login'), `a fresh browser signs in at the provider (${trip.prompts.join(', ')})`)
				assert.equal(trip.landedOn.pathname, '/dashboard/settings', `landed on ${trip.landedOn.pathname}${trip.landedOn.search}`)
				assert.equal((await me(other)).id, alixId, 'another device lands on the same account')
			} finally {
				await closeAll(other)
			}
			assert.deepEqual(await signInMethods(context), ['oidc'], 'still one provider link, not two')
		})
	})

	describe('linking the provider from the settings', SEQUENTIAL, () => {
		let context: BrowserContext

		before(async () => {
			context = await newVisitor()
		})
		after(() => closeAll(context))

		test('a member with a confirmed address links the provider for that address, then signs in with it', async () => {
			const member = newMember('Sam')
			const sam = h.oidc.addUser({ login: `sam-${run}`, email: member.email, name: 'Sam Fournisseur' })
			await signUpByForm(context, member)
			const { id } = await me(context)

			const page = await context.newPage()
			await visit(page, '/dashboard/settings')
			const trip = await continueWithProvider(page, sam, 'allow', t('settings.methods.link', { name: h.oidc.name }))
			assert.equal(`${trip.landedOn.pathname}${trip.landedOn.search}`, '/dashboard/settings?linked=1')
			await page.getByText(t('settings.methods.linked')).waitFor()
			assert.deepEqual(await signInMethods(context), ['credential', 'oidc'])
			assert.equal((await me(context)).name, member.name, 'linking keeps the member’s own name')

			await page.getByRole('button', { name: t('dashboard.signOut') }).click()
			await waitForPath(page, (url) => url.pathname === '/')
			const back = await signInWithProvider(page, sam)
			assert.equal(back.landedOn.pathname, '/dashboard')
			assert.equal((await me(context)).id, id, 'the provider now opens the member’s account')
		})

		test('an identity with another address is refused, in French, and nothing is linked', async () => {
			const member = newMember('Roxane')
			const other = providerUser('roxane', 'Roxane Ailleurs')
			const fresh = await newVisitor()
			try {
				await signUpByForm(fresh, member)
				const page = await fresh.newPage()
				await visit(page, '/dashboard/settings')
				const trip = await continueWithProvider(page, other, 'allow', t('settings.methods.link', { name: h.oidc.name }))
				assert.equal(trip.landedOn.pathname, '/dashboard/settings')
				assert.ok(trip.landedOn.searchParams.get('error'), `no error code: ${trip.landedOn.search}`)
				await page.getByText(t('settings.methods.errors.notLinkable')).waitFor()
				assert.deepEqual(await signInMethods(fresh), ['credential'])
			} finally {
				await closeAll(fresh)
			}
		})
	})

	describe('refusing the provider’s consent', SEQUENTIAL, () => {
		let context: BrowserContext

		before(async () => {
			context = await newVisitor()
		})
		after(() => closeAll(context))

		test('« Refuser » at the provider lands back on /auth/signin with the French message, and no session', async () => {
			const camille = providerUser('refus', 'Camille Refus')
			const page = await context.newPage()
			const trip = await signInWithProvider(page, camille, 'deny')
			assert.deepEqual(trip.prompts, ['login', 'consent'])
			assert.equal(trip.landedOn.pathname, '/auth/signin', `landed on ${pathOf(page)}`)
			assert.equal(trip.landedOn.searchParams.get('error'), 'access_denied')
			await page.waitForLoadState('load')
			assert.equal(await signInAlert(page), t('auth.errors.providerDenied'))
			assert.equal((await me(context)).status, 401, 'a refused consent opens no session')
			// The page is the ordinary sign-in page, usable at once.
			await page.getByLabel(t('auth.fields.email')).waitFor()
			await page.getByRole('button', { name: providerButtonName() }).waitFor()
			await audit(page, 'sign-in with a provider error')
		})
	})

	describe('an address registered first by someone else, with a password', SEQUENTIAL, () => {
		let attacker: BrowserContext
		let victim: BrowserContext
		let alex: OidcUser
		let squatter: ReturnType<typeof newMember>

		before(async () => {
			alex = providerUser('alex', 'Alex Victime')
			attacker = await newVisitor()
			victim = await newVisitor()
			squatter = { ...newMember('Mallory'), email: alex.email }
		})
		after(() => closeAll(attacker, victim))

		test('the squatter gets no session, and the victim signing in with the provider does not end up in that account', async () => {
			// The attacker signs up with the victim's address: no session, the mail goes to the victim.
			await signUpOnly(attacker, squatter)
			assert.equal((await me(attacker)).status, 401, 'a sign-up opens no session')

			const page = await victim.newPage()
			const trip = await signInWithProvider(page, alex)
			const landed = `${trip.landedOn.pathname}${trip.landedOn.search}`
			const session = await me(victim)
			// Better Auth refuses the implicit link onto an unverified local address: back to the
			// sign-in page, with the French message for that case, and no session at all.
			assert.equal(session.status, 401, `the victim got a session (${JSON.stringify(session)}), landed on ${landed}`)
			assert.equal(trip.landedOn.pathname, '/auth/signin', `landed on ${landed}`)
			assert.equal(trip.landedOn.searchParams.get('error'), 'account_not_linked', `landed on ${landed}`)
			await page.waitForLoadState('load')
			assert.equal(await signInAlert(page), t('auth.errors.providerAccountNotLinked'))
			await audit(page, 'sign-in with a provider error')
		})

		test('the squatter’s password opens nothing until the address is confirmed', async () => {
			const response = await attacker.request.post('/auth/signin', {
				form: { email: squatter.email, password: squatter.password, redirectTo: '' },
				headers: sameSite(),
				maxRedirects: 0,
			})
			assert.equal(response.status(), 403)
			assert.equal((await me(attacker)).status, 401)
		})

		test('the victim who opens the mailed link cannot confirm the account with a password they never chose', async () => {
			const isVerifyLink = (url: URL) => url.pathname === '/auth/claim' && url.searchParams.get('mode') === 'verifyEmail'
			const mail = await h.mailbox.waitFor(alex.email, (m) => {
				try {
					return Boolean(linkIn(m, h.origin, isVerifyLink))
				} catch {
					return false
				}
			})
			const link = linkIn(mail, h.origin, isVerifyLink)
			const page = await victim.newPage()
			await visit(page, link.pathname + link.search)
			await page.getByLabel(t('auth.fields.password')).fill('le mot de passe de la victime')
			await page.getByRole('button', { name: t('auth.claim.verifyEmail.submit') }).click()
			await page.getByText(t('auth.claim.verifyEmail.wrongPassword')).waitFor()
			// The page offers the way out that replaces the squatter's password: « Mot de passe oublié ».
			await page.getByRole('link', { name: t('auth.claim.verifyEmail.chooseNew') }).click()
			await waitForPath(page, (url) => url.pathname === '/auth/forgot-password')
			assert.equal((await me(victim)).status, 401)
			// Still not confirmed: the squatter's password still opens nothing.
			const squatterTry = await attacker.request.post('/auth/signin', {
				form: { email: squatter.email, password: squatter.password, redirectTo: '' },
				headers: sameSite(),
				maxRedirects: 0,
			})
			assert.equal(squatterTry.status(), 403)
			await page.close()
		})
	})
}
