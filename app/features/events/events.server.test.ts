import { describe, expect, it } from 'vitest'
import { dateLabel, excerpt, isPastEvent, mapUrl, markdownToText, safeHttpUrl } from './events.server.ts'

describe('event views', () => {
	it('writes dates the French way, in Paris time (winter and summer)', () => {
		const winter = dateLabel('2026-03-14T19:30:00Z')
		expect(winter.dateTime).toBe('samedi 14 mars 2026 à 20 h 30')
		expect(winter).toMatchObject({ weekday: 'samedi', day: '14', month: 'mars', year: '2026', time: '20 h 30', parisDay: '2026-03-14' })
		expect(dateLabel('2026-07-04T19:00:00Z').dateTime).toBe('samedi 4 juillet 2026 à 21 h')
		// 23:30 UTC on the 31st of May is already the 1st of June in Paris.
		expect(dateLabel('2026-05-31T23:30:00Z')).toMatchObject({ date: 'lundi 1er juin 2026', time: '1 h 30', parisDay: '2026-06-01' })
	})

	it('keeps only plain web links', () => {
		expect(safeHttpUrl('https://billets.exemple.fr/a?b=1')).toBe('https://billets.exemple.fr/a?b=1')
		expect(safeHttpUrl(' http://exemple.fr ')).toBe('http://exemple.fr/')
		for (const bad of [
			'javascript:alert(1)',
			'JaVaScRiPt:alert(1)',
			' javascript:alert(1)',
			'data:text/html,x',
			'/relative',
			'//exemple.fr',
			'ftp://x.fr',
			'',
			null,
		]) {
			expect(safeHttpUrl(bad), String(bad)).toBeNull()
		}
	})

	it('turns Markdown into plain text, and cuts it at a word', () => {
		expect(markdownToText('# Titre\n\nUn **concert** [unique](https://x.fr) avec `code`.\n\n<script>alert(1)</script>')).toBe(
			'Titre\nUn concert unique avec code.\n<script>alert(1)</script>',
		)
		const long = 'mot '.repeat(80)
		const cut = excerpt(long, 160)
		expect(cut.length).toBeLessThanOrEqual(160)
		expect(cut.endsWith('mot…')).toBe(true)
		expect(excerpt('court', 160)).toBe('court')
		// Paragraphs and list items run on as sentences.
		expect(excerpt(markdownToText('Première partie : *Les Voisines*\n\n- Stand de disques\n- Salle accessible'))).toBe(
			'Première partie : Les Voisines. Stand de disques. Salle accessible',
		)
	})

	it('links to OpenStreetMap with the coordinates, or searches the address', () => {
		const place = { venueName: 'La Cigale', address: '120 boulevard de Rochechouart', postalCode: '75018', city: 'Paris', country: 'FR' }
		expect(mapUrl({ ...place, latitude: 48.882, longitude: 2.34 })).toBe(
			'https://www.openstreetmap.org/?mlat=48.882&mlon=2.34#map=17/48.882/2.34',
		)
		expect(mapUrl({ ...place, latitude: null, longitude: null })).toBe(
			`https://www.openstreetmap.org/search?query=${encodeURIComponent('La Cigale, 120 boulevard de Rochechouart, 75018 Paris')}`,
		)
	})

	it('calls a show past once it is over (its end, or two hours after its start)', () => {
		const now = new Date('2026-03-14T22:00:00Z')
		expect(isPastEvent({ startsAt: '2026-03-14T19:30:00Z', endsAt: null }, now)).toBe(true)
		expect(isPastEvent({ startsAt: '2026-03-14T20:30:00Z', endsAt: null }, now)).toBe(false)
		expect(isPastEvent({ startsAt: '2026-03-13T19:30:00Z', endsAt: '2026-03-15T02:00:00Z' }, now)).toBe(false)
	})
})
