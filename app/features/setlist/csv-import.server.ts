import { csvErrorLine, csvRecords, readCsv, type CsvDelimiter, type CsvEncoding } from '#app/platform/csv-in.server.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import { song } from '#app/platform/db/schema.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { formatDuration } from './duration.ts'
import { SongFormSchema, type SongValues } from './forms.ts'
import { librarySongKeys, newSetlistId, songKey } from './songs.server.ts'

/*
 * Importing songs from a spreadsheet's CSV. First a preview (what would be created, which lines are
 * refused and why), then the import of exactly what was previewed, in one transaction. The file
 * is read by the site's one CSV reader (encodings and delimiters: app/platform/csv-in.server.ts),
 * with a header line naming the columns in French or English.
 */

export const CSV_MAX_BYTES = 512 * 1024
export const CSV_MAX_ROWS = 2000

/** What the import says when it refuses the file, or one of its lines (French, from the locale file). */
export function csvMessages() {
	const t = getT()
	return {
		empty: t('admin.csv.empty'),
		tooLarge: t('setlist.import.errors.tooLarge'),
		tooManyRows: t('setlist.import.errors.tooManyRows', { max: CSV_MAX_ROWS.toLocaleString('fr-FR') }),
		encoding: t('admin.csv.encoding'),
		separator: t('setlist.import.errors.separator'),
		noTitle: t('setlist.import.errors.noTitle'),
		malformed: (line: number) => t('admin.csv.malformed', { line }),
		duplicateInLibrary: t('setlist.import.errors.duplicateInLibrary'),
		duplicateInFile: (line: number) => t('setlist.import.errors.duplicateInFile', { line }),
		columns: t('setlist.import.errors.columns'),
	}
}

/** Column names understood in the header (folded: lower case, no accents, no spaces or dashes). */
const HEADERS: Record<string, keyof typeof FIELD> = {
	titre: 'title',
	title: 'title',
	morceau: 'title',
	chanson: 'title',
	artisteoriginal: 'originalArtist',
	artiste: 'originalArtist',
	reprisede: 'originalArtist',
	originalartist: 'originalArtist',
	artist: 'originalArtist',
	duree: 'duration',
	duration: 'duration',
	tonalite: 'musicalKey',
	cle: 'musicalKey',
	key: 'musicalKey',
	tempo: 'tempo',
	bpm: 'tempo',
	notes: 'notes',
	note: 'notes',
	remarques: 'notes',
}
const FIELD = { title: 0, originalArtist: 0, duration: 0, musicalKey: 0, tempo: 0, notes: 0 } as const

export interface CsvPreviewRow {
	line: number
	title: string
	originalArtist: string | null
	duration: string | null
	musicalKey: string | null
	tempo: number | null
}

export interface CsvRejectedRow {
	line: number
	text: string
	reason: string
}

export type CsvPreview =
	| {
			ok: true
			encoding: CsvEncoding
			separator: CsvDelimiter
			create: CsvPreviewRow[]
			rejected: CsvRejectedRow[]
			values: SongValues[]
	  }
	| { ok: false; error: string }

const fold = (text: string) =>
	text
		.normalize('NFD')
		.replace(/\p{M}/gu, '')
		.toLowerCase()
		.replace(/[\s_'’-]/g, '')

/** What importing this file would do, without doing it. */
export async function previewSongCsv(db: Db, bytes: Uint8Array): Promise<CsvPreview> {
	const messages = csvMessages()
	if (bytes.byteLength === 0) return { ok: false, error: messages.empty }
	if (bytes.byteLength > CSV_MAX_BYTES) return { ok: false, error: messages.tooLarge }
	const file = readCsv(bytes)
	if (!file) return { ok: false, error: messages.encoding }
	if (!file.text.trim()) return { ok: false, error: messages.empty }
	const records: string[][] = []
	try {
		for await (const record of csvRecords(file)) {
			records.push(record)
			if (records.length > CSV_MAX_ROWS + 1) return { ok: false, error: messages.tooManyRows }
		}
	} catch (error) {
		return { ok: false, error: messages.malformed(csvErrorLine(error)) }
	}
	const [header, ...rows] = records
	if (!header) return { ok: false, error: messages.empty }
	const columns = header.map((cell) => HEADERS[fold(cell)] ?? null)
	// No title column: on a first line without any delimiter, the delimiter is the likelier mistake.
	if (!columns.includes('title')) return { ok: false, error: file.delimiter ? messages.noTitle : messages.separator }
	const separator = file.delimiter ?? ';'

	const known = await librarySongKeys(db)
	const seen = new Map<string, number>()
	const create: CsvPreviewRow[] = []
	const rejected: CsvRejectedRow[] = []
	const values: SongValues[] = []
	rows.forEach((cells, index) => {
		// Line numbers as a spreadsheet shows them: the header is line 1.
		const line = index + 2
		const raw = cells.join(separator === '\t' ? ' ⇥ ' : ` ${separator} `)
		if (cells.length > header.length) {
			rejected.push({ line, text: raw, reason: messages.columns })
			return
		}
		const input: Record<string, string> = {}
		columns.forEach((field, column) => {
			if (field && cells[column] !== undefined && input[field] === undefined) input[field] = cells[column]!
		})
		const parsed = SongFormSchema.safeParse(input)
		if (!parsed.success) {
			rejected.push({ line, text: raw, reason: parsed.error.issues[0]?.message ?? messages.columns })
			return
		}
		const key = songKey(parsed.data.title, parsed.data.originalArtist)
		if (known.has(key)) {
			rejected.push({ line, text: raw, reason: messages.duplicateInLibrary })
			return
		}
		const earlier = seen.get(key)
		if (earlier !== undefined) {
			rejected.push({ line, text: raw, reason: messages.duplicateInFile(earlier) })
			return
		}
		seen.set(key, line)
		values.push(parsed.data)
		create.push({
			line,
			title: parsed.data.title,
			originalArtist: parsed.data.originalArtist,
			duration: parsed.data.duration === null ? null : formatDuration(parsed.data.duration),
			musicalKey: parsed.data.musicalKey,
			tempo: parsed.data.tempo,
		})
	})
	return { ok: true, encoding: file.encoding, separator, create, rejected, values }
}

/**
 * Imports the file: the preview is worked out again from the same bytes (nothing the browser says
 * about it is trusted) and every accepted line is created in one transaction. Returns how many.
 */
export async function importSongCsv(
	db: Db,
	bytes: Uint8Array,
): Promise<{ ok: true; created: number; rejected: number } | { ok: false; error: string }> {
	const preview = await previewSongCsv(db, bytes)
	if (!preview.ok) return preview
	if (preview.values.length > 0) {
		await db.transaction(async (tx) => {
			for (let start = 0; start < preview.values.length; start += 500) {
				await tx.insert(song).values(
					preview.values.slice(start, start + 500).map((v) => ({
						id: newSetlistId(),
						title: v.title,
						originalArtist: v.originalArtist,
						durationSeconds: v.duration,
						musicalKey: v.musicalKey,
						tempo: v.tempo,
						notes: v.notes,
					})),
				)
			}
		})
	}
	return { ok: true, created: preview.values.length, rejected: preview.rejected.length }
}
