import { GLYPHS, UNITS_PER_EM } from '#app/features/site/favicon-glyphs.server.ts'
import { CAP_HEIGHT, initials, TICKET } from '#app/components/logo.tsx'
import { hashToken } from '#app/platform/random-token.server.ts'
import { iconPng, type Layer } from '#app/features/site/favicon-png.server.ts'

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
	const drawing = faviconDrawing(band)
	const mark = drawing.glyphs
		? `<g fill="${band.onAccent}">${drawing.glyphs.map((glyph) => `<path transform="translate(${glyph.x} ${glyph.baseline}) scale(${glyph.scale} ${-glyph.scale})" d="${glyph.d}"/>`).join('')}</g>`
		: `<text x="50" y="${drawing.baseline}" text-anchor="middle" font-family="Anton, Impact, 'Arial Narrow', sans-serif" font-size="${drawing.fontSize}" fill="${band.onAccent}">${drawing.text}</text>`
	return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><path d="${TICKET}" fill="${band.accent}"/>${mark}</svg>`
}

/** Pixels a side of the PNG icon: a 16-pixel tab icon at up to 4× density, and the larger icons of a phone's tab lists. */
export const FAVICON_PNG_SIZE = 64

/**
 * The same icon as a PNG (favicon-png.server.ts says why), or null when a letter is set as text
 * (the PNG is drawn from outlines only).
 */
export function faviconPng(band: Band): Buffer | null {
	const drawing = faviconDrawing(band)
	if (!drawing.glyphs) return null
	const layers: Layer[] = [{ d: TICKET, color: band.accent }]
	for (const glyph of drawing.glyphs)
		layers.push({
			d: glyph.d,
			color: band.onAccent,
			transform: (x, y) => [glyph.x + x * glyph.scale, glyph.baseline - y * glyph.scale],
		})
	return iconPng(layers, FAVICON_PNG_SIZE)
}

type Drawing =
	| { glyphs: { x: number; baseline: number; scale: number; d: string }[] }
	| { glyphs?: undefined; text: string; baseline: number; fontSize: number }

function faviconDrawing(band: Band): Drawing {
	const letters = initials(band.name)
	const fontSize = letters.length > 1 ? 50 : 66
	const baseline = 50 + (CAP_HEIGHT * fontSize) / 2
	const glyphs = [...letters].map((letter) => GLYPHS[letter])
	if (!glyphs.every((glyph) => glyph !== undefined)) return { text: letters.replace(/[<>&"']/g, ''), baseline, fontSize }
	const scale = fontSize / UNITS_PER_EM
	const width = glyphs.reduce((sum, [advance]) => sum + advance, 0) * scale
	let x = 50 - width / 2
	return {
		glyphs: glyphs.map(([advance, d]) => {
			const glyph = { x: round(x), baseline: round(baseline), scale: round(scale, 5), d }
			x += advance * scale
			return glyph
		}),
	}
}

function round(value: number, digits = 2): number {
	return Number(value.toFixed(digits))
}

let last: { band: Band; url: string; href: string } | undefined

function remembered(band: Band) {
	if (last?.band.name !== band.name || last.band.accent !== band.accent || last.band.onAccent !== band.onAccent) {
		const svg = faviconSvg(band)
		const png = faviconPng(band)
		last = {
			band: { name: band.name, accent: band.accent, onAccent: band.onAccent },
			url: png ? `data:image/png;base64,${png.toString('base64')}` : `data:image/svg+xml,${encodeURIComponent(svg)}`,
			href: `/favicon.svg?v=${hashToken(svg).slice(0, 10)}`,
		}
	}
	return last
}

/**
 * The icon as a data: URL, written in each public page: a first visit asks for one file fewer, which
 * on a phone's network would otherwise share the bandwidth of the first paint (the icon is asked
 * for early, beside the stylesheet and the cover). Made on the server (root.tsx's loader): the
 * outlines stay out of the browser's scripts. A PNG (made once per band, ~1 kB), not the SVG: the
 * browser builds an SVG image as a document of its own on the page's main thread
 * (favicon-png.server.ts); the SVG only when a letter is set as text.
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
