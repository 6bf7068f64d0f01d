import { initials } from '#app/components/logo.tsx'
import { getBand } from '#app/features/site/band.server.ts'

/** The tab icon: the band's monogram in its accent colour, made from configuration. */
export function loader() {
	const band = getBand()
	const letters = initials(band.name).replace(/[<>&"']/g, '')
	const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="12" fill="${band.accent}"/><text x="32" y="35" text-anchor="middle" dominant-baseline="middle" font-family="Impact, 'Arial Narrow', sans-serif" font-size="${letters.length > 1 ? 30 : 40}" fill="${band.onAccent}">${letters}</text></svg>`
	return new Response(svg, {
		headers: { 'Content-Type': 'image/svg+xml', 'Cache-Control': 'public, max-age=3600' },
	})
}
