import { randomUUID } from 'node:crypto'
import { eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newsletterSubscriber, outboxMail } from '#app/platform/db/schema.ts'
import { MAIL_QUEUE, recipientKey } from '#app/platform/mail/mailer.server.ts'
import { startPlatformWorkers } from '#app/platform/platform.server.ts'
import { RULES } from '#app/platform/rate-limit.server.ts'
import * as forgotPassword from '#app/routes/auth/forgot-password.tsx'
import * as signin from '#app/routes/auth/signin.tsx'
import * as signup from '#app/routes/auth/signup.tsx'
import * as settings from '#app/routes/dashboard/settings.tsx'
import * as contact from '#app/routes/public/contact.tsx'
import * as home from '#app/routes/public/home.tsx'
import * as unsubscribe from '#app/routes/public/unsubscribe.tsx'
import { databaseKind } from '../support/database.ts'
import { signUpConfirmed } from '../support/members.ts'
import { startTestPlatform, type TestPlatform } from '../support/platform.ts'
import { formPost, outcome, routeArgs, type Outcome } from '../support/requests.ts'
import { startTestSmtp, type TestSmtp } from '../support/smtp.ts'

/*
 * One cap on the mails a visitor can make the site send to one address, whatever the path: every
 * form that mails an address the visitor types is walked from many client addresses, and the mails
 * a real SMTP server receives for the victim are counted. Never more than the cap; the visitor's
 * answer stays the neutral one, never a 500.
 */
const PASSWORD = 'cheval agrafe pile correcte'
const CAP = RULES.mailsByRecipient.points

let smtp: TestSmtp
let env: TestPlatform
beforeAll(async () => {
	smtp = await startTestSmtp()
	env = await startTestPlatform({ env: { SMTP_URL: smtp.url, CONTACT_EMAIL: 'groupe@exemple.fr' } })
	await startPlatformWorkers(env.platform)
})
afterAll(async () => {
	await env?.stop()
	await smtp?.close()
})

const db = () => env.platform.database.db
const victimAddress = (label: string) => `victime-${label}-${randomUUID().slice(0, 8)}@exemple.fr`

/** Every request comes from a fresh client address (tests/support/requests.ts), as from a botnet. */
const post = async (module: { action: (args: never) => unknown }, path: string, fields: Record<string, string>, cookie?: string) =>
	outcome(await module.action(routeArgs(formPost(path, fields, { cookie }), path.split('?')[0]!) as never))

/** The paths that mail an address typed by whoever sends the form. */
const paths = {
	landing: (email: string) => post(home, '/?index', { email, consent: 'on', website: '' }),
	signUpWithNewsletter: (email: string) =>
		post(signup, '/auth/signup', { name: 'Quelqu’un', email, password: PASSWORD, acceptPrivacy: 'on', newsletter: 'on' }),
	// An unconfirmed account (made by the same visitor) gets its link again at every right password.
	signIn: (email: string) => post(signin, '/auth/signin', { email, password: PASSWORD }),
	reset: (email: string) => post(forgotPassword, '/auth/forgot-password', { email }),
	unsubscribeLink: (email: string) => post(unsubscribe, '/unsubscribe', { intent: 'request', email }),
	contact: (email: string) =>
		post(contact, '/contact', {
			name: 'Quelqu’un',
			email,
			subject: 'autre',
			message: 'Achetez nos montres, prix imbattables !',
			website: '',
		}),
}

/** A member asks for their address to change to the victim's (the link goes to the new address). */
async function emailChangeBy(cookie: string, email: string) {
	return post(settings, '/dashboard/settings', { intent: 'email', newEmail: email, currentPassword: PASSWORD }, cookie)
}

function wakeMailWorker() {
	void env.platform.jobs.boss().then((boss) => {
		for (const worker of boss.getWipData()) if (worker.name === MAIL_QUEUE) boss.notifyWorker(worker.id)
	})
}

/** Waits until every outbox mail to these addresses has left, then says how many the SMTP server got for the victim's inbox. */
async function receivedBy(victim: string): Promise<number> {
	const deadline = Date.now() + 30_000
	for (;;) {
		wakeMailWorker()
		const rows = await db().select({ to: outboxMail.toAddress, status: outboxMail.status }).from(outboxMail)
		const mine = rows.filter((row) => recipientKey(row.to) === recipientKey(victim))
		const inbox = smtp.received.filter((mail) => mail.envelope.to.some((to) => recipientKey(to) === recipientKey(victim)))
		if (mine.every((row) => row.status !== 'queued') && inbox.length === mine.length) return inbox.length
		if (Date.now() > deadline) throw new Error(`mails to ${victim} still queued`)
		await new Promise((resolve) => setTimeout(resolve, 100))
	}
}

function expectNeutral(answer: Outcome, what: string) {
	expect(answer.status, what).toBeLessThan(500)
	expect(answer.status, what).not.toBe(429)
}

describe(`the cap on mails to one address on ${databaseKind()}`, () => {
	it('holds across every path a visitor can make mail the victim, from many client addresses', async () => {
		const victim = victimAddress('toutes')
		const members = [
			await signUpConfirmed({ name: 'Membre Un', email: victimAddress('m1'), password: PASSWORD }),
			await signUpConfirmed({ name: 'Membre Deux', email: victimAddress('m2'), password: PASSWORD }),
		]
		// Rounds of every path, the way a script would loop: each answer stays what a person gets.
		for (let round = 0; round < 3; round++) {
			expectNeutral(await paths.landing(victim), 'landing')
			expectNeutral(await paths.signUpWithNewsletter(victim), 'sign-up')
			expectNeutral(await paths.signIn(victim), 'sign-in')
			expectNeutral(await paths.reset(victim), 'reset')
			expectNeutral(await paths.contact(victim), 'contact')
			expectNeutral(await emailChangeBy(members[round % 2]!, victim), 'e-mail change')
		}
		// Now on the list: the unsubscribe page mails its link.
		await db().update(newsletterSubscriber).set({ status: 'active' }).where(eq(newsletterSubscriber.email, victim))
		for (let round = 0; round < 3; round++) expectNeutral(await paths.unsubscribeLink(victim), 'unsubscribe link')

		const received = await receivedBy(victim)
		expect(received).toBeGreaterThan(0)
		expect(received).toBeLessThanOrEqual(CAP)
	})

	it('holds on each path by itself, « +tags » counted as the same inbox', async () => {
		const tries = 8
		const each = async (
			label: string,
			send: (email: string, attempt: number) => Promise<Outcome>,
			setUp?: (victim: string) => Promise<void>,
		) => {
			const victim = victimAddress(label)
			await setUp?.(victim)
			for (let attempt = 0; attempt < tries; attempt++) expectNeutral(await send(victim, attempt), label)
			const received = await receivedBy(victim)
			expect(received, label).toBeGreaterThan(0)
			expect(received, label).toBeLessThanOrEqual(CAP)
		}
		const tagged = (email: string, attempt: number) => email.replace('@', `+${attempt}@`)
		await each('landing', (email, attempt) => paths.landing(tagged(email, attempt)))
		await each('inscription', (email) => paths.signUpWithNewsletter(email))
		await each(
			'connexion',
			(email) => paths.signIn(email),
			async (victim) => void (await paths.signUpWithNewsletter(victim)),
		)
		await each(
			'desinscription',
			(email, attempt) => paths.unsubscribeLink(tagged(email, attempt)),
			async (victim) => {
				for (let attempt = 0; attempt < tries; attempt++) {
					await db()
						.insert(newsletterSubscriber)
						.values({
							id: randomUUID(),
							email: tagged(victim, attempt),
							status: 'active',
							source: 'landing',
							unsubscribeToken: randomUUID(),
						})
				}
			},
		)
		const member = await signUpConfirmed({ name: 'Membre Trois', email: victimAddress('m3'), password: PASSWORD })
		await each('changement', (email, attempt) => emailChangeBy(member, tagged(email, attempt)))
		// The contact form mails nobody but the band: the typed address gets nothing at all.
		const victim = victimAddress('contact')
		for (let attempt = 0; attempt < 5; attempt++) expectNeutral(await paths.contact(victim), 'contact')
		await receivedBy('groupe@exemple.fr')
		expect(
			await db()
				.select()
				.from(outboxMail)
				.where(inArray(outboxMail.toAddress, [victim])),
		).toHaveLength(0)
	})
})
