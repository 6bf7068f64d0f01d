import { describe, expect, it } from 'vitest'
import { lowestPrice, musicEventJsonLd, type JsonLdEventInput } from './json-ld.ts'

const base: JsonLdEventInput = {
	title: 'Release party',
	status: 'scheduled',
	startsAt: '2026-03-14T19:30:00.000Z',
	endsAt: null,
	doorsAt: '2026-03-14T18:30:00.000Z',
	previousStartsAt: null,
	venueName: 'La Cigale',
	address: '120 boulevard de Rochechouart',
	postalCode: '75018',
	city: 'Paris',
	country: 'FR',
	latitude: 48.882,
	longitude: 2.34,
	ticketUrl: 'https://billets.exemple.fr/cigale',
	priceText: '22,50 € / 18 € (réduit)',
	description: 'Le concert de sortie du disque.',
	images: ['https://exemple.fr/media/a-1600.jpg'],
	url: 'https://exemple.fr/events/abc',
}
const band = { band: { name: 'Le Groupe', url: 'https://exemple.fr' } }

describe('MusicEvent JSON-LD', () => {
	it('reads the lowest amount of a free-text price', () => {
		expect(lowestPrice('12,50 €')).toBe(12.5)
		expect(lowestPrice('22,50 € / 18 € (réduit)')).toBe(18)
		expect(lowestPrice('1 234,50 €')).toBe(1234.5)
		expect(lowestPrice('Gratuit')).toBe(0)
		expect(lowestPrice('Entrée libre')).toBe(0)
		expect(lowestPrice('Prix libre')).toBe(0)
		expect(lowestPrice('Sur place')).toBeNull()
		expect(lowestPrice(null)).toBeNull()
	})

	it('has what Google requires and recommends for a scheduled show', () => {
		const ld = musicEventJsonLd(base, band)
		expect(ld).toMatchObject({
			'@context': 'https://schema.org',
			'@type': 'MusicEvent',
			name: 'Release party',
			startDate: '2026-03-14T19:30:00.000Z',
			doorTime: '2026-03-14T18:30:00.000Z',
			eventStatus: 'https://schema.org/EventScheduled',
			eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
			location: {
				'@type': 'Place',
				name: 'La Cigale',
				address: {
					'@type': 'PostalAddress',
					streetAddress: '120 boulevard de Rochechouart',
					addressLocality: 'Paris',
					postalCode: '75018',
					addressCountry: 'FR',
				},
				geo: { '@type': 'GeoCoordinates', latitude: 48.882, longitude: 2.34 },
			},
			image: ['https://exemple.fr/media/a-1600.jpg'],
			description: 'Le concert de sortie du disque.',
			offers: {
				'@type': 'Offer',
				url: 'https://billets.exemple.fr/cigale',
				price: '18.00',
				priceCurrency: 'EUR',
				availability: 'https://schema.org/InStock',
			},
			performer: { '@type': 'MusicGroup', name: 'Le Groupe', url: 'https://exemple.fr' },
			organizer: { name: 'Le Groupe', url: 'https://exemple.fr' },
		})
		expect(ld).not.toHaveProperty('previousStartDate')
	})

	it('says a sold-out show is sold out', () => {
		expect(musicEventJsonLd({ ...base, status: 'sold_out' }, band)).toMatchObject({
			eventStatus: 'https://schema.org/EventScheduled',
			offers: { availability: 'https://schema.org/SoldOut' },
		})
	})

	it('gives a postponed show its new date and the previous one', () => {
		const ld = musicEventJsonLd({ ...base, status: 'postponed', previousStartsAt: '2026-02-07T19:30:00.000Z' }, band)
		expect(ld).toMatchObject({
			eventStatus: 'https://schema.org/EventRescheduled',
			startDate: '2026-03-14T19:30:00.000Z',
			previousStartDate: '2026-02-07T19:30:00.000Z',
		})
		// Postponed without a known first date: « postponed », no previous date.
		const unknown = musicEventJsonLd({ ...base, status: 'postponed' }, band)
		expect(unknown.eventStatus).toBe('https://schema.org/EventPostponed')
		expect(unknown).not.toHaveProperty('previousStartDate')
	})

	it('marks a cancelled show and offers nothing for it', () => {
		const ld = musicEventJsonLd({ ...base, status: 'cancelled' }, band)
		expect(ld.eventStatus).toBe('https://schema.org/EventCancelled')
		expect(ld).not.toHaveProperty('offers')
		expect(ld).toHaveProperty('location.address.addressLocality', 'Paris')
	})

	it('keeps an address without a street or coordinates valid', () => {
		const ld = musicEventJsonLd(
			{ ...base, address: null, postalCode: null, latitude: null, longitude: null, ticketUrl: null, priceText: 'Gratuit' },
			band,
		)
		expect(ld.location).toEqual({
			'@type': 'Place',
			name: 'La Cigale',
			address: { '@type': 'PostalAddress', addressLocality: 'Paris', addressCountry: 'FR' },
		})
		expect(ld.offers).toMatchObject({ url: 'https://exemple.fr/events/abc', price: '0.00', priceCurrency: 'EUR' })
	})
})
