import { Readable } from 'node:stream'
import nodemailer from 'nodemailer'

/*
 * Many messages through a few pooled SMTP connections (nodemailer's public pooled transport), at a
 * chosen pace, for bulk mail (the newsletter). Unlike the outbox's transport, each message passes a
 * gate between its content and the final « . » that commits it at the relay: once the relay has
 * taken DATA and the transport has read the whole content, the caller records the message as sent,
 * in its own database, and only then does the content end and the relay get the « . ». A crash (or
 * a closed gate) before that leaves the message unsent at the relay (the connection dies before the
 * end of its data, which the relay discards) and unrecorded; a crash after it finds it recorded. So
 * a resumed send never mails anyone twice (docs/decisions/0024-newsletter-public-transport.md).
 */

export interface BulkMessage {
	from: string
	to: string
	/** The whole message (headers and body); built once a connection is free. */
	raw: () => Buffer | Promise<Buffer>
	/** The Message-ID the message carries: nodemailer reports it instead of making one up for each message. */
	messageId?: string
	/** Called once the transport has read the content and waits for its end: true commits, false abandons. */
	gate(): Promise<boolean>
	/** Asked once a connection is free: true drops the message unsent (its sender stopped meanwhile). */
	cancelled?: () => boolean
}

export type BulkOutcome =
	| { ok: true }
	/** `committed`: the gate had opened (the caller recorded the message as sent). */
	| { ok: false; permanent: boolean; committed: boolean; error: string }

export interface BulkSmtp {
	send(message: BulkMessage): Promise<BulkOutcome>
	close(): void
}

/** After this many messages a connection is closed and a fresh one opened (relays limit them). */
const MESSAGES_PER_CONNECTION = 100
export const ABANDONED = 'abandoned before commit'

interface Gate {
	/** The message's content as the transport reads it, ended only once the gate opened. */
	wrap(input: Readable): Readable
	/** Whether the gate opened, once it answered: false when it was never asked, closed, or failed. */
	committed(): Promise<boolean>
}

/**
 * A message's gate. nodemailer reads a message's bytes as soon as a connection takes it, before the
 * relay has answered the envelope; only the stream the connection sends (the one the transport's
 * `processFunc` returns) is read from the relay's « 354 » on. So the gate sits there: that stream
 * passes the content on as the connection asks for it, and asks the gate when the connection has
 * taken all of it and asks for more; it ends (and the « . » follows) only if the gate opens. A failed send waits for the gate's
 * answer before it is reported, so that the caller's failure record comes after its « sent » record,
 * never races it.
 */
function gateFor(message: BulkMessage): Gate {
	let opened: Promise<boolean> | null = null
	let failed = false
	return {
		wrap(input) {
			let ended = false
			// The connection asked for more and got nothing yet (a stream is asked again only after a push).
			let wanting = false
			let asked = false
			const ask = () => {
				if (asked) return
				asked = true
				if (failed) return output.destroy(new Error(ABANDONED))
				// The pool may hand a message to another connection; the gate is asked once.
				opened ??= message.gate()
				opened.then(
					(open) => (open ? output.push(null) : output.destroy(new Error(ABANDONED))),
					(error: Error) => output.destroy(error),
				)
			}
			const output = new Readable({
				read() {
					// All the content went and the connection asks for more: only the end is left.
					if (ended) return ask()
					wanting = true
					input.resume()
				},
				destroy(error, callback) {
					input.destroy()
					callback(error)
				},
			})
			// Paused first, so that attaching the reader does not start the flow: the connection starts it.
			input.pause()
			input.on('data', (chunk: Buffer) => {
				wanting = false
				if (!output.push(chunk)) input.pause()
			})
			input.once('error', (error) => output.destroy(error))
			input.once('end', () => {
				ended = true
				if (wanting) ask()
			})
			return output
		},
		async committed() {
			failed = true
			return opened ? opened.catch(() => false) : false
		},
	}
}

/** Splits sends over `connections` pooled connections, never faster than `ratePerSecond` in all. */
export function createBulkSmtp(options: { url: string; connections: number; ratePerSecond: number; name?: string }): BulkSmtp {
	const connections = Math.max(1, options.connections)
	const transport = nodemailer.createTransport({
		url: options.url,
		pool: true,
		maxConnections: connections,
		maxMessages: MESSAGES_PER_CONNECTION,
		name: options.name,
		connectionTimeout: 15_000,
		socketTimeout: 60_000,
	})
	// A connection the relay drops between messages is the pool's to replace; a message in flight
	// gets its own error from sendMail.
	transport.on('error', () => {})
	// Each message's gate, found by its bytes (the message nodemailer builds keeps the same buffer).
	const gates = new WeakMap<Buffer, Gate>()
	transport.use('stream', (mail, done) => {
		const gate = Buffer.isBuffer(mail.data.raw) ? gates.get(mail.data.raw) : undefined
		// Never a message without its gate: it would reach the relay unrecorded.
		if (!gate) return done(new Error('bulk message without its gate'))
		mail.message.processFunc((input) => gate.wrap(input))
		done()
	})
	let free = connections
	const waiting: (() => void)[] = []
	let closed = false
	let nextSlot = 0
	const interval = 1000 / options.ratePerSecond

	// At most one message per connection is handed to the pool, so that a message waits here, where a
	// stopped sender can still drop it unsent, rather than in the pool's queue.
	const acquire = () =>
		new Promise<void>((resolve) => {
			if (free > 0) {
				free--
				resolve()
			} else waiting.push(resolve)
		})
	const release = () => {
		const next = waiting.shift()
		if (next) next()
		else free++
	}
	const pace = async () => {
		const now = performance.now()
		const at = Math.max(now, nextSlot)
		nextSlot = at + interval
		if (at - now >= 1) await new Promise((resolve) => setTimeout(resolve, at - now))
	}

	return {
		async send(message) {
			if (closed) return { ok: false, permanent: false, committed: false, error: 'closed' }
			await acquire()
			try {
				if (message.cancelled?.()) return { ok: false, permanent: false, committed: false, error: ABANDONED }
				await pace()
				let raw = await message.raw()
				// One buffer, one message: a buffer already in flight is copied.
				if (gates.has(raw)) raw = Buffer.from(raw)
				const gate = gateFor(message)
				gates.set(raw, gate)
				try {
					// Resolved only after the relay's « 250 » for the « . » that followed the open gate.
					await transport.sendMail({ envelope: { from: message.from, to: [message.to] }, raw, messageId: message.messageId })
					return { ok: true }
				} catch (error) {
					// A message whose send failed is not sent, whatever the gate said: the caller undoes its
					// record (committed), once the record itself is done.
					const committed = await gate.committed()
					const { responseCode, message: text } = error as { responseCode?: number; message: string }
					const abandoned = !committed && text.includes(ABANDONED)
					return {
						ok: false,
						permanent: typeof responseCode === 'number' && responseCode >= 500,
						committed,
						error: abandoned ? ABANDONED : text.slice(0, 500),
					}
				}
			} finally {
				release()
			}
		},
		close() {
			closed = true
			transport.close()
		},
	}
}
