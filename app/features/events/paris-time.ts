/*
 * Europe/Paris wall-clock time ↔ instants, for <input type="datetime-local"> (whose value,
 * « 2026-03-14T20:30 », has no time zone). Pure and small: the editor uses it in the browser to
 * warn about a date in the past, the server to read and fill the form.
 *
 * Daylight saving time, both ways:
 * - in spring one hour does not exist (29 March 2026, 02:00 → 03:00): a time inside the gap is
 *   moved forward by the gap's length (02:30 → 03:30 CEST), as clocks and `Temporal` do;
 * - in autumn one hour happens twice (25 October 2026, 02:00 → 03:00 twice): the first one
 *   (summer time, CEST) is taken, the earlier instant.
 */
import { SITE_TIME_ZONE } from '#app/platform/time-zone.ts'

export const PARIS_TIME_ZONE = SITE_TIME_ZONE

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE

const partsFormat = new Intl.DateTimeFormat('en-GB', {
	timeZone: PARIS_TIME_ZONE,
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
