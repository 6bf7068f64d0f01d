import { isUploadPath } from './body-limits.ts'
import { httpError } from './http-error.ts'
import { CROSS_SITE_ENDPOINTS } from './origin-check.server.ts'
import { getT } from './i18n.server.ts'

const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data']
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/**
 * Page actions read HTML forms. A request to one of them with another body (JSON, plain text,
 * nothing at all) is answered with a 415 here, before an action could fail on it with a 500.
 * The JSON API under /api/ checks its own bodies.
 */
export const formGuardMiddleware = async ({ request }: { request: Request }) => {
	if (!BODY_METHODS.has(request.method)) return
	const { pathname } = new URL(request.url)
	if (pathname.startsWith('/api/')) return
	// RFC 8058 one-click unsubscribe: whatever body a mail client sends, the token in the address is what counts.
	if (CROSS_SITE_ENDPOINTS.has(pathname)) return
	const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
	if (!FORM_TYPES.includes(type)) {
		throw httpError(415, { error: getT()('errors.form.wrongType') })
	}
	// A URL-encoded body always parses; a multipart one may be truncated or have a wrong boundary.
	// Checked by parsing a copy: only on forms, whose bodies the server cut at the form limit. An
	// upload route reads its own body, as a stream (never twice, never whole in memory here).
	if (type === 'multipart/form-data' && !isUploadPath(pathname)) {
		try {
			await request.clone().formData()
		} catch {
			throw httpError(400, { error: getT()('errors.form.malformed') })
		}
	}
}

/**
 * The form of an upload route that takes it whole (a CSV import, bounded by its route's body
 * limit), read once: a truncated or broken multipart body is a 400, as the guard gives the others.
 */
export async function uploadedForm(request: Request): Promise<FormData> {
	try {
		return await request.formData()
	} catch {
		throw httpError(400, { error: getT()('errors.form.malformed') })
	}
}
