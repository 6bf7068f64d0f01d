import { createRequire } from 'node:module'
import pino from 'pino'
import type PinoPretty from 'pino-pretty'

/**
 * Where the logs go, for the app and for the HTTP server alike. In a terminal, lines for a person
 * (time, level in colour, message, then the details as their own block: the first-admin link and
 * the mails written to the log stand out); elsewhere (a service manager, a container, a file), one
 * JSON object per line for a log collector. `format` (LOG_FORMAT) forces either.
 */
export function createLogger(options: pino.LoggerOptions, format: 'pretty' | 'json' | undefined): pino.Logger {
	const readable = format ? format === 'pretty' : Boolean(process.stdout.isTTY)
	if (!readable) return pino(options)
	// In-process (not a worker transport): lines come out in order and nothing is lost at exit. Loaded
	// only here: a server writing JSON (a service, a container) does not load it at start.
	const pretty = createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty
	return pino(options, pretty({ colorize: true, translateTime: 'SYS:HH:MM:ss', sync: true }))
}
