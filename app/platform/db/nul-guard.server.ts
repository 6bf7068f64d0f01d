import type { Logger } from 'drizzle-orm/logger'
import { httpError } from '../http-error.ts'
import { unsafeTextMessage } from '../text-field.ts'

/*
 * The last line behind textField() (app/platform/text-field.ts): PostgreSQL refuses a NUL byte in
 * any text (« invalid byte sequence »), which would end a request in a 500. Drizzle hands every
 * statement's parameters to its logger before it sends them, so this one refuses the statement
 * there: the request gets a 400 with the French reason, the transaction rolls back, and nothing
 * reaches the database. It costs a scan of the parameters already in memory.
 */
function holdsNul(value: unknown): boolean {
	if (typeof value === 'string') return value.includes('\u0000')
	if (Array.isArray(value)) return value.some(holdsNul)
	return false
}

export const nulGuard: Logger = {
	logQuery(_query, params) {
		if (params.some(holdsNul)) throw httpError(400, { error: unsafeTextMessage() })
	},
}
