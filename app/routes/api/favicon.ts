import { faviconSvg } from '#app/features/site/favicon.server.ts'
import { getBand } from '#app/features/site/band.server.ts'

/**
 * The tab icon at its own address: signed-in pages link it, versioned (`?v=`, favicon.server.ts);
 * public pages carry it inline; browsers and tools may ask for it.
 */
export function loader() {
	return new Response(faviconSvg(getBand()), {
		headers: { 'Content-Type': 'image/svg+xml', 'Cache-Control': 'public, max-age=3600' },
	})
}
