import { httpError } from './http-error.ts'
import { CROSS_SITE_ENDPOINTS } from './origin-check.server.ts'
import { getT } from './i18n.server.ts'

const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data']
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
/** Image uploads read their own multipart bodies, as a stream with a size limit (features/media/upload.server.ts). */
const STREAMED_UPLOADS = new Set(['/dashboard/admin/media', '/dashboard/settings/avatar'])

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
	if (type === 'multipart/form-data' && !STREAMED_UPLOADS.has(pathname)) {
		try {
			await request.clone().formData()
		} catch {
			throw httpError(400, { error: getT()('errors.form.malformed') })
		}
	}
}
