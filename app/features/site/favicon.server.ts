import { GLYPHS, UNITS_PER_EM } from '#app/features/site/favicon-glyphs.server.ts'
import { CAP_HEIGHT, initials, TICKET } from '#app/components/logo.tsx'
import { hashToken } from '#app/platform/random-token.server.ts'

type Band = { name: string; accent: string; onAccent: string }

/**
 * The tab icon: the band's monogram in its accent colour, made from configuration. The same ticket
 * as the <Logo> monogram, its letters drawn as Anton's outlines (favicon-glyphs.server.ts, written
 * by scripts/make-favicon-glyphs.ts): an image has no web font, and text in it made the browser
 * look a face up among the system's and lay the text out in an image document of its own, a task
 * of several milliseconds on a phone while the page loads (docs/decisions/0033-critical-css.md).
 * A letter Anton's capitals lack is set as text, in the closest system faces, as before.
 */
export function faviconSvg(band: Band): string {
	const letters = initials(band.name)
	const fontSize = letters.length > 1 ? 50 : 66
	const baseline = 50 + (CAP_HEIGHT * fontSize) / 2
	const glyphs = [...letters].map((letter) => GLYPHS[letter])
	let mark: string
	if (glyphs.every((glyph) => glyph !== undefined)) {
		const scale = fontSize / UNITS_PER_EM
		const width = glyphs.reduce((sum, [advance]) => sum + advance, 0) * scale
		let x = 50 - width / 2
		mark = glyphs
			.map(([advance, d]) => {
				const path = `<path transform="translate(${round(x)} ${round(baseline)}) scale(${round(scale, 5)} ${round(-scale, 5)})" d="${d}"/>`
				x += advance * scale
				return path
			})
			.join('')
		mark = `<g fill="${band.onAccent}">${mark}</g>`
	} else {
		const text = letters.replace(/[<>&"']/g, '')
		mark = `<text x="50" y="${baseline}" text-anchor="middle" font-family="Anton, Impact, 'Arial Narrow', sans-serif" font-size="${fontSize}" fill="${band.onAccent}">${text}</text>`
	}
	return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><path d="${TICKET}" fill="${band.accent}"/>${mark}</svg>`
}

function round(value: number, digits = 2): number {
	return Number(value.toFixed(digits))
}

let last: { band: Band; url: string; href: string } | undefined

function remembered(band: Band) {
	if (last?.band.name !== band.name || last.band.accent !== band.accent || last.band.onAccent !== band.onAccent) {
		const svg = faviconSvg(band)
		last = {
			band: { name: band.name, accent: band.accent, onAccent: band.onAccent },
			url: `data:image/svg+xml,${encodeURIComponent(svg)}`,
			href: `/favicon.svg?v=${hashToken(svg).slice(0, 10)}`,
		}
	}
	return last
}

/**
 * The icon as a data: URL, written in each public page: a first visit asks for one file fewer, which
 * on a phone's network would otherwise share the bandwidth of the first paint (the icon is asked
 * for early, beside the stylesheet and the cover). Made on the server (root.tsx's loader): the
 * outlines stay out of the browser's scripts.
 */
export function faviconDataUrl(band: Band): string {
	return remembered(band).url
}

/**
 * The icon's address, named after its drawing (a change of name or colours is a new address): for
 * a signed-in member's pages, which hydrate, so that the icon is not written twice in each of them
 * (in the page and again in its loader data) but fetched once and kept by the browser.
 */
export function faviconHref(band: Band): string {
	return remembered(band).href
}
