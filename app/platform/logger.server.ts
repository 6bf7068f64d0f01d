import pino from 'pino'
import { getEnv } from './env.server.ts'

let instance: pino.Logger | undefined

export function getLogger(): pino.Logger {
	instance ??= pino({
		level: getEnv().LOG_LEVEL,
		base: undefined,
		redact: {
			paths: ['req.headers.cookie', 'req.headers.authorization', '*.password', '*.token'],
			censor: '[redacted]',
		},
	})
	return instance
}
