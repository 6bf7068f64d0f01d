import type { Db } from '#app/platform/db/client.server.ts'
import type { StatsRange } from '../range.ts'
import { audienceSource } from './audience.server.ts'
import { codesSource } from './codes.server.ts'
import { contactSource } from './contact.server.ts'
import { eventsSource } from './events.server.ts'
import { mailSource } from './mail.server.ts'
import { membersSource } from './members.server.ts'
import { newsletterSource } from './newsletter.server.ts'
import type { SourceResult, StatsSource } from './types.ts'

/**
 * Every source the stats screen shows, in its order. A domain that records something worth
 * counting adds its source here.
 */
export const STATS_SOURCES: StatsSource[] = [
	audienceSource,
	eventsSource,
	membersSource,
	codesSource,
	newsletterSource,
	contactSource,
	mailSource,
]

export async function loadStats(db: Db, range: StatsRange, sources: StatsSource[] = STATS_SOURCES): Promise<SourceResult[]> {
	return Promise.all(sources.map((source) => source.load(db, range)))
}
