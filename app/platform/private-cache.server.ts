/*
 * A page or `.data` answer given to a request that carries a cookie may hold what is only this
 * person's (their name, their flash, their dashboard): no shared cache and no browser history
 * cache may keep it. One rule, in the root middleware, for every document and data request.
 */
const PERSONAL_COOKIES = /(?:^|;\s*)(?:[\w.-]*session_token|flash)=/

export function isPersonalRequest(request: Request): boolean {
	return PERSONAL_COOKIES.test(request.headers.get('cookie') ?? '')
}

export const privateCacheMiddleware = async ({ request }: { request: Request }, next: () => Promise<Response>) => {
	const response = await next()
	if (isPersonalRequest(request) || response.headers.has('Set-Cookie')) {
		try {
			response.headers.set('Cache-Control', 'private, no-store')
		} catch {
			// an immutable Response (a fetch() passed through): its own headers stand
		}
	}
	return response
}
