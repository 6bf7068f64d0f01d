import { parse } from 'csv-parse/sync'
import type { Db } from '#app/platform/db/client.server.ts'
import { song } from '#app/platform/db/schema.ts'
import { formatDuration } from './duration.ts'
import { SongFormSchema, type SongValues } from './forms.ts'
import { librarySongKeys, newSetlistId, songKey } from './songs.server.ts'

/*
 * Importing songs from a spreadsheet's CSV. First a preview (what would be created, which lines are
 * refused and why), then the import of exactly what was previewed, in one transaction. Accepts
 * what French spreadsheets write: UTF-8 (with or without BOM) or Windows-1252, separated by `;`,
 * `,` or tabs, with a header line naming the columns in French or English.
 */

export const CSV_MAX_BYTES = 512 * 1024
export const CSV_MAX_ROWS = 2000

export const CSV_MESSAGES = {
	empty: 'Le fichier est vide.',
	tooLarge: 'Le fichier dépasse 512 Ko : coupez-le en plusieurs fichiers.',
	tooManyRows: `Le fichier dépasse ${CSV_MAX_ROWS.toLocaleString('fr-FR')} lignes : coupez-le en plusieurs fichiers.`,
	encoding:
		'Ce fichier n’est pas un texte lisible (UTF-16 ou fichier binaire ?). Dans votre tableur, enregistrez-le au format « CSV UTF-8 ».',
	separator:
		'Les colonnes ne sont pas séparées par un point-virgule, une virgule ou une tabulation, ou la première ligne ne les nomme pas. Elle doit contenir au moins « titre ».',
	noTitle:
		'La première ligne doit nommer les colonnes et contenir au moins « titre » (puis, au choix : artiste original, durée, tonalité, tempo, notes).',
	malformed: 'Ce fichier CSV est mal formé (guillemets non refermés ?) : ligne {{line}}.',
	duplicateInLibrary: 'Déjà dans le répertoire.',
	duplicateInFile: 'En double dans le fichier (ligne {{line}}).',
	columns: 'Cette ligne n’a pas le même nombre de colonnes que l’en-tête.',
} as const

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
			encoding: 'utf-8' | 'windows-1252'
			separator: ';' | ',' | '\t'
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

/** The file's text: UTF-8 first, else Windows-1252 (Excel's French default); null for what is no text. */
export function decodeCsv(bytes: Uint8Array): { text: string; encoding: 'utf-8' | 'windows-1252' } | null {
	if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff) || bytes.includes(0)) return null
	try {
		return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes), encoding: 'utf-8' }
	} catch {
		return { text: new TextDecoder('windows-1252').decode(bytes), encoding: 'windows-1252' }
	}
}

/** The separator the header line uses: the one that splits it into known column names. */
function detectSeparator(headerLine: string): ';' | ',' | '\t' | null {
	let best: { sep: ';' | ',' | '\t'; known: number } | null = null
	for (const sep of [';', ',', '\t'] as const) {
		const known = headerLine.split(sep).filter((cell) => fold(cell.replace(/"/g, '')) in HEADERS).length
		if (known > 0 && (!best || known > best.known)) best = { sep, known }
	}
	return best?.sep ?? null
}

const firstMessage = (issues: { message: string }[]) => issues[0]?.message ?? CSV_MESSAGES.columns

/** What importing this file would do, without doing it. */
export async function previewSongCsv(db: Db, bytes: Uint8Array): Promise<CsvPreview> {
	if (bytes.byteLength === 0) return { ok: false, error: CSV_MESSAGES.empty }
	if (bytes.byteLength > CSV_MAX_BYTES) return { ok: false, error: CSV_MESSAGES.tooLarge }
	const decoded = decodeCsv(bytes)
	if (!decoded) return { ok: false, error: CSV_MESSAGES.encoding }
	const text = decoded.text.replace(/^\uFEFF/, '')
	if (!text.trim()) return { ok: false, error: CSV_MESSAGES.empty }
	const headerLine = text.split(/\r?\n/, 1)[0] ?? ''
	const separator = detectSeparator(headerLine)
	if (!separator) return { ok: false, error: CSV_MESSAGES.separator }

	let records: string[][]
	try {
		records = parse(text, { delimiter: separator, relax_column_count: true, skip_empty_lines: true, bom: true, trim: true }) as string[][]
	} catch (error) {
		const line = (error as { lines?: number }).lines ?? 0
		return { ok: false, error: CSV_MESSAGES.malformed.replace('{{line}}', String(line)) }
	}
	const [header, ...rows] = records
	if (!header) return { ok: false, error: CSV_MESSAGES.empty }
	if (rows.length > CSV_MAX_ROWS) return { ok: false, error: CSV_MESSAGES.tooManyRows }
	const columns = header.map((cell) => HEADERS[fold(cell)] ?? null)
	if (!columns.includes('title')) return { ok: false, error: CSV_MESSAGES.noTitle }

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
			rejected.push({ line, text: raw, reason: CSV_MESSAGES.columns })
			return
		}
		const input: Record<string, string> = {}
		columns.forEach((field, column) => {
			if (field && cells[column] !== undefined && input[field] === undefined) input[field] = cells[column]!
		})
		const parsed = SongFormSchema.safeParse(input)
		if (!parsed.success) {
			rejected.push({ line, text: raw, reason: firstMessage(parsed.error.issues) })
			return
		}
		const key = songKey(parsed.data.title, parsed.data.originalArtist)
		if (known.has(key)) {
			rejected.push({ line, text: raw, reason: CSV_MESSAGES.duplicateInLibrary })
			return
		}
		const earlier = seen.get(key)
		if (earlier !== undefined) {
			rejected.push({ line, text: raw, reason: CSV_MESSAGES.duplicateInFile.replace('{{line}}', String(earlier)) })
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
	return { ok: true, encoding: decoded.encoding, separator, create, rejected, values }
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
