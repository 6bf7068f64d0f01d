import { CAP_HEIGHT, initials, TICKET } from '#app/components/logo.tsx'
import { getBand } from '#app/features/site/band.server.ts'

/** The tab icon: the band's monogram in its accent colour, made from configuration. */
export function loader() {
	const band = getBand()
	const letters = initials(band.name).replace(/[<>&"']/g, '')
	const fontSize = letters.length > 1 ? 50 : 66
	// The same ticket as the <Logo> monogram; the tab has no web font, so the closest system faces.
	const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><path d="${TICKET}" fill="${band.accent}"/><text x="50" y="${50 + (CAP_HEIGHT * fontSize) / 2}" text-anchor="middle" font-family="Anton, Impact, 'Arial Narrow', sans-serif" font-size="${fontSize}" fill="${band.onAccent}">${letters}</text></svg>`
	return new Response(svg, {
		headers: { 'Content-Type': 'image/svg+xml', 'Cache-Control': 'public, max-age=3600' },
	})
}
