/** The live-update topic the stats screen listens to: any source that changed publishes on it. */
export const STATS_TOPIC = 'stats'
