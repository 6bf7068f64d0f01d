import { publishedEventsForSitemap } from '#app/features/events/events.server.ts'
import { getEnv } from '#app/platform/env.server.ts'
import { getDb } from '#app/platform/platform.server.ts'

/*
 * /sitemap.xml: the public pages a search engine should know, every published event included.
 * Screens still to come (contact, redeem…) add their path to PUBLIC_PAGES when they exist.
 */
const PUBLIC_PAGES = ['/', '/events', '/policies', '/policies/privacy', '/policies/cookies']

function escapeXml(value: string): string {
	return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;')
}

export async function loader() {
	const siteUrl = getEnv().SITE_URL
	const events = await publishedEventsForSitemap(await getDb())
	const urls = [
		...PUBLIC_PAGES.map((path) => `\t<url><loc>${escapeXml(siteUrl + (path === '/' ? '/' : path))}</loc></url>`),
		...events.map(
			(event) =>
				`\t<url><loc>${escapeXml(`${siteUrl}/events/${encodeURIComponent(event.id)}`)}</loc><lastmod>${event.updatedAt.toISOString()}</lastmod></url>`,
		),
	]
	const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`
	return new Response(body, {
		headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=300' },
	})
}
