import { describe, expect, it } from 'vitest'
import { deferHydration, inlineScriptHashes } from './page-cache.ts'

/* What React Router's <Scripts> writes for a page (the shape of its module script), trimmed. */
const routeModulesScript = [
	';',
	'import * as route0 from "/assets/root-A1.js";',
	'import * as route1_clientLoader from "/assets/layout-client-B2.js";',
	'import * as route1_main from "/assets/layout-C3.js";',
	'const route1 = {...route1_clientLoader,...route1_main};',
	'import * as route2 from "/assets/events-D4.js";',
	'  window.__reactRouterManifest = {"entry":{}};',
	'  window.__reactRouterRouteModules = {"root":route0,"routes/public/layout":route1,"routes/public/events":route2};',
	'',
	'import("/assets/entry.client-E5.js");',
].join('\n')
const page = (script: string) =>
	`<!DOCTYPE html><html lang="fr"><head></head><body><main>Concerts</main><script>window.__reactRouterContext = {};</script><script type="module" async="">${script}</script></body></html>`

describe('deferHydration', () => {
	it('turns the static imports into dynamic ones that wait for the page to load', () => {
		const html = deferHydration(page(routeModulesScript))
		const script = /<script type="module" async="">([\s\S]*?)<\/script>/.exec(html)![1]!
		expect(script).not.toMatch(/^\s*import\s+[^(]/m)
		expect(script).toContain("addEventListener('load'")
		expect(script).toContain("observer.observe({ type: 'paint' })")
		expect(script).toContain('setTimeout(go, 3000)')
		expect(script).toContain(
			'const [route0, route1_clientLoader, route1_main, route2] = await Promise.all([import("/assets/root-A1.js"), import("/assets/layout-client-B2.js"), import("/assets/layout-C3.js"), import("/assets/events-D4.js")]);',
		)
		// The rest of React Router's script is kept, in order, after the imports.
		expect(script.indexOf('const route1 = {...route1_clientLoader,...route1_main};')).toBeGreaterThan(script.indexOf('Promise.all'))
		expect(script.trimEnd().endsWith('import("/assets/entry.client-E5.js");')).toBe(true)
		// The page around it, and the other inline script, are untouched.
		expect(html.replace(script, '')).toBe(page(''))
		expect(inlineScriptHashes(html)).toHaveLength(2)
	})

	it('keeps a side-effect import (the manifest, without lazy route discovery)', () => {
		const html = deferHydration(page(`import "/assets/manifest-F6.js";\n${routeModulesScript.slice(2)}`))
		expect(html).toContain(
			'const [_unused0, route0, route1_clientLoader, route1_main, route2] = await Promise.all([import("/assets/manifest-F6.js"),',
		)
	})

	it("rewrites React Router's script only, not another module script before it", () => {
		const other = '<script type="module" async="">import "/assets/other.js";</script>'
		const html = deferHydration(page(routeModulesScript).replace('<main>', `${other}<main>`))
		expect(html).toContain(other)
		expect(html).toContain('await Promise.all([import("/assets/root-A1.js")')
	})

	it('leaves a page alone when the script is missing or reads otherwise', () => {
		const noScript = '<!DOCTYPE html><html><body><p>Hors ligne</p></body></html>'
		expect(deferHydration(noScript)).toBe(noScript)
		const odd = page(routeModulesScript.replace('import * as route2 from', 'import { default as route2 } from'))
		expect(deferHydration(odd)).toBe(odd)
	})
})
