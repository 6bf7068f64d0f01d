import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAIL_QUEUE } from '#app/platform/mail/mailer.server.ts'
import { contactMessage, contactReply, outboxMail, user } from '#app/platform/db/schema.ts'
import { startPlatformWorkers } from '#app/platform/platform.server.ts'
import * as contact from '#app/routes/public/contact.tsx'
import * as message from '#app/routes/admin/message.tsx'
import * as messages from '#app/routes/admin/messages.tsx'
import { databaseKind } from '../support/database.ts'
import { signUpConfirmed } from '../support/members.ts'
import { startTestPlatform, type TestPlatform } from '../support/platform.ts'
import { formPost, get, outcome, routeArgs, thrown } from '../support/requests.ts'
import { startTestSmtp, type ReceivedMail, type TestSmtp } from '../support/smtp.ts'

/*
 * The contact form and the admin's inbox, through their real route modules on a real database,
 * with the mails read back from a real SMTP server: stored first, mailed through the outbox, and
 * nothing lost when the relay is down.
 */
const kind = databaseKind()
const BAND_ADDRESS = 'groupe@exemple.fr'
const PASSWORD = 'cheval agrafe pile correcte'

let smtp: TestSmtp
let env: TestPlatform
beforeAll(async () => {
	smtp = await startTestSmtp()
	env = await startTestPlatform({ env: { SMTP_URL: smtp.url, CONTACT_EMAIL: BAND_ADDRESS } })
	await startPlatformWorkers(env.platform)
})
afterAll(async () => {
	await env?.stop()
	await smtp?.close()
})

const db = () => env.platform.database.db

function wakeMailWorker() {
	void env.platform.jobs.boss().then((boss) => {
		for (const worker of boss.getWipData()) if (worker.name === MAIL_QUEUE) boss.notifyWorker(worker.id)
	})
}

async function until<T>(what: string, check: () => Promise<T | undefined | null | false>, timeoutMs = 15_000): Promise<T> {
	const deadline = Date.now() + timeoutMs
	for (;;) {
		wakeMailWorker()
		const value = await check()
		if (value) return value
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
		await new Promise((resolve) => setTimeout(resolve, 50))
	}
}

/** Waits for a mail the worker delivers to `address`, waking the worker meanwhile (it polls every 2 s). */
function delivered(address: string, accept: (mail: ReceivedMail) => boolean = () => true) {
	return until(`a mail to ${address}`, async () => smtp.to(address).find(accept))
}

function form(overrides: Record<string, string> = {}) {
	return {
		name: 'Camille Martin',
		email: `camille-${randomUUID().slice(0, 8)}@exemple.fr`,
		subject: 'booking',
		message: 'Bonjour, nous aimerions vous programmer au festival en juillet. Êtes-vous disponibles ?',
		website: '',
		...overrides,
	}
}

async function post(fields: Record<string, string>, clientAddress?: string) {
	return outcome(await contact.action(routeArgs(formPost('/contact', fields, { clientAddress }), '/contact')))
}

interface Reply {
	error?: Record<string, string[] | null> | null
	initialValue?: Record<string, unknown> | null
}
const replyOf = (result: { body: unknown }) => (result.body as { result: Reply }).result

async function storedFrom(email: string) {
	return db().select().from(contactMessage).where(eq(contactMessage.email, email))
}

let counter = 0
async function admin(): Promise<string> {
	counter += 1
	const email = `regie${counter}-${randomUUID().slice(0, 8)}@exemple.fr`
	const cookie = await signUpConfirmed({ name: 'Régie', email, password: PASSWORD })
	await db().update(user).set({ role: 'admin' }).where(eq(user.email, email))
	return cookie
}

describe(`contact on ${kind}`, () => {
	it('stores the message and mails it to the band (Reply-To: the sender), and nothing to the typed address', async () => {
		const fields = form()
		const result = await post(fields)
		expect(result.status).toBe(200)
		expect(result.body).toMatchObject({ sent: true })
		const [row] = await storedFrom(fields.email)
		expect(row).toMatchObject({ name: 'Camille Martin', subject: 'booking', status: 'unread', body: fields.message })
		const toBand = await delivered(BAND_ADDRESS, (mail) => mail.parsed.replyTo?.text === fields.email)
		expect(toBand.parsed.subject).toBe('[Contact · Booking] Camille Martin')
		expect(toBand.parsed.text).toContain('nous aimerions vous programmer')
		// The typed address proved nothing: a copy of the visitor's text there would make the form a
		// relay for anyone's message to anybody. A mail is in the outbox before the form answers.
		expect(await db().select().from(outboxMail).where(eq(outboxMail.toAddress, fields.email))).toHaveLength(0)
		expect(smtp.to(fields.email)).toHaveLength(0)
	})

	it('loses nothing while the relay is down: the message is stored, and mailed once the relay returns', async () => {
		const fields = form({ subject: 'presse', message: 'Demande d’interview pendant la panne du relais.' })
		await smtp.stop()
		try {
			const result = await post(fields)
			expect(result.body).toMatchObject({ sent: true })
			const [row] = await storedFrom(fields.email)
			expect(row?.notifyMailId).toBeTruthy()
			// The worker tries, fails on the closed port, and keeps the mail queued with the reason.
			const failed = await until('a failed attempt', async () => {
				const [mail] = await db().select().from(outboxMail).where(eq(outboxMail.id, row!.notifyMailId!))
				return mail && mail.attempts >= 1 && mail
			})
			expect(failed).toMatchObject({ status: 'queued', sentAt: null })
			expect(failed.lastError).toMatch(/ECONNREFUSED|connect/i)
			expect(smtp.to(BAND_ADDRESS).some((mail) => mail.parsed.replyTo?.text === fields.email)).toBe(false)
		} finally {
			await smtp.start()
		}
		// The relay is back: the queued mail goes out (the worker's next step, without waiting for the backoff).
		const [row] = await storedFrom(fields.email)
		await env.platform.mailer.deliver(row!.notifyMailId!, { isLast: false })
		const mail = await smtp.waitFor(BAND_ADDRESS, (m) => m.parsed.replyTo?.text === fields.email)
		expect(mail.parsed.text).toContain('pendant la panne du relais')
		const [sent] = await db().select().from(outboxMail).where(eq(outboxMail.id, row!.notifyMailId!))
		expect(sent?.status).toBe('sent')
	})

	it('refuses bad input in French, keeping what was typed, and stores nothing', async () => {
		const huge = form({ message: 'x'.repeat(100_000) })
		const tooLong = await post(huge)
		expect(tooLong.status).toBe(400)
		expect(replyOf(tooLong).error?.message?.[0]).toMatch(/trop long/)
		expect(replyOf(tooLong).initialValue).toMatchObject({ name: 'Camille Martin', email: huge.email })

		const injected = form({ subject: 'booking\r\nBcc: victime@exemple.fr' })
		const refused = await post(injected)
		expect(refused.status).toBe(400)
		expect(replyOf(refused).error?.subject?.[0]).toBe('Choisissez l’objet de votre message.')

		const forgedName = form({ name: 'Camille\r\nBcc: victime@exemple.fr' })
		const refusedName = await post(forgedName)
		expect(refusedName.status).toBe(400)
		expect(replyOf(refusedName).error?.name?.[0]).toBe('Le nom doit tenir sur une seule ligne.')

		for (const fields of [huge, injected, forgedName]) expect(await storedFrom(fields.email)).toEqual([])
	})

	it('answers a bot that fills the honeypot like a person, and keeps nothing', async () => {
		const fields = form({ website: 'https://spam.example' })
		const result = await post(fields)
		expect(result.body).toMatchObject({ sent: true })
		expect(await storedFrom(fields.email)).toEqual([])
	})

	it('stops a client that posts again and again, in French, with Retry-After', async () => {
		const address = '198.19.7.7'
		const results = []
		for (let i = 0; i < 7; i++) results.push(await post(form(), address))
		expect(results.slice(0, 5).every((r) => r.status === 200)).toBe(true)
		const limited = results[5]!
		expect(limited.status).toBe(429)
		expect(limited.headers.get('Retry-After')).toMatch(/^\d+$/)
		expect((limited.body as { result: { error: Record<string, string[]> } }).result.error['']?.[0]).toMatch(/Réessayez dans/)
		// Another client is not affected.
		expect((await post(form(), '198.19.7.8')).status).toBe(200)
	})
})

describe(`the admin's messages on ${kind}`, () => {
	it('lists with the unread count, opens (marks read), replies through the outbox into the thread, reopens, deletes', async () => {
		const cookie = await admin()
		const fields = form({ name: 'Lou Presse', subject: 'presse', message: 'Pouvons-nous faire une interview avant le concert ?' })
		await post(fields)
		const [stored] = await storedFrom(fields.email)
		const id = stored!.id

		const list = await outcome(await messages.loader(routeArgs(get('/dashboard/admin/messages', { cookie }), '/dashboard/admin/messages')))
		const body = list.body as { counts: { unread: number }; messages: { id: string; status: string }[] }
		expect(body.counts.unread).toBeGreaterThanOrEqual(1)
		expect(body.messages.find((m) => m.id === id)?.status).toBe('unread')

		const path = `/dashboard/admin/messages/${id}`
		const opened = await outcome(await message.loader(routeArgs(get(path, { cookie }), path, { messageId: id })))
		expect(opened.body).toMatchObject({ message: { id, status: 'read', body: fields.message, notifyStatus: expect.any(String) } })

		// An empty reply is refused in French; a real one is mailed and kept in the thread.
		const empty = await outcome(
			await message.action(routeArgs(formPost(path, { intent: 'reply', reply: '  ' }, { cookie }), path, { messageId: id })),
		)
		expect(empty.status).toBe(400)
		expect(replyOf(empty).error?.reply?.[0]).toBe('Écrivez votre réponse.')
		const replied = await outcome(
			await message.action(
				routeArgs(formPost(path, { intent: 'reply', reply: 'Avec plaisir, appelez-nous mardi.' }, { cookie }), path, { messageId: id }),
			),
		)
		expect(replied.status).toBe(302)
		const mail = await delivered(fields.email, (m) => m.parsed.text?.includes('appelez-nous mardi') ?? false)
		expect(mail.parsed.text).toContain('Pouvons-nous faire une interview')
		const thread = await db().select().from(contactReply).where(eq(contactReply.messageId, id))
		expect(thread).toHaveLength(1)
		expect((await storedFrom(fields.email))[0]?.status).toBe('handled')

		const reopened = await outcome(
			await message.action(routeArgs(formPost(path, { intent: 'reopen' }, { cookie }), path, { messageId: id })),
		)
		expect(reopened.status).toBe(302)
		expect((await storedFrom(fields.email))[0]?.status).toBe('read')

		const deleted = await outcome(
			await message.action(routeArgs(formPost(path, { intent: 'delete' }, { cookie }), path, { messageId: id })),
		)
		expect(deleted.status).toBe(302)
		expect(await storedFrom(fields.email)).toEqual([])
		expect(await db().select().from(contactReply).where(eq(contactReply.messageId, id))).toEqual([])
	})

	it('gives a member a 403 and no message, on every loader and action', async () => {
		const email = `membre-${randomUUID().slice(0, 8)}@exemple.fr`
		const cookie = await signUpConfirmed({ name: 'Membre', email, password: PASSWORD })
		const fields = form()
		await post(fields)
		const [stored] = await storedFrom(fields.email)
		const path = `/dashboard/admin/messages/${stored!.id}`
		expect(
			(await thrown(() => messages.loader(routeArgs(get('/dashboard/admin/messages', { cookie }), '/dashboard/admin/messages')))).status,
		).toBe(403)
		expect((await thrown(() => message.loader(routeArgs(get(path, { cookie }), path, { messageId: stored!.id })))).status).toBe(403)
		const action = await thrown(() =>
			message.action(routeArgs(formPost(path, { intent: 'delete' }, { cookie }), path, { messageId: stored!.id })),
		)
		expect(action.status).toBe(403)
		expect(await storedFrom(fields.email)).toHaveLength(1)
	})
})
