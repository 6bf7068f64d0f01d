import pino from 'pino'
import { getEnv } from './env.server.ts'
import { currentRequestId } from './request-context.server.ts'

let instance: pino.Logger | undefined

export function getLogger(): pino.Logger {
	instance ??= pino({
		level: getEnv().LOG_LEVEL,
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
	})
	return instance
}
