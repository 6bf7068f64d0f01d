import { describe, expect, it } from 'vitest'
import { scriptsAfterFirstPaint } from './after-first-paint.ts'

/* React Router 8's entry script, as <Scripts> writes it (shortened manifest). */
const ENTRY = `;
import * as route0 from "/assets/root-B1.js";
import * as route1 from "/assets/layout-C2.js";
import * as route2 from "/assets/home-D3.js";
  window.__reactRouterManifest = {"entry":{"module":"/assets/entry.client-E4.js"},"url":"/assets/manifest-1.js","version":"1"};
  window.__reactRouterRouteModules = {"root":route0,"routes/public/layout":route1,"routes/public/home":route2};

import("/assets/entry.client-E4.js");`

const page = (entry: string) =>
	`<!DOCTYPE html><html><head></head><body><p>Bonjour</p><script>window.__reactRouterContext = {};</script><script type="module" async="">${entry}</script></body></html>`

const entryOf = (html: string) => /<script type="module" async="">([\s\S]*?)<\/script>/.exec(html)![1]!
const AsyncFunction = (async () => {}).constructor as new (body: string) => unknown

describe('scriptsAfterFirstPaint', () => {
	it("imports React Router's modules after the largest paint, all at once, then runs the rest unchanged", () => {
		const html = scriptsAfterFirstPaint(page(ENTRY))
		const script = entryOf(html)
		// No static import left: nothing is fetched before the wait.
		expect(script).not.toMatch(/^\s*import\s/m)
		expect(script.indexOf('largest-contentful-paint')).toBeLessThan(script.indexOf('import("/assets/root-B1.js")'))
		expect(script).toContain(
			'const [route0, route1, route2] = await Promise.all([import("/assets/root-B1.js"), import("/assets/layout-C2.js"), import("/assets/home-D3.js")]);',
		)
		expect(script).toContain(
			'window.__reactRouterRouteModules = {"root":route0,"routes/public/layout":route1,"routes/public/home":route2};',
		)
		expect(script.trimEnd().endsWith('import("/assets/entry.client-E4.js");')).toBe(true)
		// Valid JavaScript (top-level await is fine in a module; compiled here as an async body).
		expect(() => new AsyncFunction(script)).not.toThrow()
		// The rest of the page is untouched.
		expect(html.replace(script, '')).toBe(page(''))
	})

	it('keeps a bare side-effect import among the awaited ones', () => {
		const script = entryOf(scriptsAfterFirstPaint(page(`import "/assets/manifest-1.js";\n${ENTRY}`)))
		expect(script).toContain('await Promise.all([import("/assets/manifest-1.js"), import("/assets/root-B1.js")')
		expect(() => new AsyncFunction(script)).not.toThrow()
	})

	it('leaves a page it does not recognise as it was', () => {
		for (const html of [
			'<!DOCTYPE html><html><body><p>Sans script</p></body></html>',
			page('import("/assets/entry.client-E4.js");'),
			page(ENTRY.replace('import("/assets/entry.client-E4.js");', 'hydrate();')),
		]) {
			expect(scriptsAfterFirstPaint(html)).toBe(html)
		}
	})
})
