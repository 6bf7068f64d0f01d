import type { SetlistItemKind } from '#app/platform/db/schema.ts'

/*
 * A setlist read as the stage and the public read it: sets (the main set, then each named break),
 * encores, songs numbered through the whole show, and the duration of each part and of the whole.
 * Pure, so that the builder (in the browser), the stage views and the public page agree.
 */

export interface SectionItem {
	id: string
	kind: SetlistItemKind
	label: string
	notes: string
	song: {
		id: string
		title: string
		originalArtist: string | null
		durationSeconds: number | null
		musicalKey: string | null
		tempo: number | null
	} | null
}

export interface Section<T extends SectionItem = SectionItem> {
	/** `main` for what comes before the first break. */
	kind: 'main' | 'set' | 'encore'
	/** The break's name (« Set acoustique »); empty for the main set and unnamed breaks. */
	label: string
	/** 1 for the first encore, 2 for the second…; 0 otherwise. */
	encoreNumber: number
	/** The break item itself (its notes), when there is one. */
	breakItem: T | null
	/** Songs and notes of this part, with each song's number in the show. */
	entries: Array<{ item: T; number: number | null }>
	/** The known durations of its songs, added up. */
	durationSeconds: number
	/** Songs without a known duration (the total is then a lower bound). */
	unknownDurations: number
}

export interface SetlistSummary<T extends SectionItem = SectionItem> {
	sections: Section<T>[]
	songCount: number
	durationSeconds: number
	unknownDurations: number
}

/** Cuts ordered items into parts; an empty main set (the list opens on a break) is dropped. */
export function sectionsOf<T extends SectionItem>(items: readonly T[]): SetlistSummary<T> {
	const sections: Section<T>[] = [
		{ kind: 'main', label: '', encoreNumber: 0, breakItem: null, entries: [], durationSeconds: 0, unknownDurations: 0 },
	]
	let number = 0
	let encores = 0
	for (const item of items) {
		if (item.kind === 'set' || item.kind === 'encore') {
			if (item.kind === 'encore') encores += 1
			sections.push({
				kind: item.kind,
				label: item.label.trim(),
				encoreNumber: item.kind === 'encore' ? encores : 0,
				breakItem: item,
				entries: [],
				durationSeconds: 0,
				unknownDurations: 0,
			})
			continue
		}
		const current = sections.at(-1)!
		if (item.kind === 'song') {
			number += 1
			current.entries.push({ item, number })
			if (item.song?.durationSeconds) current.durationSeconds += item.song.durationSeconds
			else current.unknownDurations += 1
		} else {
			current.entries.push({ item, number: null })
		}
	}
	const kept = sections.filter((section, index) => index > 0 || section.entries.length > 0)
	return {
		sections: kept,
		songCount: number,
		durationSeconds: kept.reduce((sum, s) => sum + s.durationSeconds, 0),
		unknownDurations: kept.reduce((sum, s) => sum + s.unknownDurations, 0),
	}
}
