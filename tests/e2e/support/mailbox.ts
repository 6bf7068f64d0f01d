/*
 * A real SMTP server in the test process: the site sends its mails to it (SMTP_URL), and the tests
 * read them the way a member reads their inbox, following the links they carry.
 */
import { simpleParser } from 'mailparser'
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

export interface ReceivedMail {
	to: string[]
	subject: string
	text: string
	html: string
	headers: Map<string, unknown>
}

export interface Mailbox {
	url: string
	mails: ReceivedMail[]
	/** Waits for a mail to `to` that satisfies `accept` (already received or still to come). */
	waitFor(to: string, accept?: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>
	close(): Promise<void>
}

export async function startMailbox(): Promise<Mailbox> {
	const mails: ReceivedMail[] = []
	const listeners = new Set<() => void>()
	const server = new SMTPServer({
		authOptional: true,
		disabledCommands: ['STARTTLS', 'AUTH'],
		logger: false,
		closeTimeout: 2_000,
		size: 5 * 1024 * 1024,
		onData(stream, _session, callback) {
			simpleParser(stream).then(
				(parsed) => {
					const to = (Array.isArray(parsed.to) ? parsed.to : parsed.to ? [parsed.to] : []).flatMap((a) =>
						a.value.map((v) => (v.address ?? '').toLowerCase()),
					)
					mails.push({
						to,
						subject: parsed.subject ?? '',
						text: parsed.text ?? '',
						html: typeof parsed.html === 'string' ? parsed.html : '',
						headers: parsed.headers as Map<string, unknown>,
					})
					for (const listener of listeners) listener()
					callback()
				},
				(error: Error) => callback(error),
			)
		},
	})
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject)
		server.listen(0, '127.0.0.1', () => resolve())
	})
	const { port } = server.server.address() as AddressInfo

	return {
		url: `smtp://127.0.0.1:${port}`,
		mails,
		waitFor(to, accept = () => true, timeoutMs = 20_000) {
			const address = to.toLowerCase()
			const find = () => mails.find((mail) => mail.to.includes(address) && accept(mail))
			const found = find()
			if (found) return Promise.resolve(found)
			return new Promise((resolve, reject) => {
				const listener = () => {
					const mail = find()
					if (!mail) return
					clearTimeout(timer)
					listeners.delete(listener)
					resolve(mail)
				}
				const timer = setTimeout(() => {
					listeners.delete(listener)
					const seen = mails.map((m) => `${m.to.join(',')}: ${m.subject}`).join('\n  ')
					reject(new Error(`No mail to ${to} within ${timeoutMs} ms. Received:\n  ${seen || '(nothing)'}`))
				}, timeoutMs)
				listeners.add(listener)
			})
		},
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	}
}

/** The first link in the mail's text that points at the site (origin) and satisfies `accept`. */
export function linkIn(mail: ReceivedMail, origin: string, accept: (url: URL) => boolean = () => true): URL {
	const candidates = [...`${mail.text}\n${mail.html}`.matchAll(/https?:\/\/[^\s"'<>)\]]+/g)].map((m) => m[0].replace(/&amp;/g, '&'))
	for (const candidate of candidates) {
		try {
			const url = new URL(candidate)
			if (url.origin === origin && accept(url)) return url
		} catch {
			// not a URL after all
		}
	}
	throw new Error(`No link to ${origin} in the mail « ${mail.subject} »:\n${mail.text.slice(0, 2000)}`)
}
