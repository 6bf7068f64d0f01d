/*
 * A sender process for the exactly-once test (tests/integration/newsletter-crash.test.ts): it opens
 * the platform from the environment it inherits, sends one campaign, and is killed with SIGKILL
 * part-way through.
 */
import { runCampaignSlice } from '#app/features/newsletter/sender.server.ts'
import { closePlatform, getPlatform } from '#app/platform/platform.server.ts'

const campaignId = process.argv[2]
if (!campaignId) throw new Error('usage: newsletter-sender-child.ts <campaign id>')
const platform = await getPlatform()
const { database, env, logger, realtime, jobs } = platform
const outcome = await runCampaignSlice({ db: database.db, env, logger, realtime, jobs }, campaignId)
console.log(JSON.stringify(outcome))
await closePlatform()
