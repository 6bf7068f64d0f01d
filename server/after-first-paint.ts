/*
 * Scripts after the first paint, for the pages of the anonymous cache (server/page-cache.ts).
 *
 * React Router's entry script imports the route modules statically, so a browser fetches the whole
 * application (about twenty files) while it is still fetching what the first paint needs: the
 * fonts and, on an event's page, the cover. On a phone's connection those compete for the same few
 * round trips, and in Lighthouse's simulation every file that arrived before the largest paint is
 * counted in it. A cached page is whole HTML: it reads, its links and forms work, without any
 * script. So on those pages the same entry script first waits for the page's largest paint (the
 * cover when the page has one, else the first paint of text), then imports the same modules, all
 * at once, and goes on exactly as React Router wrote it.
 *
 * The entry script is React Router's: `import * as routeN from "…";` lines, then the manifest, the
 * route modules' table and `import("…entry.client…")`. When it does not look like that (another
 * version of React Router), the page is left as it was rendered, and
 * tests/integration/page-cache.test.ts fails.
 */

/**
 * Waits, at most `limit` ms, for the largest paint: that of the page's priority image
 * (`fetchpriority=high`, still loading) when it has one (or for that image's load and one frame
 * more, should a larger text keep it from being the largest), else the first largest paint.
 * Browsers without the Largest Contentful Paint API wait for the first contentful paint, or for one
 * frame. A hidden page (a background tab) does not wait.
 */
function afterLargestPaint(limit: number): Promise<void> {
	return new Promise((resolve) => {
		let observer: PerformanceObserver | undefined
		const done = () => {
			clearTimeout(timer)
			observer?.disconnect()
			resolve()
		}
		const timer = setTimeout(done, limit)
		const nextFrame = () => requestAnimationFrame(() => setTimeout(done))
		if (document.visibilityState !== 'visible') return done()
		const image = document.querySelector('img[fetchpriority="high"]') as HTMLImageElement | null
		const hero = image && !image.complete ? image : null
		hero?.addEventListener('load', nextFrame)
		hero?.addEventListener('error', done)
		const types = typeof PerformanceObserver === 'function' ? (PerformanceObserver.supportedEntryTypes ?? []) : []
		const type = types.includes('largest-contentful-paint') ? 'largest-contentful-paint' : types.includes('paint') ? 'paint' : null
		if (!type) {
			if (!hero) nextFrame()
			return
		}
		observer = new PerformanceObserver((list) => {
			for (const entry of list.getEntries() as (PerformanceEntry & { element?: Element | null })[]) {
				if (type === 'paint' ? entry.name === 'first-contentful-paint' && !hero : !hero || entry.element === hero) return done()
			}
		})
		observer.observe({ type, buffered: true })
	})
}

/** Source without its indentation and blank lines (line breaks stay: the code relies on them). */
const compact = (source: string) => source.replace(/[ \t]+/g, ' ').replace(/\n\s*/g, '\n')

/** The longest a page waits for its largest paint before its scripts load anyway. */
const WAIT_LIMIT_MS = 3_000

const ENTRY_SCRIPT = /<script type="module" async="">([\s\S]*?)<\/script>/
const STATIC_IMPORT = /^\s*import(?:\s*\*\s*as\s+(\w+)\s+from)?\s*("[^"\n]+");?[ \t]*$/gm

/** The page with its entry script made to import the application after the largest paint (unchanged when not recognised). */
export function scriptsAfterFirstPaint(html: string): string {
	const entry = ENTRY_SCRIPT.exec(html)
	if (!entry) return html
	const body = entry[1]!
	const imports = [...body.matchAll(STATIC_IMPORT)]
	if (imports.length === 0 || !/\bimport\("[^"]+"\);?\s*$/.test(body)) return html
	const names = imports.map(([, name], index) => name ?? `_${index}`)
	const rest = body.replace(STATIC_IMPORT, '').replace(/^[\s;]+/, '')
	const script =
		`await (${compact(afterLargestPaint.toString())})(${WAIT_LIMIT_MS});\n` +
		`const [${names.join(', ')}] = await Promise.all([${imports.map(([, , url]) => `import(${url})`).join(', ')}]);\n` +
		rest
	return html.slice(0, entry.index) + `<script type="module" async="">${script}</script>` + html.slice(entry.index + entry[0].length)
}
