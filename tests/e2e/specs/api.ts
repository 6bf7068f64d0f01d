/* The profile API (getCurrentUserData / updateUserData) as other clients would call it. */
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { BrowserContext } from 'playwright-core'
import { anonymousFetch, newMember, signUpByForm } from '../support/accounts.ts'
import { closeAll, newVisitor, sameSite } from '../support/harness.ts'

const json = { 'content-type': 'application/json', accept: 'application/json' }

export function apiSpecs() {
	describe('the profile API', () => {
		const member = newMember('Léa')
		let context: BrowserContext

		before(async () => {
			context = await newVisitor()
			await signUpByForm(context, member)
		})
		after(() => closeAll(context))

		test('GET /api/me signed out is a 401 in JSON', async () => {
			const response = await anonymousFetch('/api/me', { headers: { accept: 'application/json' } })
			assert.equal(response.status, 401)
			assert.match(response.headers.get('content-type') ?? '', /^application\/json/)
			const body = (await response.json()) as { error?: unknown }
			assert.equal(typeof body.error, 'string')
			assert.match(response.headers.get('cache-control') ?? '', /no-store/)
		})

		test('GET /api/me signed in returns the member’s own profile', async () => {
			const response = await context.request.get('/api/me')
			assert.equal(response.status(), 200)
			assert.match(response.headers()['content-type'] ?? '', /^application\/json/)
			assert.match(response.headers()['cache-control'] ?? '', /no-store/)
			const profile = (await response.json()) as Record<string, unknown>
			assert.equal(profile.email, member.email)
			assert.equal(profile.name, member.name)
			assert.equal(profile.role, 'user')
			const text = JSON.stringify(profile).toLowerCase()
			assert.ok(!text.includes('password') && !text.includes(member.password.toLowerCase()), 'the profile must not carry password data')
		})

		test('PATCH /api/me with a role is a 400 that names the field, and changes nothing', async () => {
			const response = await context.request.patch('/api/me', {
				headers: { ...json, ...sameSite() },
				data: { values: { role: 'admin' } },
			})
			assert.equal(response.status(), 400)
			const body = (await response.json()) as { error?: string; field?: string }
			assert.equal(body.field, 'role', `the 400 must name the field: ${JSON.stringify(body)}`)
			assert.match(body.error ?? '', /role/, `the reason must name the field: ${JSON.stringify(body)}`)

			const after = (await (await context.request.get('/api/me')).json()) as { role?: string }
			assert.equal(after.role, 'user')
			const admin = await context.request.get('/dashboard/admin', { maxRedirects: 0 })
			assert.equal(admin.status(), 403)
		})

		test('PATCH /api/me with an unknown field is a 400 that names it', async () => {
			const response = await context.request.patch('/api/me', {
				headers: { ...json, ...sameSite() },
				data: { values: { emailVerified: true } },
			})
			assert.equal(response.status(), 400)
			const body = (await response.json()) as { field?: string }
			assert.equal(body.field, 'emailVerified')
		})

		test('PATCH /api/me with allowed values updates the profile', async () => {
			const response = await context.request.patch('/api/me', {
				headers: { ...json, ...sameSite() },
				data: { values: { city: 'Lyon' } },
			})
			assert.equal(response.status(), 200, await response.text())
			const body = (await response.json()) as { data?: { city?: string; email?: string } }
			assert.equal(body.data?.city, 'Lyon')
			assert.equal(body.data?.email, member.email)

			const cleared = await context.request.patch('/api/me', {
				headers: { ...json, ...sameSite() },
				data: { valuesToClear: ['city'] },
			})
			assert.equal(cleared.status(), 200, await cleared.text())
			assert.equal(((await cleared.json()) as { data?: { city?: unknown } }).data?.city, null)
		})

		test('PATCH /api/me from another site is refused with a 403 and changes nothing', async () => {
			const crossSite: Record<string, string>[] = [
				{ origin: 'https://evil.example' },
				{ 'sec-fetch-site': 'cross-site' },
				{ origin: 'null' },
			]
			for (const headers of crossSite) {
				const response = await context.request.patch('/api/me', {
					headers: { ...json, ...headers },
					data: { values: { name: 'Pirate' } },
				})
				assert.equal(response.status(), 403, `PATCH with ${JSON.stringify(headers)} answered ${response.status()}`)
			}
			const profile = (await (await context.request.get('/api/me')).json()) as { name?: string }
			assert.equal(profile.name, member.name)
		})

		test('PATCH /api/me signed out is a 401', async () => {
			const response = await anonymousFetch('/api/me', {
				method: 'PATCH',
				headers: json,
				body: JSON.stringify({ values: { name: 'Personne' } }),
			})
			assert.equal(response.status, 401)
		})
	})
}
