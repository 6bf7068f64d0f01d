/*
 * Whether the rules a public page carries inline (app/platform/critical-css.server.ts) style it as
 * the whole public sheet does:
 *
 *   BUILD_DIR=build node_modules/.bin/node bench/critical-css-check.ts
 *
 * Not a timing: a check to run after changing the critical-CSS code, the stylesheet or a public
 * page. Our server on a data folder seeded with the demo events; each page (PAGES, as in
 * bench/first-paint.ts) is loaded twice in Chromium at 375 and 1280 px: as served, and the same
 * HTML with the whole sheet in its <style>. Every element's computed style (and its ::before,
 * ::after, ::placeholder, ::marker), custom properties aside (an unused one changes nothing), and a
 * full-page screenshot must be the same. Exits 1 on a difference, naming the first elements that
 * differ. Loopback only; every process started here is stopped.
 */
import { chromium } from 'playwright-core'
import { stop } from './processes.ts'
import { makeLog, runBench, seedDemo, startChromium, startSite, tempDir } from './support/harness.ts'

const BUILD = process.env.BUILD_DIR ?? 'build'
const PAGES = (process.env.PAGES ?? '/,/events,event,/redeem,/contact').split(',').filter(Boolean)
const log = makeLog('critical css')

/** Every element's computed style, one line each (runs in the page). */
function computedStyles(): string {
	const lines: string[] = []
	for (const element of document.querySelectorAll('*')) {
		for (const pseudo of [null, '::before', '::after', '::placeholder', '::marker']) {
			const style = getComputedStyle(element, pseudo)
			let line = `${element.tagName}.${String(element.getAttribute('class') ?? '')}${pseudo ?? ''} `
			for (let i = 0; i < style.length; i++) {
				const name = style[i]!
				if (!name.startsWith('--')) line += `${name}:${style.getPropertyValue(name)};`
			}
			lines.push(line)
		}
	}
	return lines.join('\n')
}

await runBench(async () => {
	const dataDir = tempDir('band-bench-critical-')
	log(`${BUILD}: seeding the demo events`)
	const ids = seedDemo({ buildDir: BUILD, dataDir })
	const site = await startSite('critical-css', { buildDir: BUILD, dataDir })
	const browserProcess = await startChromium()
	const browser = await chromium.connectOverCDP(`http://127.0.0.1:${browserProcess.port}`)
	let differences = 0
	try {
		for (const page of PAGES) {
			const url = site.origin + (page === 'event' ? `/events/${ids.scheduled}` : page)
			const served = await (await fetch(url)).text()
			const style = /(<style[^>]*\bdata-href="([^"]+)"[^>]*>)[\s\S]*?(<\/style>)/.exec(served)
			if (!style) {
				log(`${page}: no inline stylesheet`)
				continue
			}
			const sheet = await (await fetch(site.origin + style[2]!)).text()
			const whole = served.replace(style[0], () => style[1]! + sheet + style[3]!)
			for (const width of [375, 1280]) {
				const results = []
				for (const html of [served, whole]) {
					const context = await browser.newContext({ viewport: { width, height: 800 } })
					const tab = await context.newPage()
					await tab.route(url, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }))
					await tab.goto(url, { waitUntil: 'load' })
					await tab.evaluate(() => document.fonts.ready)
					results.push({ styles: await tab.evaluate(computedStyles), shot: await tab.screenshot({ fullPage: true }) })
					await context.close()
				}
				const [inline, full] = results as [(typeof results)[0], (typeof results)[0]]
				const sameStyles = inline.styles === full.styles
				const sameShot = inline.shot.equals(full.shot)
				log(
					`${page} at ${width} px: computed styles ${sameStyles ? 'the same' : 'DIFFERENT'}, screenshot ${sameShot ? 'the same' : 'DIFFERENT'}`,
				)
				if (!sameStyles || !sameShot) differences++
				if (!sameStyles) {
					const a = inline.styles.split('\n')
					const b = full.styles.split('\n')
					let shown = 0
					for (let i = 0; i < a.length && shown < 5; i++) {
						if (a[i] === b[i]) continue
						shown++
						const ours = new Set(a[i]!.split(';'))
						const theirs = new Set((b[i] ?? '').split(';'))
						const only = (set: Set<string>, other: Set<string>) => [...set].filter((declaration) => !other.has(declaration)).join(';')
						log(`  ${a[i]!.slice(0, a[i]!.indexOf(' '))}: inline ${only(ours, theirs)} | whole sheet ${only(theirs, ours)}`)
					}
				}
			}
		}
	} finally {
		await browser.close().catch(() => {})
		await stop(browserProcess.child)
		await stop(site.child)
	}
	log(differences ? `${differences} differences` : 'every page styled as with the whole sheet')
	return differences ? 1 : 0
})
