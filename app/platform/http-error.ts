import { data } from 'react-router'

/** The standard reason phrases of the errors the site answers with. */
const REASONS: Record<number, string> = {
	400: 'Bad Request',
	403: 'Forbidden',
	404: 'Not Found',
	405: 'Method Not Allowed',
	413: 'Content Too Large',
	415: 'Unsupported Media Type',
	429: 'Too Many Requests',
}

/**
 * A refusal to throw from a loader, an action or a middleware: its status with the matching reason
 * phrase (React Router would otherwise call any thrown error without one « Internal Server Error »,
 * a 400 or a 404 included) and an optional body for the error boundary.
 */
export function httpError(status: number, body: unknown = null, init: { headers?: HeadersInit } = {}) {
	return data(body, { status, statusText: REASONS[status] ?? '', ...init })
}
