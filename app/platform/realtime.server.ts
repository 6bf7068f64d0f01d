import { sql } from 'drizzle-orm'
import pg from 'pg'
import type { Logger } from 'pino'
import { MEMBER_CHANGE_CHANNEL, TABLE_CHANGE_CHANNEL, type Database, type Db, type SignalChannel } from './db/client.server.ts'

/*
 * Live updates across every instance: Postgres LISTEN/NOTIFY, which PGlite has too, so one
 * mechanism serves one embedded process and N processes on one PostgreSQL.
 *
 * All topics share one database channel; a notification carries `{ t: topic, d: data }` and is fanned
 * out here to the listeners of that topic. Payloads are signals, not data (NOTIFY caps them near
 * 8 kB): "campaign 12 moved", "stats changed", and each listener reads what it needs.
 *
 * A notification sent inside a transaction is delivered only if it commits (Postgres semantics):
 * pass the transaction to `publish` to tie the signal to the write.
 *
 * The database's own triggers signal too (MEMBER_CHANGE_CHANNEL, TABLE_CHANGE_CHANNEL): their
 * signals reach the listeners of MEMBER_CHANGE_TOPIC and TABLE_CHANGE_TOPIC, the signal of a write
 * this process made before that write returns.
 */

const CHANNEL = 'band_realtime'
/** The members whose account, sessions, avatar or unlocked contents a committed statement changed: their ids, or '*' for all. */
export const MEMBER_CHANGE_TOPIC = 'member-change'
/** The name of a table a committed statement wrote (the tables with the triggers of drizzle/0016_newsletter_and_event_signals.sql). */
export const TABLE_CHANGE_TOPIC = 'table-change'
/** Largest payload accepted before sending (Postgres refuses above 8000 bytes). */
const MAX_PAYLOAD_BYTES = 7_000

export type Listener = (data: unknown) => void

export interface Realtime {
	/** Tells every instance (this one included) that something happened on `topic`. */
	publish(topic: string, data?: unknown, executor?: Pick<Db, 'execute'>): Promise<void>
	/** Calls `listener` for each message on `topic`, from any instance; returns the way to stop. */
	subscribe(topic: string, listener: Listener): () => void
	close(): Promise<void>
}

export async function startRealtime(database: Database, logger: Logger): Promise<Realtime> {
	const listeners = new Map<string, Set<Listener>>()
	const dispatch = (topic: string, data: unknown) => {
		for (const listener of listeners.get(topic) ?? []) {
			try {
				listener(data)
			} catch (error) {
				logger.error({ err: error, topic }, 'realtime listener failed')
			}
		}
	}
	const parse = (raw: string): unknown => {
		try {
			return JSON.parse(raw)
		} catch {
			return undefined
		}
	}
	const deliver = (raw: string) => {
		const message = parse(raw) as { t?: unknown; d?: unknown } | undefined
		if (typeof message?.t === 'string') dispatch(message.t, message.d)
	}
	const deliverMemberChange = (raw: string) => {
		const members = parse(raw)
		if (members !== undefined) dispatch(MEMBER_CHANGE_TOPIC, members)
	}
	const deliverTableChange = (table: string) => dispatch(TABLE_CHANGE_TOPIC, table)
	const deliverSignal = (channel: SignalChannel, payload: string) =>
		channel === MEMBER_CHANGE_CHANNEL ? deliverMemberChange(payload) : deliverTableChange(payload)

	let stop: () => Promise<void>
	if (database.kind === 'pglite') {
		// PGlite hands a committed statement's notifications to its listeners before the statement returns.
		const unlisten = [
			await database.pglite!.listen(CHANNEL, deliver),
			await database.pglite!.listen(MEMBER_CHANGE_CHANNEL, deliverMemberChange),
			await database.pglite!.listen(TABLE_CHANGE_CHANNEL, deliverTableChange),
		]
		stop = async () => {
			for (const one of unlisten) await one()
		}
	} else {
		const closeListener = await listenOnPostgres(
			database.url!,
			{ [CHANNEL]: deliver, [MEMBER_CHANGE_CHANNEL]: deliverMemberChange, [TABLE_CHANGE_CHANNEL]: deliverTableChange },
			logger,
		)
		const stopPooled = database.onPooledSignal?.(deliverSignal)
		stop = async () => {
			stopPooled?.()
			await closeListener()
		}
	}

	return {
		async publish(topic, data, executor = database.db) {
			const payload = JSON.stringify({ t: topic, d: data ?? null })
			if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) throw new Error(`realtime payload too large for topic ${topic}`)
			// The embedded database belongs to this process alone (docs/decisions/0003): a topic nobody
			// here listens to has no listener anywhere, and the statement would be work for nothing (the
			// page views' write every 2 s under traffic, for one, when no stats screen is open).
			if (database.kind === 'pglite' && !listeners.has(topic)) return
			await executor.execute(sql`select pg_notify(${CHANNEL}, ${payload})`)
		},
		subscribe(topic, listener) {
			let set = listeners.get(topic)
			if (!set) listeners.set(topic, (set = new Set()))
			set.add(listener)
			return () => {
				set.delete(listener)
				if (set.size === 0) listeners.delete(topic)
			}
		},
		async close() {
			listeners.clear()
			await stop().catch(() => {})
		},
	}
}

/**
 * One dedicated connection that LISTENs (a pooled one could be handed to someone else). When the
 * server closes it (a restart, a failover), it is opened again with a growing pause; notifications
 * sent meanwhile are lost, which listeners tolerate: they re-read state on the next signal.
 */
async function listenOnPostgres(
	url: string,
	channels: Record<string, (raw: string) => void>,
	logger: Logger,
): Promise<() => Promise<void>> {
	let client: pg.Client | null = null
	let closed = false
	let retryMs = 500
	let timer: NodeJS.Timeout | undefined

	const connect = async (): Promise<void> => {
		const next = new pg.Client({ connectionString: url })
		next.on('notification', (message) => {
			if (message.payload) channels[message.channel]?.(message.payload)
		})
		next.on('error', (error) => {
			logger.warn({ reason: error.message }, 'realtime connection lost; reconnecting')
			reconnect(next)
		})
		next.on('end', () => reconnect(next))
		await next.connect()
		for (const channel of Object.keys(channels)) await next.query(`LISTEN ${channel}`)
		client = next
		retryMs = 500
	}
	const reconnect = (failed: pg.Client) => {
		if (closed || client !== failed) return
		client = null
		failed.end().catch(() => {})
		const attempt = () => {
			timer = undefined
			if (closed) return
			connect().catch((error: Error) => {
				logger.warn({ reason: error.message, retryMs }, 'realtime reconnection failed')
				retryMs = Math.min(retryMs * 2, 30_000)
				timer = setTimeout(attempt, retryMs)
				timer.unref()
			})
		}
		timer = setTimeout(attempt, retryMs)
		timer.unref()
	}

	await connect()
	return async () => {
		closed = true
		if (timer) clearTimeout(timer)
		const current = client
		client = null
		await current?.end()
	}
}

/**
 * A Server-Sent Events response that lives as long as the browser keeps it open. `onOpen` gets a
 * `send` function and returns what to release when the connection closes (its subscriptions).
 * A comment line every 25 s keeps proxies from closing an idle stream.
 * @public for the live-update routes to come (the stats and setlist screens).
 */
export function eventStream(
	request: Request,
	onOpen: (send: (event: string, data: unknown) => void) => (() => void) | void,
	options: { heartbeatMs?: number } = {},
): Response {
	const encoder = new TextEncoder()
	let release: (() => void) | void
	let heartbeat: NodeJS.Timeout | undefined
	const body = new ReadableStream<Uint8Array>({
		start(controller) {
			let open = true
			const close = () => {
				if (!open) return
				open = false
				clearInterval(heartbeat)
				release?.()
				try {
					controller.close()
				} catch {
					// already closed by the reader
				}
			}
			const write = (text: string) => {
				if (!open) return
				try {
					controller.enqueue(encoder.encode(text))
				} catch {
					close()
				}
			}
			const send = (event: string, data: unknown) => write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
			write('retry: 3000\n\n')
			heartbeat = setInterval(() => write(': keep-alive\n\n'), options.heartbeatMs ?? 25_000)
			heartbeat.unref()
			release = onOpen(send)
			if (request.signal.aborted) close()
			else request.signal.addEventListener('abort', close, { once: true })
		},
		cancel() {
			clearInterval(heartbeat)
			release?.()
		},
	})
	return new Response(body, {
		headers: {
			'Content-Type': 'text/event-stream; charset=utf-8',
			'Cache-Control': 'no-store',
			'X-Accel-Buffering': 'no',
		},
	})
}
