/*
 * Song durations as musicians write them: « 4:05 » (minutes:seconds) or « 1:02:30 » for a long
 * piece. Stored in seconds. Shared by the forms, the CSV import and every view of a setlist.
 */

/** The longest song a form accepts: 99 minutes 59 seconds. */
export const MAX_SONG_SECONDS = 99 * 60 + 59

/**
 * « 4:05 », « 04:05 », « 1:02:30 » → seconds. Null for anything else: « 7:99 » (no 99th second),
 * « 4 », « 4:5 », « abc », an empty text. Also accepts the typographic prime or a dot (« 4'05 »,
 * « 4.05 ») that spreadsheets leave behind.
 */
export function parseDuration(text: string): number | null {
	const value = text.trim().replace(/[’'′.]/g, ':')
	const match = /^(?:(\d{1,2}):)?(\d{1,2}):(\d{2})$/.exec(value)
	if (!match) return null
	const hours = match[1] === undefined ? 0 : Number(match[1])
	const minutes = Number(match[2])
	const seconds = Number(match[3])
	if (seconds > 59) return null
	if (match[1] !== undefined && minutes > 59) return null
	const total = hours * 3600 + minutes * 60 + seconds
	return total > 0 ? total : null
}

/** Seconds → « 4:05 » (or « 1:02:30 »), as a musician reads it on a setlist. */
export function formatDuration(totalSeconds: number): string {
	const seconds = Math.max(0, Math.round(totalSeconds))
	const h = Math.floor(seconds / 3600)
	const m = Math.floor((seconds % 3600) / 60)
	const s = String(seconds % 60).padStart(2, '0')
	return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`
}

/** Seconds → « 1 h 12 min », « 47 min », « 45 s »: a total, in French words. */
export function formatTotal(totalSeconds: number): string {
	const seconds = Math.max(0, Math.round(totalSeconds))
	if (seconds < 60) return `${seconds} s`
	const minutes = Math.round(seconds / 60)
	const h = Math.floor(minutes / 60)
	const m = minutes % 60
	if (h === 0) return `${m} min`
	return m === 0 ? `${h} h` : `${h} h ${String(m).padStart(2, '0')}`
}
