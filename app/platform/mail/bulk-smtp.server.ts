import { Readable, type Transform, type TransformCallback } from 'node:stream'
import { parseConnectionUrl } from 'nodemailer/lib/shared'
import SMTPConnection from 'nodemailer/lib/smtp-connection'

/*
 * Many messages through a few pooled SMTP connections, at a chosen pace, for bulk mail (the
 * newsletter). Unlike the outbox's transport, each message passes a gate between its content and the
 * final « . » that commits it at the relay: the caller records the message as sent there, in its own
 * database, and only then is the message committed. A crash before the gate leaves the message
 * unsent at the relay (the connection dies mid-DATA, which the relay discards) and unrecorded; a
 * crash after it finds it recorded. So a resumed send never mails anyone twice.
 */

export interface BulkMessage {
	from: string
	to: string
	/** The whole message (headers and body), as the relay will store it; built once a connection is free. */
	raw: () => Buffer
	/** Its line ends are all CRLF already (the caller's promise): see SendingConnection. */
	crlf?: boolean
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

/** A stream's bytes, passed on unchanged and counted as nodemailer's send stream counts them. */
function passOn(
	this: Transform & { inByteCount: number; outByteCount: number; lastByte: number | false },
	chunk: Buffer,
	_encoding: BufferEncoding,
	done: TransformCallback,
) {
	this.inByteCount += chunk.length
	this.outByteCount += chunk.length
	this.lastByte = chunk[chunk.length - 1] ?? this.lastByte
	this.push(chunk)
	done()
}

const LF_DOT = Buffer.from('\n.')
type SendStreamFactory = (this: SMTPConnection, callback: unknown) => Transform
const createSendStream = (SMTPConnection.prototype as unknown as { _createSendStream?: SendStreamFactory })._createSendStream

/**
 * nodemailer's connection rewrites every message byte by byte on its way to the socket (line ends
 * made CRLF, a line's leading dot doubled), in JavaScript: a tenth of a millisecond for a 14 kB
 * newsletter, a sixth of what the sender spent on each before this. A message with nothing to rewrite (CRLF line
 * ends, as its builder promises, and no line starting with a dot, which one native search of its
 * bytes tells) skips that pass: its bytes go on as they are, and the stream still ends them with the
 * final « . ». Anything else, or a nodemailer without this (private) stream factory, goes the usual
 * way, which gives the same bytes on the wire.
 */
class SendingConnection extends SMTPConnection {
	/** The message about to be sent has nothing to rewrite. */
	asIs = false

	static canSendAsIs(message: BulkMessage, raw: Buffer): boolean {
		return Boolean(message.crlf && createSendStream && raw[0] !== 0x2e && raw.indexOf(LF_DOT) === -1)
	}

	_createSendStream(callback: unknown): Transform {
		const stream = createSendStream!.call(this, callback)
		if (this.asIs) stream._transform = passOn as Transform['_transform']
		return stream
	}
}

/** After this many messages a connection is closed and a fresh one opened (relays limit them). */
const MESSAGES_PER_CONNECTION = 100

/** Splits sends over `connections` lanes, never faster than `ratePerSecond` in all. */
export function createBulkSmtp(options: { url: string; connections: number; ratePerSecond: number; name?: string }): BulkSmtp {
	const connectionOptions = { ...parseConnectionUrl(options.url), name: options.name, connectionTimeout: 15_000, socketTimeout: 60_000 }
	const idle: Lane[] = []
	const waiting: ((lane: Lane) => void)[] = []
	let closed = false
	let nextSlot = 0
	const interval = 1000 / options.ratePerSecond

	interface Lane {
		connection: SendingConnection | null
		sent: number
	}
	for (let i = 0; i < Math.max(1, options.connections); i++) idle.push({ connection: null, sent: 0 })

	const acquire = () =>
		new Promise<Lane>((resolve) => {
			const lane = idle.pop()
			if (lane) resolve(lane)
			else waiting.push(resolve)
		})
	const release = (lane: Lane) => {
		const next = waiting.shift()
		if (next) next(lane)
		else idle.push(lane)
	}
	const pace = async () => {
		const now = performance.now()
		const at = Math.max(now, nextSlot)
		nextSlot = at + interval
		if (at - now >= 1) await new Promise((resolve) => setTimeout(resolve, at - now))
	}
	const drop = (lane: Lane) => {
		const connection = lane.connection
		lane.connection = null
		lane.sent = 0
		if (connection) {
			try {
				connection.close()
			} catch {
				// already closed
			}
		}
	}
	const open = (lane: Lane) =>
		new Promise<SendingConnection>((resolve, reject) => {
			const connection = new SendingConnection(connectionOptions)
			// A dropped connection reports here too; the send in progress gets its own error.
			connection.on('error', () => {})
			connection.on('end', () => {
				if (lane.connection === connection) lane.connection = null
			})
			connection.connect((error) => {
				if (error) return reject(error)
				if (!connectionOptions.auth) {
					lane.connection = connection
					return resolve(connection)
				}
				connection.login(connectionOptions.auth as never, (loginError) => {
					if (loginError) return reject(loginError)
					lane.connection = connection
					resolve(connection)
				})
			})
		})

	return {
		async send(message) {
			if (closed) return { ok: false, permanent: false, committed: false, error: 'closed' }
			const lane = await acquire()
			if (message.cancelled?.()) {
				release(lane)
				return { ok: false, permanent: false, committed: false, error: 'abandoned before commit' }
			}
			let committed = false
			try {
				await pace()
				if (lane.sent >= MESSAGES_PER_CONNECTION) drop(lane)
				const connection = lane.connection ?? (await open(lane))
				lane.sent++
				const raw = message.raw()
				connection.asIs = SendingConnection.canSendAsIs(message, raw)
				await new Promise<void>((resolve, reject) => {
					let stage = 0
					const stream = new Readable({
						read() {
							if (stage === 0) {
								stage = 1
								this.push(raw)
							} else if (stage === 1) {
								stage = 2
								message.gate().then(
									(open) => {
										if (!open) return this.destroy(new Error('abandoned before commit'))
										committed = true
										this.push(null)
									},
									(error: Error) => this.destroy(error),
								)
							}
						},
					})
					connection.send({ from: message.from, to: [message.to] }, stream, (error) => (error ? reject(error) : resolve()))
				})
				return { ok: true }
			} catch (error) {
				// The connection's state is unknown after any failure: a fresh one for the next message.
				drop(lane)
				const { responseCode, message: text } = error as { responseCode?: number; message: string }
				return { ok: false, permanent: typeof responseCode === 'number' && responseCode >= 500, committed, error: text.slice(0, 500) }
			} finally {
				release(lane)
			}
		},
		close() {
			closed = true
			for (const lane of idle) drop(lane)
		},
	}
}
