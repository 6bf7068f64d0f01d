import { getEnv } from '#app/platform/env.server.ts'

/**
 * /robots.txt: the public site is open to search engines; accounts, the dashboard and the API are
 * not pages to list. A route rather than a file, because the Sitemap line needs the site's address.
 */
export function loader() {
	const body = [
		'User-agent: *',
		'Disallow: /auth/',
		'Disallow: /dashboard',
		'Disallow: /api/',
		'Disallow: /banner',
		'',
		`Sitemap: ${getEnv().SITE_URL}/sitemap.xml`,
		'',
	].join('\n')
	return new Response(body, { headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' } })
}
