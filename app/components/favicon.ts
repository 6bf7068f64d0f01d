import { CAP_HEIGHT, initials, TICKET } from '#app/components/logo.tsx'

/**
 * The tab icon: the band's monogram in its accent colour, made from configuration. The same ticket
 * as the <Logo> monogram; the tab has no web font, so the closest system faces.
 */
export function faviconSvg(band: { name: string; accent: string; onAccent: string }): string {
	const letters = initials(band.name).replace(/[<>&"']/g, '')
	const fontSize = letters.length > 1 ? 50 : 66
	return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><path d="${TICKET}" fill="${band.accent}"/><text x="50" y="${50 + (CAP_HEIGHT * fontSize) / 2}" text-anchor="middle" font-family="Anton, Impact, 'Arial Narrow', sans-serif" font-size="${fontSize}" fill="${band.onAccent}">${letters}</text></svg>`
}

/**
 * The icon as a data: URL, written in each page: a first visit asks for one file fewer, which on a
 * phone's network would otherwise share the bandwidth of the first paint (the icon is asked for
 * early, beside the stylesheet and the cover). /favicon.svg still answers with the same icon.
 */
export function faviconDataUrl(band: { name: string; accent: string; onAccent: string }): string {
	return `data:image/svg+xml,${encodeURIComponent(faviconSvg(band))}`
}
