import { and, eq, inArray, sql } from 'drizzle-orm'
import type { Logger } from 'pino'
import type { Db } from '#app/platform/db/client.server.ts'
import { pageViewDaily } from '#app/platform/db/schema.ts'
import type { Realtime } from '#app/platform/realtime.server.ts'
import { addDays, parisDay, parisWallClockToInstant } from '#app/platform/time-zone.ts'
import type { ViewedPage } from './page-view-rules.ts'
import { STATS_TOPIC } from './topics.ts'

/**
 * How often the buffered counts are written (the stats screen shows a visit within this plus its
 * own 2 s refresh), and how many distinct rows make an early write.
 */
export const FLUSH_EVERY_MS = 2_000
export const FLUSH_AT_ROWS = 500

/**
 * Distinct referring sites, and distinct UTM sources, kept per day: anyone can send a made-up
 * `Referer` or `utm_source`, so the ones past the day's most frequent are added up under
 * OTHER_SOURCES (« Autres sources » on the stats screen) instead of making rows of their own.
 */
export const SOURCES_PER_DAY = 30
export const OTHER_SOURCES = '*'

type Row = { day: string; path: string; referrer: string; utmSource: string; views: number }

/**
 * One page's views from no other site and without a UTM source (most of them), counted by adding
 * one to `views`: no key, no lookup, no clock per view (`PageViewCounter.slot`).
 */
export interface PageSlot {
	readonly path: string
	views: number
}

/**
 * Page views are counted in memory and written in batches (one upsert per flush), so that counting
 * costs a request nothing but a map update. A crash loses at most the last few seconds of counts.
 */
export class PageViewCounter {
	private buffer = new Map<string, { day: string; view: ViewedPage; views: number }>()
	/** Each page's slot (bounded by the pages the anonymous cache holds: public pages that exist). */
	private slots = new Map<string, PageSlot>()
	/** Whether a slot was counted since the last flush (then the flush timer runs). */
	private slotsCounted = false
	private timer: NodeJS.Timeout | undefined
	private flushing: Promise<void> = Promise.resolve()
	/** The Paris day of the last second seen (working it out is most of what counting a view costs), and when it ends. */
	private lastDay = { second: Number.NaN, day: '', endsAt: Number.NaN }

	constructor(
		private readonly db: Db,
		private readonly options: { logger: Logger; realtime?: Realtime; now?: () => Date } = { logger: console as never },
	) {}

	record(view: ViewedPage): void {
		this.add(this.dayOf(this.clock()), view, 1)
		if (this.buffer.size >= FLUSH_AT_ROWS) void this.flush()
		else this.arm()
	}

	/**
	 * The slot of `path`'s views from no other site and without a UTM source, for a caller that
	 * counts many of them (the server, per page of its anonymous cache): `count(slot)` per view.
	 */
	slot(path: string): PageSlot {
		let slot = this.slots.get(path)
		if (!slot) {
			slot = { path, views: 0 }
			this.slots.set(path, slot)
		}
		return slot
	}

	/** One view of a slot's page: an addition; the write (and the day it goes to) is the flush's. */
	count(slot: PageSlot): void {
		slot.views += 1
		if (!this.slotsCounted) {
			this.slotsCounted = true
			this.arm()
		}
	}

	private clock(): number {
		return this.options.now?.().getTime() ?? Date.now()
	}

	private add(day: string, view: ViewedPage, views: number) {
		const key = `${day}\u0000${view.path}\u0000${view.referrer}\u0000${view.utmSource}`
		const entry = this.buffer.get(key)
		if (entry) entry.views += views
		else this.buffer.set(key, { day, view, views })
	}

	/**
	 * The flush timer, if not running: in FLUSH_EVERY_MS, or at the next Paris midnight if sooner, so
	 * that the slots' views, which carry no day, are written under the day they were counted on.
	 */
	private arm() {
		if (this.timer) return
		const now = this.clock()
		this.dayOf(now)
		this.timer = setTimeout(() => void this.flush(), Math.max(0, Math.min(FLUSH_EVERY_MS, this.lastDay.endsAt - now)))
		this.timer.unref()
	}

	/** The Paris day at `ms`, worked out once per second (Paris's days begin on a whole second). */
	private dayOf(ms: number): string {
		const second = Math.floor(ms / 1000)
		if (second !== this.lastDay.second) {
			const day = parisDay(ms)
			const endsAt = this.lastDay.day === day ? this.lastDay.endsAt : parisWallClockToInstant(`${addDays(day, 1)}T00:00`)!.getTime()
			this.lastDay = { second, day, endsAt }
		}
		return this.lastDay.day
	}

	/** Writes what is buffered (one statement); resolves once it is stored. */
	flush(): Promise<void> {
		if (this.timer) clearTimeout(this.timer)
		this.timer = undefined
		if (this.slotsCounted) {
			// The slots' views are the current day's: a flush comes at least at each midnight (arm).
			this.slotsCounted = false
			const day = this.dayOf(this.clock())
			for (const slot of this.slots.values())
				if (slot.views > 0) {
					this.add(day, { path: slot.path, referrer: '', utmSource: '' }, slot.views)
					slot.views = 0
				}
		}
		const batch = [...this.buffer.values()]
		this.buffer.clear()
		if (batch.length === 0) return this.flushing
		this.flushing = this.flushing.then(() => this.write(batch))
		return this.flushing
	}

	private async write(batch: { day: string; view: ViewedPage; views: number }[]) {
		try {
			const rows = batch.map(({ day, view, views }) => ({
				day,
				path: view.path,
				referrer: view.referrer,
				utmSource: view.utmSource,
				views,
			}))
			const upsert = (db: Db, values: Row[]) =>
				db
					.insert(pageViewDaily)
					.values(values)
					.onConflictDoUpdate({
						target: [pageViewDaily.day, pageViewDaily.path, pageViewDaily.referrer, pageViewDaily.utmSource],
						set: { views: sql`${pageViewDaily.views} + excluded.views` },
					})
			// Most batches bring no new source (views from no other site, without a UTM source): nothing
			// to cap, one statement, atomic by itself. On the embedded database each statement is the
			// main thread's time, every FLUSH_EVERY_MS while visitors come.
			if (!rows.some(hasSource)) await upsert(this.db, rows)
			else
				await this.db.transaction(async (tx) => {
					let merged = rows
					for (const day of new Set(rows.map((row) => row.day))) merged = await this.capSources(tx as unknown as Db, day, merged)
					await upsert(tx as unknown as Db, merged)
				})
			await this.options.realtime?.publish(STATS_TOPIC, { source: 'audience' })
		} catch (error) {
			this.options.logger.warn({ err: error, rows: batch.length }, 'page views not written')
		}
	}

	/**
	 * Keeps a day's SOURCES_PER_DAY most viewed referring sites and UTM sources (what is stored and
	 * what this batch adds, together); the others, stored or new, are folded into OTHER_SOURCES.
	 * Runs at a write, never on a request: a day holds at most that many sources plus the fold.
	 */
	private async capSources(db: Db, day: string, rows: Row[]): Promise<Row[]> {
		let result = rows
		for (const column of ['referrer', 'utmSource'] as const) {
			// No new source in this batch: the day's sources are as capped as the last write left them.
			if (!rows.some((row) => row.day === day && isSource(row[column]))) continue
			const stored = await db
				.select({ source: pageViewDaily[column], views: sql<number>`sum(${pageViewDaily.views})::int` })
				.from(pageViewDaily)
				.where(eq(pageViewDaily.day, day))
				.groupBy(pageViewDaily[column])
			const totals = new Map<string, number>()
			for (const { source, views } of stored) totals.set(source, views)
			for (const row of result) if (row.day === day) totals.set(row[column], (totals.get(row[column]) ?? 0) + row.views)
			const ranked = [...totals.entries()]
				.filter(([source]) => source !== '' && source !== OTHER_SOURCES)
				.sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
			if (ranked.length <= SOURCES_PER_DAY) continue
			const folded = new Set(ranked.slice(SOURCES_PER_DAY).map(([source]) => source))
			const fold = (row: Row): Row => (row.day === day && folded.has(row[column]) ? { ...row, [column]: OTHER_SOURCES } : row)
			// The stored rows of the folded sources move under OTHER_SOURCES with this batch.
			const storedFolded = [...folded].filter((source) => stored.some((entry) => entry.source === source))
			let moved: Row[] = []
			if (storedFolded.length > 0) {
				const where = and(eq(pageViewDaily.day, day), inArray(pageViewDaily[column], storedFolded))
				moved = await db.select().from(pageViewDaily).where(where)
				await db.delete(pageViewDaily).where(where)
			}
			result = mergeRows([...result, ...moved].map(fold))
		}
		return result
	}
}

/** A referring site or UTM source that counts toward a day's cap (not none, not the fold itself). */
const isSource = (value: string) => value !== '' && value !== OTHER_SOURCES
const hasSource = (row: Row) => isSource(row.referrer) || isSource(row.utmSource)

/** Rows with the same key added up (one statement may not update a row twice). */
function mergeRows(rows: Row[]): Row[] {
	const merged = new Map<string, Row>()
	for (const row of rows) {
		const key = `${row.day}\u0000${row.path}\u0000${row.referrer}\u0000${row.utmSource}`
		const entry = merged.get(key)
		if (entry) entry.views += row.views
		else merged.set(key, { ...row })
	}
	return [...merged.values()]
}
