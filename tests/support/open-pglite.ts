/*
 * A second process on a data folder: opens the embedded database in the folder given as argument,
 * as any script would. Run by tests/integration/database.test.ts while the test holds the folder;
 * with --hold it keeps the folder open until it is killed (a crash). Left unhandled, the refusal ends this process with a non-zero code and its message on stderr.
 */
import { openPglite } from '#app/platform/db/client.server.ts'

const dataDir = process.argv[2]
if (!dataDir) throw new Error('usage: tsx tests/support/open-pglite.ts <data folder> [--hold]')
const database = await openPglite(dataDir)
await database.ping()
console.log('opened')
// --hold: keep the folder open until killed, as a running server would (for the crash test).
if (!process.argv.includes('--hold')) await database.close()
else setInterval(() => {}, 60_000)
