import { describe, expect, it } from 'vitest'
import { cachedPagePath, isCachedPageView, pageViewOf, referringDomain, utmSourceOf, type RequestFacts } from './page-view-rules.ts'

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0'
const SITE = 'groupe.example'

function facts(overrides: Partial<RequestFacts> = {}, headers: RequestFacts['headers'] = {}): RequestFacts {
	return {
		method: 'GET',
		url: '/',
		status: 200,
		contentType: 'text/html; charset=utf-8',
		...overrides,
		headers: { accept: 'text/html,application/xhtml+xml', 'sec-fetch-dest': 'document', 'user-agent': FIREFOX, ...headers },
	}
}

describe('what counts as a page view', () => {
	it('counts a browser opening a public page, with the referring domain and the UTM source', () => {
		expect(
			pageViewOf(
				facts({ url: '/events/abc123/?utm_source=Instagram&fbclid=xyz' }, { referer: 'https://www.instagram.com/p/123?igsh=secret' }),
				SITE,
			),
		).toEqual({ path: '/events/abc123', referrer: 'instagram.com', utmSource: 'instagram' })
	})

	it('leaves out bots, prefetches, data requests, private areas, errors and non-pages', () => {
		expect(pageViewOf(facts({}, { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' }), SITE)).toBeNull()
		expect(pageViewOf(facts({}, { 'user-agent': undefined }), SITE)).toBeNull()
		expect(pageViewOf(facts({}, { 'sec-purpose': 'prefetch;prerender' }), SITE)).toBeNull()
		expect(pageViewOf(facts({}, { purpose: 'prefetch' }), SITE)).toBeNull()
		expect(pageViewOf(facts({}, { 'sec-fetch-dest': 'empty' }), SITE)).toBeNull()
		expect(pageViewOf(facts({ url: '/events.data' }), SITE)).toBeNull()
		for (const url of ['/dashboard', '/dashboard/admin/stats', '/auth/signin', '/api/me', '/media/x.webp'])
			expect(pageViewOf(facts({ url }), SITE)).toBeNull()
		expect(pageViewOf(facts({ status: 404 }), SITE)).toBeNull()
		expect(pageViewOf(facts({ status: 302 }), SITE)).toBeNull()
		expect(pageViewOf(facts({ method: 'POST' }), SITE)).toBeNull()
		expect(pageViewOf(facts({ contentType: 'application/json' }), SITE)).toBeNull()
	})

	it('counts only a navigation when the browser says how it fetched: not a fetch(), a frame or a resource with a browser’s user agent', () => {
		expect(pageViewOf(facts({}, { 'sec-fetch-mode': 'navigate' }), SITE)).toMatchObject({ path: '/' })
		for (const mode of ['cors', 'no-cors', 'same-origin', 'websocket']) {
			expect(pageViewOf(facts({}, { 'sec-fetch-mode': mode, 'sec-fetch-dest': undefined }), SITE)).toBeNull()
			expect(pageViewOf(facts({}, { 'sec-fetch-mode': mode }), SITE)).toBeNull()
		}
		expect(pageViewOf(facts({}, { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'iframe' }), SITE)).toBeNull()
	})

	it('counts a client-side navigation: the page’s data fetched by the site’s own script, never by another site', () => {
		const script = { 'sec-fetch-dest': 'empty', 'sec-fetch-mode': 'cors', 'sec-fetch-site': 'same-origin', accept: '*/*' }
		const data = (url: string, headers: RequestFacts['headers'] = {}) =>
			pageViewOf(facts({ url, contentType: 'text/x-script' }, { ...script, ...headers }), SITE)
		expect(data('/events.data')).toEqual({ path: '/events', referrer: '', utmSource: '' })
		expect(data('/_root.data?index')).toMatchObject({ path: '/' })
		expect(data('/events/abc123.data?_routes=routes%2Fpublic%2Fevent')).toMatchObject({ path: '/events/abc123' })
		expect(data('/events.data', { 'sec-fetch-site': 'cross-site' })).toBeNull()
		expect(data('/events.data', { 'sec-fetch-site': undefined })).toBeNull()
		expect(data('/events.data', { 'sec-purpose': 'prefetch' })).toBeNull()
		expect(data('/dashboard/settings.data')).toBeNull()
		expect(pageViewOf(facts({ url: '/events.data', status: 202 }, script), SITE)).toBeNull()
	})

	it('counts an older browser without Sec-Fetch-Dest when it asks for HTML, and a revalidated page (304)', () => {
		expect(pageViewOf(facts({}, { 'sec-fetch-dest': undefined }), SITE)).toMatchObject({ path: '/' })
		expect(pageViewOf(facts({}, { 'sec-fetch-dest': undefined, accept: '*/*' }), SITE)).toBeNull()
		expect(pageViewOf(facts({ status: 304, contentType: undefined }), SITE)).toMatchObject({ path: '/' })
		expect(pageViewOf(facts({ contentType: undefined }), SITE)).toMatchObject({ path: '/' })
	})

	it('keeps only a domain: none for the site itself or odd referrers, and a clean UTM source', () => {
		expect(referringDomain('https://groupe.example/events', SITE)).toBe('')
		expect(referringDomain('https://www.groupe.example/', SITE)).toBe('')
		expect(referringDomain('android-app://com.google.android.gm/', SITE)).toBe('')
		expect(referringDomain('pas une adresse', SITE)).toBe('')
		expect(utmSourceOf('Newsletter_Mars')).toBe('newsletter_mars')
		expect(utmSourceOf('<script>')).toBe('')
		expect(utmSourceOf('a'.repeat(500))).toHaveLength(50)
	})
})

describe('a view of a page from the anonymous cache', () => {
	// The header sets a cached page is asked with, each judged by both ways: they must agree.
	const headerSets: RequestFacts['headers'][] = [
		{},
		{ 'user-agent': undefined },
		{ 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' },
		{ 'sec-purpose': 'prefetch;prerender' },
		{ purpose: 'prefetch' },
		{ 'x-moz': 'prefetch' },
		{ 'sec-purpose': 'something-else' },
		{ 'sec-fetch-dest': 'iframe' },
		{ 'sec-fetch-dest': 'empty', 'sec-fetch-mode': 'cors' },
		{ 'sec-fetch-mode': 'no-cors' },
		{ 'sec-fetch-dest': undefined, accept: '*/*' },
		{ 'sec-fetch-dest': undefined, accept: 'text/html' },
		{ 'sec-fetch-dest': undefined, accept: undefined },
		{ referer: 'https://www.instagram.com/p/1' },
	]

	it('is counted by the same rules as any other answer', () => {
		for (const url of ['/', '/events', '/events/abc123/', '/contact']) {
			const path = cachedPagePath(url)
			for (const headers of headerSets) {
				const full = pageViewOf(facts({ url }, headers), SITE)
				const cached = path !== null && isCachedPageView(facts({ url }, headers).headers)
				expect({ url, headers, counted: cached }).toEqual({ url, headers, counted: full !== null })
				if (full) expect(full.path).toBe(path)
			}
		}
	})

	it('is not counted on a private area, a data request, a query or an over-long path', () => {
		expect(cachedPagePath('/dashboard')).toBeNull()
		expect(cachedPagePath('/events.data')).toBeNull()
		expect(cachedPagePath('/events?utm_source=x')).toBeNull()
		expect(cachedPagePath(`/${'a'.repeat(250)}`)).toBeNull()
		expect(cachedPagePath('/events/')).toBe('/events')
	})
})
