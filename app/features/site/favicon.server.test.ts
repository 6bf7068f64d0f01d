import { describe, expect, it } from 'vitest'
import { faviconDataUrl, faviconHref, faviconSvg } from './favicon.server.ts'

const band = { name: 'Les Nuits Fauves', accent: '#ff5a36', onAccent: '#0b0b0c' }

describe('the tab icon', () => {
	it('draws the monogram as outlines on the ticket, in the band’s colours, with no text', () => {
		const svg = faviconSvg(band)
		expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 100 100"><path d="M12 0H88[^"]*" fill="#ff5a36"\/>/)
		expect(svg).toContain('<g fill="#0b0b0c">')
		expect(svg.match(/<path transform=/g)).toHaveLength(2)
		expect(svg).not.toContain('<text')
	})

	it('sets as text, escaped, a letter Anton’s capitals lack', () => {
		const svg = faviconSvg({ ...band, name: 'Жара' })
		expect(svg).toContain('>Ж</text>')
		expect(faviconSvg({ ...band, name: '<b>' })).not.toContain('<b>')
	})

	it('is a data: URL, the same for the same band', () => {
		const url = faviconDataUrl(band)
		expect(url.startsWith('data:image/svg+xml,')).toBe(true)
		expect(decodeURIComponent(url.slice('data:image/svg+xml,'.length))).toBe(faviconSvg(band))
		expect(faviconDataUrl({ ...band })).toBe(url)
		expect(faviconDataUrl({ ...band, accent: '#00aaff' })).toContain(encodeURIComponent('#00aaff'))
	})

	it('has an address named after its drawing, for the pages that link it', () => {
		const href = faviconHref(band)
		expect(href).toMatch(/^\/favicon\.svg\?v=[\w-]{10}$/)
		expect(faviconHref({ ...band })).toBe(href)
		expect(faviconHref({ ...band, accent: '#00aaff' })).not.toBe(href)
		expect(faviconHref({ ...band, name: 'Autre Groupe' })).not.toBe(href)
	})
})
