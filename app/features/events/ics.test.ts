import ical, { type VEvent } from 'node-ical'
import { describe, expect, it } from 'vitest'
import { buildCalendar, escapeText, foldLine, formatUtc, icsFileName } from './ics.ts'

const octets = (line: string) => new TextEncoder().encode(line).length

describe('iCalendar writing (RFC 5545)', () => {
	it('escapes backslashes, semicolons, commas and line breaks in text', () => {
		expect(escapeText('a\\b;c,d\ne\r\nf')).toBe('a\\\\b\\;c\\,d\\ne\\nf')
	})

	it('writes instants in UTC', () => {
		expect(formatUtc(new Date('2026-03-14T19:30:00.000Z'))).toBe('20260314T193000Z')
	})

	it('folds long lines at 75 octets without cutting a character in two', () => {
		const line = `DESCRIPTION:${'é'.repeat(100)}€${'x'.repeat(80)}`
		const folded = foldLine(line)
		const parts = folded.split('\r\n')
		expect(parts.length).toBeGreaterThan(2)
		for (const part of parts) expect(octets(part)).toBeLessThanOrEqual(75)
		for (const part of parts.slice(1)) expect(part.startsWith(' ')).toBe(true)
		expect(parts.map((p, i) => (i === 0 ? p : p.slice(1))).join('')).toBe(line)
		expect(foldLine('SUMMARY:court')).toBe('SUMMARY:court')
	})

	it('builds a calendar that a parser reads back field for field', () => {
		const body = buildCalendar({
			productId: '-//Le Groupe//Site du groupe//FR',
			name: 'Le Groupe en concert',
			events: [
				{
					uid: 'abc@exemple.fr',
					start: new Date('2026-03-14T19:30:00Z'),
					end: new Date('2026-03-14T21:30:00Z'),
					updatedAt: new Date('2026-01-02T10:00:00Z'),
					summary: 'Release party ; « Nuits, fauves » \\ deux',
					location: 'La Cigale, 120 boulevard de Rochechouart, 75018 Paris',
					description: `Première ligne\nDeuxième ligne, avec ; et \\ — ${'long '.repeat(40)}`,
					url: 'https://exemple.fr/events/abc',
					cancelled: true,
					geo: { latitude: 48.882, longitude: 2.34 },
				},
			],
		})
		expect(body.endsWith('\r\n')).toBe(true)
		expect(body.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/)
		for (const line of body.split('\r\n')) expect(octets(line)).toBeLessThanOrEqual(75)
		const parsed = ical.sync.parseICS(body)
		const event = parsed['abc@exemple.fr'] as VEvent
		expect(event.type).toBe('VEVENT')
		expect(event.summary).toBe('Release party ; « Nuits, fauves » \\ deux')
		expect(event.location).toBe('La Cigale, 120 boulevard de Rochechouart, 75018 Paris')
		expect(event.description).toBe(`Première ligne\nDeuxième ligne, avec ; et \\ — ${'long '.repeat(40)}`)
		expect(new Date(event.start as Date).toISOString()).toBe('2026-03-14T19:30:00.000Z')
		expect(new Date(event.end as Date).toISOString()).toBe('2026-03-14T21:30:00.000Z')
		expect(new Date(event.dtstamp as Date).toISOString()).toBe('2026-01-02T10:00:00.000Z')
		expect(event.status).toBe('CANCELLED')
		expect(event.url).toBe('https://exemple.fr/events/abc')
		expect(parsed.vcalendar?.['WR-CALNAME' as never]).toBe('Le Groupe en concert')
	})

	it('names the download after the day and the title, in plain ASCII', () => {
		expect(icsFileName('2026-03-14', 'Fête de la musique : Œuvre « spéciale » !')).toBe('2026-03-14-fete-de-la-musique-oeuvre-speciale.ics')
		expect(icsFileName('2026-03-14', '!!!')).toBe('2026-03-14.ics')
	})
})
