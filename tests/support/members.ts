import { and, desc, eq } from 'drizzle-orm'
import { expect } from 'vitest'
import { outboxMail } from '#app/platform/db/schema.ts'
import { getPlatform } from '#app/platform/platform.server.ts'
import * as claim from '#app/routes/auth/claim.tsx'
import * as signup from '#app/routes/auth/signup.tsx'
import { cookieFrom, formPost, outcome, routeArgs } from './requests.ts'

/*
 * A member as a person becomes one: the sign-up form (no session yet), then the link of the mail
 * that confirms the address, where they type their password and are signed in.
 */

/** The latest « confirm your address » link mailed to this address (from the outbox). */
export async function verifyLinkFor(email: string): Promise<URL> {
	const { database } = await getPlatform()
	const [mail] = await database.db
		.select()
		.from(outboxMail)
		.where(and(eq(outboxMail.toAddress, email.trim().toLowerCase()), eq(outboxMail.kind, 'verify-email')))
		.orderBy(desc(outboxMail.createdAt))
		.limit(1)
	expect(mail, `a verification mail to ${email} in the outbox`).toBeDefined()
	const link = /https?:\/\/[^\s"<>]+token=[^\s"<>]+/.exec(mail!.text ?? '')?.[0]
	expect(link, 'a link in the verification mail').toBeDefined()
	return new URL(link!.replaceAll('&amp;', '&'))
}

/** The token of that link. */
export async function verifyTokenFor(email: string): Promise<string> {
	return (await verifyLinkFor(email)).searchParams.get('token')!
}

/** Posts the confirmation page of a verification link, as the browser would. */
export async function confirmByLink(token: string, fields: Record<string, string>, cookie?: string) {
	const url = `/auth/claim?${new URLSearchParams({ mode: 'verifyEmail', token })}`
	return outcome(await claim.action(routeArgs(formPost(url, fields, { cookie }), '/auth/claim')))
}

/** Signs up through the form, confirms the address from the mail with the password; returns the session cookie. */
export async function signUpConfirmed(fields: { name: string; email: string; password: string }): Promise<string> {
	const signedUp = await outcome(
		await signup.action(routeArgs(formPost('/auth/signup', { ...fields, acceptPrivacy: 'on' }), '/auth/signup')),
	)
	expect(signedUp.status, JSON.stringify(signedUp.body)).toBe(302)
	const confirmed = await confirmByLink(await verifyTokenFor(fields.email), { password: fields.password })
	expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200)
	const cookie = cookieFrom(confirmed.headers)
	expect(cookie).toMatch(/session_token=/)
	return cookie
}
