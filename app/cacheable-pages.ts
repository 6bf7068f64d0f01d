/*
 * The one rule of the anonymous page cache (server/page-cache.ts): which pages may be answered
 * from it. The server adds the rest of the rule, the same for every page:
 *
 *   - a GET or HEAD, without any cookie, without an Authorization header, without a query string;
 *   - of a route listed below (the deepest route the path matches, as React Router matches it);
 *   - rendered with status 200, as HTML, without setting a cookie.
 *
 * Anything else is rendered by React Router for that request alone: signed-in pages (they carry a
 * session cookie), flash messages (a cookie too), a form's errors (the answer to a POST), `?code=`,
 * `?redirectTo=` or `?page=` links.
 *
 * To let a new public page be cached, add its route id here (the file's path under app/ without
 * the extension, or the `id` given in app/routes.ts). List a page only if, for a visitor without a
 * cookie, it shows nothing that depends on who asks, when within a minute, or on a header: the
 * first visitor's copy is everyone's. Its data must change only through writes that call
 * `publicContentChanged()` (app/platform/public-content.server.ts); every admin POST to
 * /dashboard/admin/** clears the cache anyway, and an entry lives 60 s at most.
 * tests/integration/page-cache.test.ts checks that every id here exists.
 */
export const CACHEABLE_ROUTE_IDS: ReadonlySet<string> = new Set([
	'routes/public/home',
	'routes/public/events',
	'routes/public/event',
	'routes/public/policies-index',
	'policy-privacy',
	'policy-cookies',
	'routes/public/banner',
	'routes/public/contact',
	// The form alone: `/redeem?code=…` (a QR code) has a query string, so it is rendered per visit.
	'routes/public/redeem',
	'routes/auth/signin',
	'routes/auth/signup',
	'routes/auth/forgot-password',
])
