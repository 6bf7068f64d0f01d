import { Writable } from 'node:stream'
import { eq } from 'drizzle-orm'
import pino from 'pino'
import { createElement, Fragment } from 'react'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { outboxMail } from '#app/platform/db/schema.ts'
import { MailAction, MailLayout, MailParagraph } from '#app/platform/mail/layout.tsx'
import { createMailer, MAIL_QUEUE, type OutgoingMail } from '#app/platform/mail/mailer.server.ts'
import { mailIdentity } from '#app/platform/auth-emails.server.tsx'
import { startPlatformWorkers } from '#app/platform/platform.server.ts'
import * as signup from '#app/routes/auth/signup.tsx'
import { databaseKind } from '../support/database.ts'
import { startTestPlatform, type TestPlatform } from '../support/platform.ts'
import { formPost, outcome, routeArgs, SITE_URL } from '../support/requests.ts'
import { REJECTION, startTestSmtp, type ReceivedMail, type TestSmtp } from '../support/smtp.ts'

/*
 * The mail platform with real parts: the outbox table, pg-boss and its worker, Nodemailer over SMTP
 * to a real SMTP server in this process, and the mail read back with mailparser as a mail client
 * would. The relay's outages are played by that server (refusing, or not listening at all).
 */
const kind = databaseKind()

let smtp: TestSmtp
let env: TestPlatform
beforeAll(async () => {
	smtp = await startTestSmtp()
	env = await startTestPlatform({ env: { SMTP_URL: smtp.url } })
})
afterAll(async () => {
	await env?.stop()
	await smtp?.close()
})

const db = () => env.platform.database.db
const mailer = () => env.platform.mailer

async function outboxRow(id: string) {
	const [row] = await db().select().from(outboxMail).where(eq(outboxMail.id, id))
	if (!row) throw new Error(`no outbox row ${id}`)
	return row
}

/** Polls until `check` answers something truthy (the worker runs on its own schedule). */
function until<T>(what: string, check: () => Promise<T | undefined | null | false>, timeoutMs = 10_000): Promise<T> {
	return vi.waitFor(
		async () => {
			const value = await check()
			if (!value) throw new Error(`still waiting for ${what}`)
			return value
		},
		{ timeout: timeoutMs, interval: 50 },
	)
}

let workers: Promise<void> | undefined
/** Starts the platform's workers once, as the server does at start. */
function ensureWorkers() {
	workers ??= startPlatformWorkers(env.platform)
	return workers
}

/**
 * A mail worker may wait for its next poll (a retry coming due); wake it instead (pg-boss's own API) to keep the tests quick. A
 * wake-up that lands while the worker is between two fetches can be lost, so waits keep waking it.
 */
function wakeMailWorker() {
	void env.platform.jobs.boss().then((boss) => {
		for (const worker of boss.getWipData()) if (worker.name === MAIL_QUEUE) boss.notifyWorker(worker.id)
	})
}

/** Waits until the worker has done something with the outbox row that `check` accepts. */
function workedOn<T>(what: string, id: string, check: (row: Awaited<ReturnType<typeof outboxRow>>) => T | false) {
	return until(what, async () => {
		wakeMailWorker()
		return check(await outboxRow(id))
	})
}

/** Waits until the worker delivered a mail to `address`. */
function deliveredTo(address: string) {
	return until(`a mail to ${address}`, async () => {
		wakeMailWorker()
		return smtp.to(address)[0]
	})
}

async function mailJobs(id: string) {
	return (await env.platform.jobs.boss()).findJobs<{ id: string }>(MAIL_QUEUE, { key: id })
}

const TICKET_URL = `${SITE_URL}/concerts/lyon-2026?billet=A42`

function ticketMail(to: string): OutgoingMail {
	const identity = mailIdentity(env.platform.env)
	return {
		kind: 'test-ticket',
		origin: 'site',
		to,
		subject: `Votre place est réservée – ${env.platform.env.BAND_NAME}`,
		body: createElement(MailLayout, {
			identity,
			preview: 'Votre billet pour Lyon.',
			title: 'À très vite à Lyon !',
			// Without JSX here, the layout's required `children` is a prop like the others.
			// oxlint-disable-next-line react/no-children-prop
			children: createElement(
				Fragment,
				null,
				createElement(MailParagraph, null, 'Bonjour Zoé, votre place pour le concert du 14 février est réservée.'),
				createElement(MailAction, { identity, href: TICKET_URL, label: 'Voir mon billet' }),
			),
		}),
	}
}

async function send(to: string) {
	const result = await mailer().sendMail(ticketMail(to))
	expect(result).toEqual({ ok: true, id: expect.any(String) })
	if (!result.ok) throw new Error(result.error)
	return result.id
}

/** Every http(s) link of a received mail, in its HTML part and in its plain-text part. */
function links(mail: ReceivedMail) {
	const find = (text: string) => [...text.matchAll(/https?:\/\/[^\s"'<>\])]+/g)].map((m) => m[0].replaceAll('&amp;', '&'))
	return { html: find(typeof mail.parsed.html === 'string' ? mail.parsed.html : ''), text: find(mail.parsed.text ?? '') }
}

describe(`outbox mail over SMTP on ${kind}`, () => {
	it('writes the mail to the outbox first; once the workers run, it arrives over SMTP and is marked sent', async () => {
		const to = 'zoe@exemple.fr'
		const id = await send(to)

		const queued = await outboxRow(id)
		expect(queued).toMatchObject({ status: 'queued', attempts: 0, lastError: null, messageId: null, toAddress: to, kind: 'test-ticket' })
		expect(queued.html).toContain(TICKET_URL.replaceAll('&', '&amp;'))
		expect(queued.text).toContain(TICKET_URL)
		// No worker yet: the mail waits in the outbox, and its job in the queue.
		expect(await mailJobs(id)).toMatchObject([{ state: 'created', data: { id } }])
		expect(smtp.to(to)).toEqual([])

		await ensureWorkers()
		const mail = await deliveredTo(to)

		const { parsed } = mail
		expect(parsed.from?.value).toEqual([{ name: env.platform.env.BAND_NAME, address: 'ne-pas-repondre@localhost.localdomain' }])
		expect(mail.envelope).toEqual({ from: 'ne-pas-repondre@localhost.localdomain', to: [to] })
		expect(parsed.to && !Array.isArray(parsed.to) ? parsed.to.value : parsed.to).toEqual([{ name: '', address: to }])
		// The French subject, accents and dash included, survives the MIME encoding.
		expect(parsed.subject).toBe(`Votre place est réservée – ${env.platform.env.BAND_NAME}`)
		expect(mail.raw).toMatch(/^Content-Type: multipart\/alternative/im)
		expect(parsed.html).toEqual(expect.stringContaining('À très vite à Lyon !'))
		expect(parsed.text).toContain('votre place pour le concert du 14 février est réservée')
		expect(parsed.text).not.toMatch(/<[a-z]/i)
		expect(links(mail).html).toContain(TICKET_URL)
		expect(links(mail).text).toContain(TICKET_URL)

		const sent = await until('the outbox row to be marked sent', async () => {
			const row = await outboxRow(id)
			return row.status === 'sent' && row
		})
		expect(sent).toMatchObject({ attempts: 1, lastError: null, messageId: parsed.messageId })
		expect(sent.messageId).toMatch(/^<.+@.+>$/)
		expect(sent.sentAt).toBeInstanceOf(Date)
		// Sent once, and the job is done.
		expect(smtp.to(to)).toHaveLength(1)
		await until('the job to complete', async () => (await mailJobs(id)).every((job) => job.state === 'completed'))
	})

	it('wakes its resting worker itself: a mail sent later arrives without a nudge, long before the 30 s safety poll', async () => {
		await ensureWorkers()
		await until(
			'the workers to rest (no mail waiting)',
			async () => (await db().select().from(outboxMail).where(eq(outboxMail.status, 'queued'))).length === 0,
		)
		const to = 'sans-coup-de-pouce@exemple.fr'
		await send(to)
		// No wakeMailWorker() here: only what the application itself does when it sends.
		const mail = await until(`a mail to ${to}`, async () => smtp.to(to)[0], 10_000)
		expect(mail.envelope.to).toEqual([to])
	})

	describe('when the relay fails', () => {
		beforeAll(ensureWorkers)

		it('keeps a refused mail queued with the reason, retries later with backoff, and delivers it once the relay is back', async () => {
			const to = 'refus@exemple.fr'
			smtp.setMode('reject')
			try {
				const id = await send(to)
				const failed = await workedOn('a first, failed attempt', id, (row) => row.attempts >= 1 && row)
				expect(failed).toMatchObject({ status: 'queued', attempts: 1, messageId: null, sentAt: null })
				expect(failed.lastError).toContain('451')
				expect(failed.lastError).toContain(REJECTION)
				// Nothing lost: the content is still there for the next attempt.
				expect(failed.html).toContain('À très vite à Lyon !')
				expect(failed.text).toContain(TICKET_URL)

				// pg-boss holds the job for a retry, with the production delay (30 s, then longer).
				const [job] = await until('the job to wait for its retry', async () => {
					const jobs = await mailJobs(id)
					return jobs.length === 1 && jobs[0]!.state === 'retry' && jobs
				})
				expect(job).toMatchObject({ retryLimit: 12, retryDelay: 30, retryBackoff: true })
				expect(job!.startAfter.getTime()).toBeGreaterThan(Date.now() + 10_000)
				expect(smtp.to(to)).toEqual([])
				// The periodic sweep leaves it to that retry: it does not queue a second job for it.
				await mailer().sweep()
				expect(await mailJobs(id)).toHaveLength(1)

				// The relay is back; the next attempt (the worker's step, without waiting 30 s) delivers it.
				smtp.setMode('accept')
				await mailer().deliver(id, { isLast: false })
				expect(await outboxRow(id)).toMatchObject({ status: 'sent', attempts: 2, lastError: null })
				const mail = await smtp.waitFor(to)
				expect(links(mail).text).toContain(TICKET_URL)
				expect((await outboxRow(id)).messageId).toBe(mail.parsed.messageId)

				// The pending retry finds the mail sent and sends nothing more.
				await mailer().deliver(id, { isLast: false })
				expect(smtp.to(to)).toHaveLength(1)
				expect((await outboxRow(id)).attempts).toBe(2)
			} finally {
				smtp.setMode('accept')
			}
		})

		it('keeps the mail queued while the relay is down (connection refused), and sends it when it listens again', async () => {
			const to = 'panne@exemple.fr'
			await smtp.stop()
			let id: string
			try {
				id = await send(to)
				// The worker's attempt (woken by the job at once) throws for pg-boss to retry, and records why.
				// Not a second attempt by hand beside it: two deliveries of one mail at once is what the
				// single job per mail rules out.
				await workedOn('a first, refused attempt', id, (row) => row.attempts >= 1)
				const row = await outboxRow(id)
				expect(row).toMatchObject({ status: 'queued', attempts: 1, sentAt: null })
				expect(row.lastError).toMatch(/ECONNREFUSED|connect/i)
			} finally {
				await smtp.start()
			}
			await mailer().deliver(id, { isLast: false })
			expect(await outboxRow(id)).toMatchObject({ status: 'sent', attempts: 2, lastError: null })
			await smtp.waitFor(to)
			expect(smtp.to(to)).toHaveLength(1)
		})

		it('marks the mail failed, with the reason, when the last attempt fails too', async () => {
			const to = 'abandon@exemple.fr'
			smtp.setMode('reject')
			try {
				const id = await send(to)
				await workedOn('a first, failed attempt', id, (row) => row.attempts >= 1)
				// The last attempt does not throw: there is nothing left to retry.
				await expect(mailer().deliver(id, { isLast: true })).resolves.toBeUndefined()
				const row = await outboxRow(id)
				expect(row).toMatchObject({ status: 'failed', attempts: 2, sentAt: null, messageId: null })
				expect(row.lastError).toContain(REJECTION)
				// A failed mail is not picked up again.
				smtp.setMode('accept')
				await mailer().deliver(id, { isLast: false })
				expect(await outboxRow(id)).toMatchObject({ status: 'failed', attempts: 2 })
				expect(smtp.to(to)).toEqual([])
			} finally {
				smtp.setMode('accept')
			}
		})
	})

	it('without SMTP_URL, logs the mail and keeps it queued (the sweep has nothing to send) until a relay is configured', async () => {
		const lines: string[] = []
		const logger = pino(
			{ level: 'info' },
			new Writable({
				write(chunk, _encoding, done) {
					lines.push(String(chunk))
					done()
				},
			}),
		)
		const { database, jobs, limits } = env.platform
		const offline = createMailer({ db: database.db, jobs, env: { ...env.platform.env, SMTP_URL: undefined }, logger, limits })
		expect(offline.transport).toBeNull()

		const to = 'sans-relais@exemple.fr'
		const result = await offline.sendMail(ticketMail(to))
		expect(result).toEqual({ ok: true, id: expect.any(String) })
		const id = (result as { id: string }).id

		const logged = lines.map((line) => JSON.parse(line) as { msg: string; mail?: { id: string; to: string; text: string } })
		const entry = logged.find((line) => line.mail?.id === id)
		expect(entry?.msg).toBe(`mail (no SMTP_URL): Votre place est réservée – ${env.platform.env.BAND_NAME}`)
		expect(entry?.mail).toMatchObject({ to, kind: 'test-ticket' })
		// The whole text, link included, so that an operator without a relay can still act on it.
		expect(entry?.mail?.text).toContain(TICKET_URL)

		expect(await outboxRow(id)).toMatchObject({ status: 'queued', attempts: 0 })
		expect(await mailJobs(id)).toEqual([])
		expect(await offline.sweep()).toBe(0)
		await offline.deliver(id, { isLast: true })
		expect(await outboxRow(id)).toMatchObject({ status: 'queued', attempts: 0 })
		offline.close()

		// Once a relay is configured, the sweep queues what was waiting, and the worker sends it.
		await ensureWorkers()
		expect(await mailer().sweep()).toBe(1)
		expect(await mailJobs(id)).toHaveLength(1)
		const mail = await deliveredTo(to)
		expect(links(mail).text).toContain(TICKET_URL)
		await until('the waiting mail to be marked sent', async () => (await outboxRow(id)).status === 'sent')
	})

	it('sends the verification mail of a real sign-up over SMTP, with its link to /auth/claim', async () => {
		await ensureWorkers()
		const email = 'nouvelle@exemple.fr'
		const request = formPost('/auth/signup', { name: 'Léa Martin', email, password: 'cheval agrafe pile correcte', acceptPrivacy: 'on' })
		const result = await outcome(await signup.action(routeArgs(request, '/auth/signup')))
		expect(result.status).toBe(302)

		const mail = await deliveredTo(email)
		expect(mail.parsed.subject).toBe(`Confirmez votre adresse e-mail – ${env.platform.env.BAND_NAME}`)
		expect(mail.parsed.text).toContain('Bonjour Léa,')
		const link = links(mail).text.find((href) => href.includes('/auth/claim'))
		expect(link, 'a link to /auth/claim in the plain-text part').toBeDefined()
		const url = new URL(link!)
		expect(url.origin).toBe(SITE_URL)
		expect(url.pathname).toBe('/auth/claim')
		expect(url.searchParams.get('mode')).toBe('verifyEmail')
		expect(url.searchParams.get('token')).toMatch(/^[\w.-]{20,}$/)
		// The HTML part carries the same link (its button).
		expect(links(mail).html).toContain(link)

		const [row] = await db().select().from(outboxMail).where(eq(outboxMail.toAddress, email))
		await until('the verification mail to be marked sent', async () => (await outboxRow(row!.id)).status === 'sent')
	})
})
