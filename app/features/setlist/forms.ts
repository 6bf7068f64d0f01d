import { z } from 'zod'
import { textField } from '#app/platform/text-field.ts'
import { SETLIST_ITEM_KINDS } from '#app/platform/db/schema.ts'
import { MAX_SONG_SECONDS, parseDuration } from './duration.ts'
import { frenchInteger } from '#app/features/site/french-integer.ts'
import { lazyT } from '#app/i18n/schema-messages.ts'

/*
 * The setlist screens' forms: one Zod schema each for the browser's constraints and the server's
 * validation, with their French messages.
 */

export const SONG_LIMITS = { title: 120, originalArtist: 120, musicalKey: 24, notes: 2000, tempoMin: 20, tempoMax: 400 } as const
export const SETLIST_LIMITS = { name: 120, items: 200, label: 120, itemNotes: 300 } as const

/** The forms' messages (keys of translation.json), looked up when a value is refused (app/i18n/schema-messages.ts). */
export const SETLIST_MESSAGES = {
	title: lazyT('setlist.validation.title'),
	titleMax: lazyT('setlist.validation.titleMax', { max: SONG_LIMITS.title }),
	originalArtistMax: lazyT('setlist.validation.originalArtistMax', { max: SONG_LIMITS.originalArtist }),
	duration: lazyT('setlist.validation.duration'),
	durationMax: lazyT('setlist.validation.durationMax'),
	musicalKeyMax: lazyT('setlist.validation.musicalKeyMax', { max: SONG_LIMITS.musicalKey }),
	tempo: lazyT('setlist.validation.tempo', { min: SONG_LIMITS.tempoMin, max: SONG_LIMITS.tempoMax }),
	notesMax: lazyT('setlist.validation.notesMax', { max: frenchInteger(SONG_LIMITS.notes) }),
	name: lazyT('setlist.validation.name'),
	nameMax: lazyT('setlist.validation.nameMax', { max: SETLIST_LIMITS.name }),
	items: lazyT('setlist.validation.items'),
	itemsMax: lazyT('setlist.validation.itemsMax', { max: SETLIST_LIMITS.items }),
	labelMax: lazyT('setlist.validation.labelMax', { max: SETLIST_LIMITS.label }),
	noteEmpty: lazyT('setlist.validation.noteEmpty'),
	itemNotesMax: lazyT('setlist.validation.itemNotesMax', { max: SETLIST_LIMITS.itemNotes }),
	version: lazyT('setlist.validation.version'),
} as const

const M = SETLIST_MESSAGES

/** « 4:05 » → seconds, or a French error; empty is allowed (duration unknown). */
export const durationField = textField()
	.trim()
	.optional()
	.transform((value, ctx) => {
		if (!value) return null
		const seconds = parseDuration(value)
		if (seconds === null) {
			ctx.addIssue({ code: 'custom', message: M.duration() })
			return z.NEVER
		}
		if (seconds > MAX_SONG_SECONDS) {
			ctx.addIssue({ code: 'custom', message: M.durationMax() })
			return z.NEVER
		}
		return seconds
	})

const tempoField = textField()
	.trim()
	.optional()
	.transform((value, ctx) => {
		if (!value) return null
		const tempo = /^\d{1,3}$/.test(value) ? Number(value) : Number.NaN
		if (!(tempo >= SONG_LIMITS.tempoMin && tempo <= SONG_LIMITS.tempoMax)) {
			ctx.addIssue({ code: 'custom', message: M.tempo() })
			return z.NEVER
		}
		return tempo
	})

const optionalText = (max: number, message: () => string) =>
	textField()
		.trim()
		.max(max, { error: message })
		.optional()
		.transform((value) => (value ? value : null))

/** A song of the library, as the form and the CSV import give it. */
export const SongFormSchema = z.object({
	title: textField({ error: M.title }).trim().min(1, { error: M.title }).max(SONG_LIMITS.title, { error: M.titleMax }),
	originalArtist: optionalText(SONG_LIMITS.originalArtist, M.originalArtistMax),
	duration: durationField,
	musicalKey: optionalText(SONG_LIMITS.musicalKey, M.musicalKeyMax),
	tempo: tempoField,
	notes: textField({ multiline: true })
		.max(SONG_LIMITS.notes, { error: M.notesMax })
		.optional()
		.transform((value) => (value ?? '').replace(/\r\n?/g, '\n').trim()),
})
export type SongFormInput = z.input<typeof SongFormSchema>
export type SongValues = z.output<typeof SongFormSchema>

/** An item id as the builder makes them (random, URL-safe); new items carry a fresh one too. */
const itemId = textField().regex(/^[A-Za-z0-9_-]{8,40}$/)

export const SetlistItemSchema = z
	.object({
		id: itemId,
		kind: z.enum(SETLIST_ITEM_KINDS),
		songId: textField().max(40).nullable().optional(),
		label: textField().trim().max(SETLIST_LIMITS.label, { error: M.labelMax }).default(''),
		notes: textField().trim().max(SETLIST_LIMITS.itemNotes, { error: M.itemNotesMax }).default(''),
	})
	.superRefine((item, ctx) => {
		if (item.kind === 'song' && !item.songId) ctx.addIssue({ code: 'custom', message: M.items() })
		if (item.kind === 'note' && !item.label) ctx.addIssue({ code: 'custom', message: M.noteEmpty() })
	})
export type SetlistItemInput = z.output<typeof SetlistItemSchema>

/** The whole setlist as the builder saves it: its name, its items in order, the version it started from. */
export const SetlistSaveSchema = z.object({
	name: textField({ error: M.name }).trim().min(1, { error: M.name }).max(SETLIST_LIMITS.name, { error: M.nameMax }),
	version: z.coerce.number({ error: M.version }).int({ error: M.version }).min(1, { error: M.version }),
	items: textField({ error: M.items })
		.transform((text, ctx) => {
			try {
				return JSON.parse(text) as unknown
			} catch {
				ctx.addIssue({ code: 'custom', message: M.items() })
				return z.NEVER
			}
		})
		.pipe(z.array(SetlistItemSchema, { error: M.items }).max(SETLIST_LIMITS.items, { error: M.itemsMax })),
})

/** A new setlist: just its name (the builder does the rest). */
export const SetlistCreateSchema = z.object({
	name: textField({ error: M.name }).trim().min(1, { error: M.name }).max(SETLIST_LIMITS.name, { error: M.nameMax }),
})
