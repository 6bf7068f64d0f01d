import { faviconSvg } from '#app/features/site/favicon.server.ts'
import { getBand } from '#app/features/site/band.server.ts'

/** The tab icon at its own address (browsers and tools that ask for it; pages carry it inline). */
export function loader() {
	return new Response(faviconSvg(getBand()), {
		headers: { 'Content-Type': 'image/svg+xml', 'Cache-Control': 'public, max-age=3600' },
	})
}
