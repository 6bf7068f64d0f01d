import { describe, expect, it } from 'vitest'
import { formatDuration, formatTotal, parseDuration } from './duration.ts'
import { sectionsOf, type SectionItem } from './sections.ts'

describe('durations', () => {
	it('reads what musicians write and refuses the rest', () => {
		expect(parseDuration('4:05')).toBe(245)
		expect(parseDuration(' 04:05 ')).toBe(245)
		expect(parseDuration('4’05')).toBe(245)
		expect(parseDuration('1:02:30')).toBe(3750)
		for (const bad of ['7:99', '4:5', '4', 'abc', '', '0:00', '1:75:00', '-3:00']) expect(parseDuration(bad), bad).toBeNull()
	})

	it('writes them back, and totals in French words', () => {
		expect(formatDuration(245)).toBe('4:05')
		expect(formatDuration(3750)).toBe('1:02:30')
		expect(formatTotal(45)).toBe('45 s')
		expect(formatTotal(47 * 60)).toBe('47 min')
		expect(formatTotal(72 * 60)).toBe('1 h 12')
		expect(formatTotal(120 * 60)).toBe('2 h')
	})
})

describe('sections of a setlist', () => {
	const song = (id: string, seconds: number | null): SectionItem => ({
		id,
		kind: 'song',
		label: '',
		notes: '',
		song: { id, title: id, originalArtist: null, durationSeconds: seconds, musicalKey: null, tempo: null },
	})
	const cut = (id: string, kind: 'set' | 'encore' | 'note', label = ''): SectionItem => ({ id, kind, label, notes: '', song: null })

	it('numbers songs through the show, counts each part and the whole', () => {
		const summary = sectionsOf([
			song('a', 200),
			cut('n', 'note', 'accordage'),
			song('b', null),
			cut('s', 'set', 'Acoustique'),
			song('c', 100),
			cut('e1', 'encore'),
			song('d', 60),
			cut('e2', 'encore'),
			song('e', 60),
		])
		expect(summary.songCount).toBe(5)
		expect(summary.durationSeconds).toBe(420)
		expect(summary.unknownDurations).toBe(1)
		expect(summary.sections.map((s) => [s.kind, s.label, s.encoreNumber, s.durationSeconds, s.entries.map((e) => e.number)])).toEqual([
			['main', '', 0, 200, [1, null, 2]],
			['set', 'Acoustique', 0, 100, [3]],
			['encore', '', 1, 60, [4]],
			['encore', '', 2, 60, [5]],
		])
	})

	it('drops an empty main set when the list opens on a break', () => {
		expect(sectionsOf([cut('s', 'set', 'Intro'), song('a', 10)]).sections.map((s) => s.kind)).toEqual(['set'])
	})
})
