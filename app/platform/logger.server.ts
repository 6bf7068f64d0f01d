import type pino from 'pino'
import { getEnv } from './env.server.ts'
import { createLogger } from './log-output.ts'
import { currentRequestId } from './request-context.server.ts'

let instance: pino.Logger | undefined

export function getLogger(): pino.Logger {
	const env = getEnv()
	instance ??= createLogger(
		{
			level: env.LOG_LEVEL,
			base: undefined,
			// Every line written while serving a request carries its id (also sent as X-Request-Id).
			mixin: () => {
				const reqId = currentRequestId()
				return reqId ? { reqId } : {}
			},
			redact: {
				paths: ['req.headers.cookie', 'req.headers.authorization', '*.password', '*.token'],
				censor: '[redacted]',
			},
		},
		env.LOG_FORMAT,
	)
	return instance
}
