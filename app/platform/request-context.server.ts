import { AsyncLocalStorage } from 'node:async_hooks'
import { randomToken } from './random-token.server.ts'

/*
 * The request being served, for every log line written while serving it (pino's mixin, see
 * logger.server.ts) and for the reference on the error page. The HTTP server (server/index.ts)
 * and the app's build are two module graphs in one process, so the store hangs on a global
 * symbol: both sides see the same one.
 */

interface RequestContext {
	requestId: string
}

const KEY = Symbol.for('band-site.request-context')
const holder = globalThis as typeof globalThis & { [KEY]?: AsyncLocalStorage<RequestContext> }
const storage = (holder[KEY] ??= new AsyncLocalStorage<RequestContext>())

/** A new id: 16 URL-safe characters (96 random bits). */
export function newRequestId(): string {
	return randomToken(12)
}

/** What a proxy may hand us as its own id: short, printable, nothing that could break a log line or a header. */
export function isAcceptableRequestId(value: unknown): value is string {
	return typeof value === 'string' && /^[A-Za-z0-9._:-]{8,64}$/.test(value)
}

export function runWithRequestId<T>(requestId: string, run: () => T): T {
	return storage.run({ requestId }, run)
}

export function currentRequestId(): string | undefined {
	return storage.getStore()?.requestId
}
