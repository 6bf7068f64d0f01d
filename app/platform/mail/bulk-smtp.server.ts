import { Readable } from 'node:stream'
import nodemailer from 'nodemailer'

/*
 * Many messages through a few pooled SMTP connections (nodemailer's public pooled transport), at a
 * chosen pace, for bulk mail (the newsletter). Unlike the outbox's transport, each message passes a
 * gate between its content and the final « . » that commits it at the relay: the message is handed
 * to the transport as a stream whose end waits for the gate. The caller records the message as sent
 * there, in its own database, and only then does the stream end and the relay get the « . ». A crash
 * (or a closed gate) before that leaves the message unsent at the relay (the connection dies mid-DATA,
 * which the relay discards) and unrecorded; a crash after it finds it recorded. So a resumed send
 * never mails anyone twice.
 */

export interface BulkMessage {
	from: string
	to: string
	/** The whole message (headers and body), as the relay will store it; built once a connection is free. */
	raw: () => Buffer
	/** Called once the relay has the content and waits for the end: true commits, false abandons. */
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
const ABANDONED = 'abandoned before commit'

/** The message's bytes, then (once they are read) the gate; the stream ends only if the gate opens. */
function gatedStream(message: BulkMessage, onCommit: () => void): Readable {
	let stage = 0
	return new Readable({
		read() {
			if (stage === 0) {
				stage = 1
				this.push(message.raw())
			} else if (stage === 1) {
				stage = 2
				message.gate().then(
					(open) => {
						if (!open) return this.destroy(new Error(ABANDONED))
						onCommit()
						this.push(null)
					},
					(error: Error) => this.destroy(error),
				)
			}
		},
	})
}

/** Splits sends over `connections` lanes, never faster than `ratePerSecond` in all. */
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
	// A connection the relay drops between messages is the pool's to replace; nothing to report here.
	transport.on('error', () => {})
	let free = connections
	const waiting: (() => void)[] = []
	let closed = false
	let nextSlot = 0
	const interval = 1000 / options.ratePerSecond

	// At most one message per connection is handed to the pool, so that a message waits here, where
	// a stopped sender can still drop it unsent, rather than in the pool's queue.
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
			let committed = false
			try {
				if (message.cancelled?.()) return { ok: false, permanent: false, committed: false, error: ABANDONED }
				await pace()
				await transport.sendMail({
					envelope: { from: message.from, to: [message.to] },
					raw: gatedStream(message, () => (committed = true)),
				})
				return { ok: true }
			} catch (error) {
				const { responseCode, message: text } = error as { responseCode?: number; message: string }
				const abandoned = !committed && text.includes(ABANDONED)
				return {
					ok: false,
					permanent: typeof responseCode === 'number' && responseCode >= 500,
					committed,
					error: abandoned ? ABANDONED : text.slice(0, 500),
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
