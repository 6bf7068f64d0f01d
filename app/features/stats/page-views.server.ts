import { sql } from 'drizzle-orm'
import type { Logger } from 'pino'
import type { Db } from '#app/platform/db/client.server.ts'
import { pageViewDaily } from '#app/platform/db/schema.ts'
import type { Realtime } from '#app/platform/realtime.server.ts'
import { parisDay } from './paris-day.ts'
import type { ViewedPage } from './page-view-rules.ts'
import { STATS_TOPIC } from './topics.ts'

/** How often the buffered counts are written, and how many distinct rows make an early write. */
export const FLUSH_EVERY_MS = 10_000
export const FLUSH_AT_ROWS = 500

/**
 * Page views are counted in memory and written in batches (one upsert per flush), so that counting
 * costs a request nothing but a map update. A crash loses at most the last few seconds of counts.
 */
export class PageViewCounter {
	private buffer = new Map<string, { day: string; view: ViewedPage; views: number }>()
	private timer: NodeJS.Timeout | undefined
	private flushing: Promise<void> = Promise.resolve()

	constructor(
		private readonly db: Db,
		private readonly options: { logger: Logger; realtime?: Realtime; now?: () => Date } = { logger: console as never },
	) {}

	record(view: ViewedPage): void {
		const day = parisDay(this.options.now?.() ?? new Date())
		const key = `${day}\u0000${view.path}\u0000${view.referrer}\u0000${view.utmSource}`
		const entry = this.buffer.get(key)
		if (entry) entry.views += 1
		else this.buffer.set(key, { day, view, views: 1 })
		if (this.buffer.size >= FLUSH_AT_ROWS) void this.flush()
		else if (!this.timer) {
			this.timer = setTimeout(() => void this.flush(), FLUSH_EVERY_MS)
			this.timer.unref()
		}
	}

	/** Writes what is buffered (one statement); resolves once it is stored. */
	flush(): Promise<void> {
		if (this.timer) clearTimeout(this.timer)
		this.timer = undefined
		const batch = [...this.buffer.values()]
		this.buffer.clear()
		if (batch.length === 0) return this.flushing
		this.flushing = this.flushing.then(() => this.write(batch))
		return this.flushing
	}

	private async write(batch: { day: string; view: ViewedPage; views: number }[]) {
		try {
			await this.db
				.insert(pageViewDaily)
				.values(batch.map(({ day, view, views }) => ({ day, path: view.path, referrer: view.referrer, utmSource: view.utmSource, views })))
				.onConflictDoUpdate({
					target: [pageViewDaily.day, pageViewDaily.path, pageViewDaily.referrer, pageViewDaily.utmSource],
					set: { views: sql`${pageViewDaily.views} + excluded.views` },
				})
			await this.options.realtime?.publish(STATS_TOPIC, { source: 'audience' })
		} catch (error) {
			this.options.logger.warn({ err: error, rows: batch.length }, 'page views not written')
		}
	}
}
