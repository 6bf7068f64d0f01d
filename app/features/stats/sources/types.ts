import type { Db } from '#app/platform/db/client.server.ts'
import type { StatsRange } from '../range.ts'

/*
 * One small source per domain (members, audience, events, contact, mail; codes and the newsletter
 * plug in the same way): each gives, over a range of Paris days, its figures as totals and daily
 * series, and its rankings. The screen, the CSV export and the table view all read this shape.
 */
export interface Series {
	key: string
	label: string
	/** The sum over the range. */
	total: number
	/** One value per day of the range, in order. */
	daily: number[]
}

export interface Figure {
	key: string
	label: string
	value: number
	/** What the figure is, when its label is not enough (« en ce moment », « depuis le début »). */
	hint?: string
}

export interface Ranking {
	key: string
	label: string
	/** What the value column counts. */
	unit: string
	rows: { label: string; value: number; href?: string }[]
	/** Said when there are no rows. */
	empty: string
}

export interface SourceResult {
	id: string
	title: string
	/** Counts over the range, drawn as one chart per source. */
	series: Series[]
	/** Figures at this moment, not tied to the range (members in all, messages waiting). */
	figures: Figure[]
	rankings: Ranking[]
	/** What the source's figures count, in a sentence, when it is not obvious (what one « vue » is). */
	note?: string
}

export interface StatsSource {
	id: string
	load(db: Db, range: StatsRange): Promise<SourceResult>
}

/** Fills a day → count list into one value per day of the range. */
export function dailyValues(range: StatsRange, rows: { day: string; n: number | string }[]): number[] {
	const byDay = new Map(rows.map((row) => [String(row.day).slice(0, 10), Number(row.n)]))
	return range.days.map((day) => byDay.get(day) ?? 0)
}

export function sum(values: number[]): number {
	return values.reduce((total, value) => total + value, 0)
}
