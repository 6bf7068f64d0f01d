import { z } from 'zod'
import { textField } from '#app/platform/text-field.ts'
import { SETLIST_ITEM_KINDS } from '#app/platform/db/schema.ts'
import { MAX_SONG_SECONDS, parseDuration } from './duration.ts'
import { frenchInteger } from '#app/features/site/french-integer.ts'

/*
 * The setlist screens' forms: one Zod schema each for the browser's constraints and the server's
 * validation, with their French messages.
 */

export const SONG_LIMITS = { title: 120, originalArtist: 120, musicalKey: 24, notes: 2000, tempoMin: 20, tempoMax: 400 } as const
export const SETLIST_LIMITS = { name: 120, items: 200, label: 120, itemNotes: 300 } as const

export const SETLIST_MESSAGES = {
	title: 'Donnez un titre au morceau.',
	titleMax: `Le titre ne peut pas dépasser ${SONG_LIMITS.title} caractères.`,
	originalArtistMax: `Le nom de l’artiste ne peut pas dépasser ${SONG_LIMITS.originalArtist} caractères.`,
	duration: 'Écrivez la durée en minutes et secondes, par exemple 4:05 (les secondes vont de 00 à 59).',
	durationMax: 'Une durée ne peut pas dépasser 99:59.',
	musicalKeyMax: `La tonalité ne peut pas dépasser ${SONG_LIMITS.musicalKey} caractères.`,
	tempo: `Le tempo est un nombre entier de battements par minute, entre ${SONG_LIMITS.tempoMin} et ${SONG_LIMITS.tempoMax}.`,
	notesMax: `Les notes ne peuvent pas dépasser ${frenchInteger(SONG_LIMITS.notes)} caractères.`,
	name: 'Donnez un nom à la setlist.',
	nameMax: `Le nom ne peut pas dépasser ${SETLIST_LIMITS.name} caractères.`,
	items: 'La liste des morceaux envoyée est illisible : rechargez la page.',
	itemsMax: `Une setlist ne peut pas dépasser ${SETLIST_LIMITS.items} lignes.`,
	labelMax: `Le nom d’une pause ou le texte d’une note ne peut pas dépasser ${SETLIST_LIMITS.label} caractères.`,
	noteEmpty: 'Une note libre ne peut pas être vide (par exemple « accordage »).',
	itemNotesMax: `Une remarque ne peut pas dépasser ${SETLIST_LIMITS.itemNotes} caractères.`,
	version: 'Rechargez la page : la version de la setlist manque.',
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
			ctx.addIssue({ code: 'custom', message: M.duration })
			return z.NEVER
		}
		if (seconds > MAX_SONG_SECONDS) {
			ctx.addIssue({ code: 'custom', message: M.durationMax })
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
			ctx.addIssue({ code: 'custom', message: M.tempo })
			return z.NEVER
		}
		return tempo
	})

const optionalText = (max: number, message: string) =>
	textField()
		.trim()
		.max(max, message)
		.optional()
		.transform((value) => (value ? value : null))

/** A song of the library, as the form and the CSV import give it. */
export const SongFormSchema = z.object({
	title: textField({ error: M.title }).trim().min(1, M.title).max(SONG_LIMITS.title, M.titleMax),
	originalArtist: optionalText(SONG_LIMITS.originalArtist, M.originalArtistMax),
	duration: durationField,
	musicalKey: optionalText(SONG_LIMITS.musicalKey, M.musicalKeyMax),
	tempo: tempoField,
	notes: textField({ multiline: true })
		.max(SONG_LIMITS.notes, M.notesMax)
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
		label: textField().trim().max(SETLIST_LIMITS.label, M.labelMax).default(''),
		notes: textField().trim().max(SETLIST_LIMITS.itemNotes, M.itemNotesMax).default(''),
	})
	.superRefine((item, ctx) => {
		if (item.kind === 'song' && !item.songId) ctx.addIssue({ code: 'custom', message: M.items })
		if (item.kind === 'note' && !item.label) ctx.addIssue({ code: 'custom', message: M.noteEmpty })
	})
export type SetlistItemInput = z.output<typeof SetlistItemSchema>

/** The whole setlist as the builder saves it: its name, its items in order, the version it started from. */
export const SetlistSaveSchema = z.object({
	name: textField({ error: M.name }).trim().min(1, M.name).max(SETLIST_LIMITS.name, M.nameMax),
	version: z.coerce.number({ error: M.version }).int(M.version).min(1, M.version),
	items: textField({ error: M.items })
		.transform((text, ctx) => {
			try {
				return JSON.parse(text) as unknown
			} catch {
				ctx.addIssue({ code: 'custom', message: M.items })
				return z.NEVER
			}
		})
		.pipe(z.array(SetlistItemSchema, { error: M.items }).max(SETLIST_LIMITS.items, M.itemsMax)),
})

/** A new setlist: just its name (the builder does the rest). */
export const SetlistCreateSchema = z.object({
	name: textField({ error: M.name }).trim().min(1, M.name).max(SETLIST_LIMITS.name, M.nameMax),
})
