/*
 * The stage view's service worker (served by app/routes/admin/setlist/stage-worker.ts, which puts
 * `STAGE` before this text; the decision: docs/decisions/0021-stage-view-offline.md).
 *
 * Registered with the scope /dashboard/admin/setlist/, it answers only two kinds of request:
 * - the opening of a stage view (/dashboard/admin/setlist/<id>/stage): network first; the page as
 *   the server gave it is kept (one copy per setlist, the last one loaded) and shown when the
 *   network does not answer; without a copy, a French page says so;
 * - a built file (/assets/…) that a kept stage view needs: from the copy, else the network.
 * Every other request of the pages in its scope goes to the network as if it were not there.
 *
 * What is kept is only ever a stage view the server answered with 200 for a signed-in admin (the
 * route marks it with X-Stage-View). A redirect (signed out), a 401, a 403 (no longer admin) or a
 * 404 (deleted) drops the copy; a sign-out clears everything (Clear-Site-Data on its answer); a
 * copy older than a session can live without being used is never shown.
 */
/* global STAGE */
const PAGES = 'stage-pages-v1'
const ASSETS = 'stage-assets-v1'
const STAGE_PATH = /^\/dashboard\/admin\/setlist\/[A-Za-z0-9_-]{1,64}\/stage$/
/** The headers of a kept page that say when this device kept it, its name and the files it needs. */
const SAVED = 'x-stage-kept-at'
const NAME = 'x-stage-name'
const NEEDS = 'x-stage-assets'
/** The network gets this long to answer before a kept copy is shown (a stage's weak signal). */
const NETWORK_WAIT_MS = 4000
const MAX_ASSETS = 200

/** Paths this worker kept or dropped in the last seconds: a page's own « keep » need not fetch it again. */
const justFetched = new Map()

self.addEventListener('install', () => {
	self.skipWaiting()
})

self.addEventListener('activate', (event) => {
	event.waitUntil(
		(async () => {
			for (const name of await caches.keys()) if (name.startsWith('stage-') && name !== PAGES && name !== ASSETS) await caches.delete(name)
			await dropExpired()
			await self.clients.claim()
		})(),
	)
})

self.addEventListener('fetch', (event) => {
	const request = event.request
	if (request.method !== 'GET') return
	const url = new URL(request.url)
	if (url.origin !== self.location.origin || url.search) return
	if (request.mode === 'navigate' && STAGE_PATH.test(url.pathname)) {
		event.respondWith(openStage(event, url.pathname))
		return
	}
	if (url.pathname.startsWith('/assets/')) {
		event.respondWith(
			caches
				.open(ASSETS)
				.then((cache) => cache.match(url.pathname))
				.then((kept) => kept ?? fetch(request)),
		)
	}
})

/** A stage view's page asks, once loaded, to keep it and the files it used (see stage-offline.ts). */
self.addEventListener('message', (event) => {
	const client = event.source
	if (!client || typeof client.url !== 'string' || !event.data || event.data.type !== 'keep') return
	const path = new URL(client.url).pathname
	if (new URL(client.url).origin !== self.location.origin || !STAGE_PATH.test(path)) return
	const assets = Array.isArray(event.data.assets) ? event.data.assets.filter((a) => typeof a === 'string') : []
	const name = typeof event.data.name === 'string' ? event.data.name.slice(0, 200) : ''
	event.waitUntil(keep(path, name, assets).catch(() => {}))
})

async function openStage(event, path) {
	const kept = await keptCopy(path)
	const network = fetch(event.request).then(
		(response) => {
			event.waitUntil(remember(path, response.clone()).catch(() => {}))
			return response
		},
		() => null,
	)
	if (!kept) return (await network) ?? offlinePage()
	// Network first, but a stage does not wait a minute for a weak signal: past NETWORK_WAIT_MS the
	// kept copy shows, and the answer, when it comes, still updates or drops the copy.
	event.waitUntil(network)
	const first = await Promise.race([network, new Promise((resolve) => setTimeout(() => resolve('late'), NETWORK_WAIT_MS))])
	if (first === 'late' || first === null) return kept
	// A server that fails (restarting, a proxy without it) is no reason to lose the setlist on stage.
	if (first.status >= 500) return kept
	return first
}

/** What the server's answer means for the copy: keep it, drop it, or leave the copy as it was. */
async function remember(path, response) {
	justFetched.set(path, Date.now())
	if (isStageView(response)) return store(path, response)
	// A redirect (signed out: to the sign-in page) or a refusal: nobody here may read admin pages
	// any more, so no copy of any setlist stays. A 404: that setlist is gone.
	if (response.type === 'opaqueredirect' || response.status === 401 || response.status === 403) return dropAll()
	if (response.status === 404 || response.status === 410) return (await caches.open(PAGES)).delete(path)
}

function isStageView(response) {
	return (
		response.type === 'basic' &&
		response.status === 200 &&
		!response.redirected &&
		(response.headers.get('content-type') ?? '').startsWith('text/html') &&
		response.headers.get('x-stage-view') === '1'
	)
}

async function store(path, response) {
	const cache = await caches.open(PAGES)
	const previous = await cache.match(path)
	const headers = new Headers(response.headers)
	// The body is kept decoded, and matched whatever the request's headers.
	for (const name of ['content-encoding', 'content-length', 'vary', 'set-cookie']) headers.delete(name)
	headers.set(SAVED, String(Date.now()))
	// What the page's own « keep » said last time stays until it says it again.
	for (const name of [NAME, NEEDS]) {
		const value = previous?.headers.get(name)
		if (value) headers.set(name, value)
	}
	await cache.put(path, new Response(await response.blob(), { status: 200, statusText: 'OK', headers }))
}

async function keep(path, name, assets) {
	const fetchedAt = justFetched.get(path)
	if (!fetchedAt || Date.now() - fetchedAt > 30_000) {
		const response = await fetch(path, { credentials: 'same-origin', redirect: 'manual', cache: 'no-store' })
		await remember(path, response)
	}
	const pages = await caches.open(PAGES)
	const page = await pages.match(path)
	if (!page) return
	const needed = [
		...new Set(
			assets
				.map((address) => new URL(address, self.location.origin))
				.filter((url) => url.origin === self.location.origin && url.pathname.startsWith('/assets/') && !url.search)
				.map((url) => url.pathname),
		),
	].slice(0, MAX_ASSETS)
	const headers = new Headers(page.headers)
	headers.set(NAME, encodeURIComponent(name))
	headers.set(NEEDS, needed.join(' '))
	await pages.put(path, new Response(await page.blob(), { status: 200, statusText: 'OK', headers }))
	const files = await caches.open(ASSETS)
	for (const asset of needed) {
		if (await files.match(asset)) continue
		const response = await fetch(asset, { credentials: 'same-origin' }).catch(() => null)
		if (response && response.ok && response.type === 'basic') await files.put(asset, response)
	}
	await dropUnneededAssets()
}

/** The kept copy of a stage view, if it is young enough to be shown. */
async function keptCopy(path) {
	const page = await (await caches.open(PAGES)).match(path, { ignoreVary: true })
	if (!page) return null
	if (!(Date.now() - Number(page.headers.get(SAVED)) < STAGE.keepMs)) {
		await (await caches.open(PAGES)).delete(path)
		return null
	}
	return page
}

async function dropAll() {
	await caches.delete(PAGES)
	await caches.delete(ASSETS)
}

async function dropExpired() {
	const pages = await caches.open(PAGES)
	for (const request of await pages.keys()) await keptCopy(new URL(request.url).pathname)
	await dropUnneededAssets()
}

/** Built files no kept page names any more (an older version of the site): gone. */
async function dropUnneededAssets() {
	const pages = await caches.open(PAGES)
	const needed = new Set()
	for (const request of await pages.keys()) {
		const page = await pages.match(request)
		for (const asset of (page?.headers.get(NEEDS) ?? '').split(' ')) if (asset) needed.add(asset)
	}
	const files = await caches.open(ASSETS)
	for (const request of await files.keys()) if (!needed.has(new URL(request.url).pathname)) await files.delete(request)
}

function escapeHtml(text) {
	return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c])
}

/** Offline, for a stage view this device has not kept: a page that says so, and what it has kept. */
async function offlinePage() {
	const pages = await caches.open(PAGES)
	const links = []
	for (const request of await pages.keys()) {
		const path = new URL(request.url).pathname
		const page = await keptCopy(path)
		if (!page) continue
		const name = decodeURIComponent(page.headers.get(NAME) || '') || STAGE.strings.unnamed
		links.push(`<li><a href="${escapeHtml(path)}">${escapeHtml(name)}</a></li>`)
	}
	const s = STAGE.strings
	const html = `<!doctype html>
<html lang="fr" dir="ltr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><meta name="theme-color" content="#000000"><title>${escapeHtml(s.title)}</title>
<style>
body{margin:0;min-height:100dvh;background:#000;color:#fff;font:1.25rem/1.5 system-ui,sans-serif;padding:1.5rem max(1rem,env(safe-area-inset-left))}
main{max-width:40rem}h1{font-size:2rem;line-height:1.2;margin:0 0 1rem;text-transform:uppercase;letter-spacing:.02em}
p{margin:0 0 1rem;color:rgba(255,255,255,.85)}a{color:#fff;text-decoration:underline;text-underline-offset:.2em}
ul{padding-left:1.25rem;margin:0 0 1.5rem}li{margin:.5rem 0;font-size:1.5rem}
.retry{display:inline-flex;align-items:center;min-height:44px;padding:0 1rem;border:2px solid #fff;border-radius:.5rem;text-decoration:none;font-weight:600}
a:focus-visible{outline:3px solid #fff;outline-offset:3px}
</style></head>
<body><main><h1>${escapeHtml(s.title)}</h1><p>${escapeHtml(s.body)}</p>
${links.length ? `<p>${escapeHtml(s.available)}</p><ul>${links.join('')}</ul>` : `<p>${escapeHtml(s.noneKept)}</p>`}
<a class="retry" href="">${escapeHtml(s.retry)}</a></main></body></html>`
	return new Response(html, {
		status: 503,
		headers: {
			'content-type': 'text/html; charset=utf-8',
			'cache-control': 'no-store',
			'content-security-policy':
				"default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
			'x-content-type-options': 'nosniff',
		},
	})
}
