/*
 * The site's one time zone, and everything that depends on it: every date is entered, shown,
 * scheduled and cut into days in Paris time (docs/decisions/0006-paris-time.md). Pure and small, so
 * the browser and the server share it (drizzle's `sql` is only reached by the server's queries).
 *
 * - wall-clock time ↔ instants, for <input type="datetime-local"> (whose value, « 2026-03-14T20:30 »,
 *   has no time zone);
 * - the Paris day, « 2026-03-14 », in JavaScript and as SQL fragments;
 * - French dates and times: « samedi 1er juin 2026 », « 20 h 30 ».
 *
 * Daylight saving time, both ways:
 * - in spring one hour does not exist (29 March 2026, 02:00 → 03:00): a time inside the gap is
 *   moved forward by the gap's length (02:30 → 03:30 CEST), as clocks and `Temporal` do;
 * - in autumn one hour happens twice (25 October 2026, 02:00 → 03:00 twice): the first one
 *   (summer time, CEST) is taken, the earlier instant.
 */
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm'
import { lazyT } from '#app/i18n/schema-messages.ts'

export const SITE_TIME_ZONE = 'Europe/Paris'

// ---------------------------------------------------------------------------------------------
// Wall clock ↔ instants

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE

const partsFormat = new Intl.DateTimeFormat('en-GB', {
	timeZone: SITE_TIME_ZONE,
	hourCycle: 'h23',
	year: 'numeric',
	month: '2-digit',
	day: '2-digit',
	hour: '2-digit',
	minute: '2-digit',
	second: '2-digit',
})

interface WallClock {
	year: number
	month: number
	day: number
	hour: number
	minute: number
}

/** The wall clock of Paris at an instant (to the second: the seconds are dropped by callers). */
function parisParts(instant: number): WallClock & { second: number } {
	const parts: Record<string, number> = {}
	for (const part of partsFormat.formatToParts(new Date(instant))) {
		if (part.type !== 'literal') parts[part.type] = Number(part.value)
	}
	return {
		year: parts.year!,
		month: parts.month!,
		day: parts.day!,
		hour: parts.hour! % 24,
		minute: parts.minute!,
		second: parts.second!,
	}
}

/** Paris's offset from UTC at an instant, in minutes (+60 in winter, +120 in summer). */
export function parisOffsetMinutes(instant: Date | number): number {
	const at = typeof instant === 'number' ? instant : instant.getTime()
	const whole = Math.floor(at / 1000) * 1000
	const p = parisParts(whole)
	return Math.round((Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - whole) / MINUTE)
}

const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?$/

/** Reads « 2026-03-14T20:30 » (seconds allowed, and ignored); null if it is not a real date and time. */
export function parseWallClock(value: string): WallClock | null {
	const match = WALL_CLOCK.exec(value.trim())
	if (!match) return null
	const [year, month, day, hour, minute] = match.slice(1, 6).map(Number) as [number, number, number, number, number]
	if (year < 1000 || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59) return null
	// 31 February and friends: the calendar must give the same day back.
	const check = new Date(Date.UTC(year, month - 1, day))
	if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null
	return { year, month, day, hour, minute }
}

/**
 * The instant of a Paris wall-clock time, as typed in a datetime-local field; null when the value
 * is not a valid date and time.
 */
export function parisWallClockToInstant(value: string): Date | null {
	const wall = parseWallClock(value)
	if (!wall) return null
	const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute)
	// The offsets in force around that day: the same one twice, or the two sides of a change.
	const offsets = [...new Set([parisOffsetMinutes(asUtc - DAY), parisOffsetMinutes(asUtc + DAY)])]
	const matching = offsets
		.map((offset) => asUtc - offset * MINUTE)
		.filter((instant) => parisOffsetMinutes(instant) * MINUTE === asUtc - instant)
	if (matching.length > 0) return new Date(Math.min(...matching))
	// In the spring gap: read it with the offset before the change, which lands after the gap.
	return new Date(asUtc - parisOffsetMinutes(asUtc - DAY) * MINUTE)
}

const pad = (value: number, length = 2) => String(value).padStart(length, '0')

/** The value of a datetime-local field for an instant, in Paris: « 2026-03-14T20:30 ». */
export function instantToParisWallClock(instant: Date | string | number): string {
	const p = parisParts(new Date(instant).getTime())
	return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}`
}

// ---------------------------------------------------------------------------------------------
// Paris days, « YYYY-MM-DD » (what the stats count by, what file names are dated with)

/** The Paris calendar day of an instant. */
export function parisDay(date: Date | string | number = new Date()): string {
	const p = parisParts(new Date(date).getTime())
	return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}`
}

const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/

/** A real calendar day written YYYY-MM-DD, or null. */
export function parseDay(value: string | null | undefined): string | null {
	const match = value ? DAY_RE.exec(value) : null
	if (!match) return null
	const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])))
	return date.toISOString().slice(0, 10) === value ? value : null
}

/** The day `n` days after `day` (negative: before). */
export function addDays(day: string, n: number): string {
	const date = new Date(`${day}T00:00:00Z`)
	date.setUTCDate(date.getUTCDate() + n)
	return date.toISOString().slice(0, 10)
}

/** The noon of a Paris day written YYYY-MM-DD: an instant inside it, to write the day with the formats below. */
export function parisNoon(day: string): Date {
	return parisWallClockToInstant(`${day}T12:00`) ?? new Date(Number.NaN)
}

/** Days from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): string[] {
	const days: string[] = []
	for (let day = from; day <= to; day = addDays(day, 1)) days.push(day)
	return days
}

// The same days in SQL. The zone is written into the statement, not bound as a parameter: the
// same expression in SELECT and GROUP BY must be the same text for PostgreSQL to match them. Made
// on each call, not at load: the browser's bundle, which never calls these, then leaves drizzle out.
const zone = () => sql.raw(`'${SITE_TIME_ZONE}'`)

/** The Paris date (`date`) of a timestamp with time zone. */
export function sqlParisDate(instant: SQLWrapper): SQL<string> {
	return sql<string>`(${instant} at time zone ${zone()})::date`
}

/** The Paris day of a timestamp with time zone, as text YYYY-MM-DD. */
export function sqlParisDay(instant: SQLWrapper): SQL<string> {
	return sql<string>`to_char(${sqlParisDate(instant)}, 'YYYY-MM-DD')`
}

/** The instant (timestamp with time zone) of midnight in Paris starting a day, given as YYYY-MM-DD or a `date`. */
export function sqlParisMidnight(day: SQLWrapper | string): SQL<Date> {
	return sql<Date>`(${day}::timestamp at time zone ${zone()})`
}

// ---------------------------------------------------------------------------------------------
// French dates and times

const longNames = new Intl.DateTimeFormat('fr-FR', { weekday: 'long', day: 'numeric', month: 'long', timeZone: SITE_TIME_ZONE })
const shortNames = new Intl.DateTimeFormat('fr-FR', { weekday: 'short', day: 'numeric', month: 'short', timeZone: SITE_TIME_ZONE })

export interface ParisDate {
	/** « samedi » */
	weekday: string
	/** « sam. » */
	weekdayShort: string
	/** « 14 », « 1 » */
	day: string
	/** « 14 », « 1er »: French writes the first of the month as an ordinal. */
	dayWord: string
	/** « mars » */
	month: string
	/** « mars », « avr. », « juil. » */
	monthShort: string
	/** « 2026 » */
	year: string
	/** « 20 h 30 », « 21 h », « 0 h 15 » */
	time: string
	/** « 2026-03-14 » */
	parisDay: string
}

const namePart = (format: Intl.DateTimeFormat, date: Date, type: 'weekday' | 'month') =>
	format.formatToParts(date).find((part) => part.type === type)?.value ?? ''

function parisDateOf(date: Date): ParisDate {
	const instant = date.getTime()
	if (Number.isNaN(instant)) throw new RangeError('Invalid time value')
	const p = parisParts(instant)
	return {
		weekday: namePart(longNames, date, 'weekday'),
		weekdayShort: namePart(shortNames, date, 'weekday'),
		day: String(p.day),
		dayWord: p.day === 1 ? '1er' : String(p.day),
		month: namePart(longNames, date, 'month'),
		monthShort: namePart(shortNames, date, 'month'),
		year: String(p.year),
		time: p.minute === 0 ? `${p.hour} h` : `${p.hour} h ${pad(p.minute)}`,
		parisDay: `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}`,
	}
}

/*
 * The same few dates come back on every page (an event's, « membre depuis le … »), and Intl's
 * formatting in a named time zone costs some 2 µs a call: the parts of the last 500 instants
 * asked for are kept. By hand, not lru-cache: this runs in the browser too
 * (docs/decisions/0030-date-format-memory-by-hand.md).
 */
const known = new Map<number, ParisDate>()

/** An instant's date and time in Paris, in French words. */
export function parisDate(value: Date | string | number): ParisDate {
	const date = new Date(value)
	let parts = known.get(date.getTime())
	if (parts === undefined) {
		parts = parisDateOf(date)
		if (known.size >= 500) known.clear()
		known.set(date.getTime(), parts)
	}
	return parts
}

/** « samedi 14 mars 2026 », « lundi 1er juin 2026 » */
export function formatDate(value: Date | string): string {
	const d = parisDate(value)
	return `${d.weekday} ${d.dayWord} ${d.month} ${d.year}`
}

/** « 14 mars 2026 », « 1er juin 2026 » (no weekday: for dates in a sentence, « membre depuis le … ») */
export function formatDay(value: Date | string): string {
	const d = parisDate(value)
	return `${d.dayWord} ${d.month} ${d.year}`
}

/** « sam. 14 mars 2026 », « lun. 1er juin 2026 » (tables) */
export function formatShortDate(value: Date | string): string {
	const d = parisDate(value)
	return `${d.weekdayShort} ${d.dayWord} ${d.monthShort} ${d.year}`
}

/** « 14 mars 2026 », « 1er janv. 2026 » (a date beside a title) */
export function formatShortDay(value: Date | string): string {
	const d = parisDate(value)
	return `${d.dayWord} ${d.monthShort} ${d.year}`
}

/** « 20 h 30 », « 21 h » */
export function formatTime(value: Date | string): string {
	return parisDate(value).time
}

/** « samedi 14 mars 2026 à 20 h 30 » */
export function formatDateTime(value: Date | string): string {
	// The words between are the locale file's, for the server and the browser alike.
	return lazyT('common.dateAtTime', { date: formatDate(value), time: formatTime(value) })()
}
