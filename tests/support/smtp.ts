/*
 * A real SMTP server in the test process, for the mail platform's integration tests: it receives
 * what the site's Nodemailer transport sends, parses it with mailparser, and can play an outage —
 * refuse every mail with a temporary error, or stop listening altogether and come back on the
 * same port. For the crash tests it also tells which messages a dying sender cut mid-DATA, and can
 * leave one message unanswered.
 */
import type { AddressInfo } from 'node:net'
import { simpleParser, type ParsedMail } from 'mailparser'
import { SMTPServer } from 'smtp-server'

export interface ReceivedMail {
	/** The SMTP envelope (MAIL FROM, RCPT TO), lower-cased. */
	envelope: { from: string; to: string[] }
	/** The message as it came over the wire. */
	raw: string
	parsed: ParsedMail
}

export interface TestSmtp {
	/** What SMTP_URL must be for the site to send here. */
	url: string
	received: ReceivedMail[]
	/**
	 * `reject`: every mail is refused with a temporary failure (451) at MAIL FROM, as a relay in
	 * trouble does; `reject-data`: the same, but only once the whole message came (after its « . »).
	 */
	setMode(mode: 'accept' | 'reject' | 'reject-data'): void
	/** Refuses every mail to `address` at RCPT TO with `code` (e.g. 550: no such mailbox), or accepts it again (null). */
	refuse(address: string, code: number | null): void
	/** Waits this long after a message's end before accepting it (a busy relay), 0 by default. */
	setDelay(ms: number): void
	/**
	 * Messages whose connection closed before their end of data (a sender that died mid-DATA): a
	 * relay discards them. Each with its recipients, in the order the connections closed.
	 */
	cut: { to: string[] }[]
	/** The recipients of the messages being received now (DATA begun, its end not come yet). */
	receiving(): string[]
	/**
	 * The next message whose end arrives is received (it counts in `received`, as a relay delivers a
	 * message it has whole) but never answered: no « 250 » while its connection lives. Resolves with
	 * its recipients.
	 */
	holdNextReply(): Promise<string[]>
	/** Stops listening: connections are refused until `start()`. */
	stop(): Promise<void>
	/** Listens again, on the same port. */
	start(): Promise<void>
	/** The mails received so far for that recipient. */
	to(address: string): ReceivedMail[]
	/** Waits for a mail to `address` that satisfies `accept` (already received or still to come). */
	waitFor(address: string, accept?: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>
	close(): Promise<void>
}

export const REJECTION = 'Relais en maintenance, réessayez plus tard'

export async function startTestSmtp(): Promise<TestSmtp> {
	const received: ReceivedMail[] = []
	const listeners = new Set<() => void>()
	let mode: 'accept' | 'reject' | 'reject-data' = 'accept'
	const refusals = new Map<string, number>()
	let delay = 0
	const cut: { to: string[] }[] = []
	const receiving = new Set<string[]>()
	let holdNext: ((to: string[]) => void) | null = null

	const create = () => {
		const instance = new SMTPServer({
			authOptional: true,
			// Plain SMTP on loopback: no STARTTLS (its self-signed certificate would be refused).
			disabledCommands: ['STARTTLS', 'AUTH'],
			logger: false,
			closeTimeout: 200,
			onMailFrom(_address, _session, callback) {
				if (mode === 'reject') {
					callback(Object.assign(new Error(REJECTION), { responseCode: 451 }))
					return
				}
				callback()
			},
			onRcptTo(address, _session, callback) {
				const code = refusals.get(address.address.toLowerCase())
				if (code) {
					callback(Object.assign(new Error(code >= 500 ? 'Boîte aux lettres inconnue' : REJECTION), { responseCode: code }))
					return
				}
				callback()
			},
			onData(stream, session, callback) {
				const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase())
				receiving.add(to)
				const chunks: Buffer[] = []
				stream.on('data', (chunk: Buffer) => chunks.push(chunk))
				stream.on('error', (error) => {
					// The connection closed mid-message: nothing of it is kept.
					if (receiving.delete(to)) cut.push({ to })
					callback(error)
				})
				stream.on('end', () => {
					receiving.delete(to)
					if (mode === 'reject-data') {
						callback(Object.assign(new Error(REJECTION), { responseCode: 451 }))
						return
					}
					const hold = holdNext
					holdNext = null
					const raw = Buffer.concat(chunks).toString('utf8')
					const parsing = simpleParser(raw)
					const accept =
						delay > 0
							? parsing.then((parsed) => new Promise<typeof parsed>((resolve) => setTimeout(() => resolve(parsed), delay)))
							: parsing
					accept.then(
						(parsed) => {
							const envelopeFrom = session.envelope.mailFrom
							received.push({ envelope: { from: envelopeFrom ? envelopeFrom.address.toLowerCase() : '', to }, raw, parsed })
							if (hold) hold(to)
							else callback()
							for (const listener of listeners) listener()
						},
						(error: Error) => callback(error),
					)
				})
			},
		})
		// A client that dies mid-session (a sender killed with kill -9) resets its connection: the relay
		// drops that session, as a real one does. Anything else still fails the test.
		instance.on('error', (error: NodeJS.ErrnoException) => {
			if (error.code === 'ECONNRESET' || error.code === 'EPIPE') return
			if (instance.listenerCount('error') === 1) throw error
		})
		return instance
	}

	let server = create()
	const listen = (port: number) =>
		new Promise<void>((resolve, reject) => {
			server.once('error', reject)
			server.listen(port, '127.0.0.1', () => {
				server.off('error', reject)
				resolve()
			})
		})
	await listen(0)
	const { port } = server.server.address() as AddressInfo
	let listening = true

	const stop = async () => {
		if (!listening) return
		listening = false
		await new Promise<void>((resolve) => server.close(() => resolve()))
	}

	const toAddress = (address: string) => received.filter((mail) => mail.envelope.to.includes(address.toLowerCase()))

	return {
		url: `smtp://127.0.0.1:${port}`,
		received,
		setMode(next) {
			mode = next
		},
		setDelay(ms) {
			delay = ms
		},
		cut,
		receiving: () => [...receiving].flat(),
		holdNextReply: () => new Promise((resolve) => (holdNext = resolve)),
		refuse(address, code) {
			if (code === null) refusals.delete(address.toLowerCase())
			else refusals.set(address.toLowerCase(), code)
		},
		stop,
		async start() {
			if (listening) return
			server = create()
			await listen(port)
			listening = true
		},
		to: toAddress,
		waitFor(address, accept = () => true, timeoutMs = 15_000) {
			const find = () => toAddress(address).find(accept)
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
					const seen = received.map((m) => `${m.envelope.to.join(',')}: ${m.parsed.subject}`).join('\n  ')
					reject(new Error(`No mail to ${address} within ${timeoutMs} ms. Received:\n  ${seen || '(nothing)'}`))
				}, timeoutMs)
				listeners.add(listener)
			})
		},
		close: stop,
	}
}
