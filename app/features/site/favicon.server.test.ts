import { inflateSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { FAVICON_PNG_SIZE, faviconDataUrl, faviconHref, faviconPng, faviconSvg } from './favicon.server.ts'

/** The RGBA pixels of a PNG as favicon-png.server.ts writes it (one IDAT, no row filter). */
function pixels(png: Buffer): { width: number; at: (x: number, y: number) => number[] } {
	expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
	const width = png.readUInt32BE(16)
	const idat = png.indexOf('IDAT')
	const raw = inflateSync(png.subarray(idat + 4, idat + 4 + png.readUInt32BE(idat - 4)))
	return {
		width,
		at: (x, y) => [...raw.subarray(y * (width * 4 + 1) + 1 + x * 4, y * (width * 4 + 1) + 5 + x * 4)],
	}
}

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

	it('is drawn as a PNG too: the ticket in the accent colour, the letter on it, the notches clear', () => {
		const png = faviconPng(band)!
		const { width, at } = pixels(png)
		expect(width).toBe(FAVICON_PNG_SIZE)
		expect(png.length).toBeLessThan(1500)
		expect(at(4, 4)).toEqual([0xff, 0x5a, 0x36, 255]) // the ticket, inside its rounded corner
		expect(at(1, 32)[3]).toBe(0) // the left notch
		expect(at(62, 32)[3]).toBe(0) // the right notch
		expect(at(0, 0)[3]).toBeLessThan(128) // outside the rounded corner
		// Somewhere on the monogram's stems (« LN » at 50 units a letter): the letter's colour.
		const row = Array.from({ length: width }, (_, x) => at(x, 40))
		expect(row.some((pixel) => pixel.join() === '11,11,12,255')).toBe(true)
	})

	it('is a PNG data: URL, the same for the same band; the SVG when a letter is set as text', () => {
		const url = faviconDataUrl(band)
		expect(url).toBe(`data:image/png;base64,${faviconPng(band)!.toString('base64')}`)
		expect(faviconDataUrl({ ...band })).toBe(url)
		expect(Buffer.from(faviconDataUrl({ ...band, accent: '#00aaff' }).split(',')[1]!, 'base64')).toEqual(
			faviconPng({ ...band, accent: '#00aaff' }),
		)
		expect(faviconPng({ ...band, name: 'Жара' })).toBeNull()
		const text = faviconDataUrl({ ...band, name: 'Жара' })
		expect(text.startsWith('data:image/svg+xml,')).toBe(true)
		expect(decodeURIComponent(text.slice('data:image/svg+xml,'.length))).toBe(faviconSvg({ ...band, name: 'Жара' }))
	})

	it('has an address named after its drawing, for the pages that link it', () => {
		const href = faviconHref(band)
		expect(href).toMatch(/^\/favicon\.svg\?v=[\w-]{10}$/)
		expect(faviconHref({ ...band })).toBe(href)
		expect(faviconHref({ ...band, accent: '#00aaff' })).not.toBe(href)
		expect(faviconHref({ ...band, name: 'Autre Groupe' })).not.toBe(href)
	})
})
