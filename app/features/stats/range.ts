import { addDays, daysBetween, formatDay, parisDay, parisNoon, parseDay } from '#app/platform/time-zone.ts'
import type { TFunction } from '#app/i18n/translate.ts'

/*
 * The period the stats screen shows: the last 7, 30 or 90 days (today included), or custom dates.
 * Custom periods are clamped (not before the earliest day kept, not after today, at most
 * MAX_RANGE_DAYS long) and reversed dates are refused, in French.
 */
export const PRESETS = ['7', '30', '90'] as const
export type Preset = (typeof PRESETS)[number]
export const MAX_RANGE_DAYS = 366

export interface StatsRange {
	preset: Preset | 'custom'
	from: string
	to: string
	days: string[]
}

export type RangeResult = { range: StatsRange; notice: string | null; error: string | null }

export function readRange(params: URLSearchParams, t: TFunction, today: string = parisDay()): RangeResult {
	const preset = params.get('periode')
	const fallback = (): StatsRange => presetRange('30', today)
	if (preset !== 'perso') {
		const chosen = PRESETS.includes(preset as Preset) ? (preset as Preset) : '30'
		return { range: presetRange(chosen, today), notice: null, error: null }
	}
	const rawFrom = params.get('du')
	const rawTo = params.get('au')
	let from = parseDay(rawFrom)
	let to = parseDay(rawTo)
	if (!from || !to) {
		return { range: fallback(), notice: null, error: t('stats.range.invalid') }
	}
	if (from > to) {
		return { range: fallback(), notice: null, error: t('stats.range.order') }
	}
	let notice: string | null = null
	if (to > today) {
		to = today
		notice = t('stats.range.untilToday')
	}
	if (from > to) from = to
	const earliest = addDays(to, -(MAX_RANGE_DAYS - 1))
	if (from < earliest) {
		from = earliest
		notice = t('stats.range.capped', { days: MAX_RANGE_DAYS, date: frenchDay(from) })
	}
	return { range: { preset: 'custom', from, to, days: daysBetween(from, to) }, notice, error: null }
}

function presetRange(preset: Preset, today: string): StatsRange {
	const from = addDays(today, -(Number(preset) - 1))
	return { preset, from, to: today, days: daysBetween(from, today) }
}

/** « 3 mars 2026 », « 1er mars 2026 » from 2026-03-03, 2026-03-01. */
export function frenchDay(day: string): string {
	return formatDay(parisNoon(day))
}

/** The query string that gives this range back (for links, the CSV export and the live stream). */
export function rangeQuery(range: StatsRange): string {
	return range.preset === 'custom' ? `periode=perso&du=${range.from}&au=${range.to}` : `periode=${range.preset}`
}
