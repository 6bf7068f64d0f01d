import { createAuth, resolveAuthSecret, type Auth } from './auth.server.ts'
import { openDatabase, type Database } from './db/client.server.ts'
import { getEnv, type Env } from './env.server.ts'
import { getLogger } from './logger.server.ts'

export interface Platform {
	env: Env
	database: Database
	auth: Auth
}

/*
 * One platform per process, opened on first use. It hangs on globalThis so that the dev
 * server's module reloads never open the embedded database twice.
 */
const holder = globalThis as typeof globalThis & { __bandPlatform?: Promise<Platform> }

async function open(): Promise<Platform> {
	const env = getEnv()
	const logger = getLogger()
	const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR })
	logger.info(
		{ database: database.kind, dataDir: database.kind === 'pglite' ? env.DATA_DIR : undefined },
		'database ready',
	)
	const secret = await resolveAuthSecret(database.db, env)
	const auth = createAuth({ db: database.db, env, secret })
	return { env, database, auth }
}

export function getPlatform(): Promise<Platform> {
	holder.__bandPlatform ??= open().catch((error) => {
		holder.__bandPlatform = undefined
		throw error
	})
	return holder.__bandPlatform
}

export async function closePlatform(): Promise<void> {
	const pending = holder.__bandPlatform
	holder.__bandPlatform = undefined
	if (!pending) return
	const platform = await pending.catch(() => undefined)
	await platform?.database.close()
}

export async function getDb() {
	return (await getPlatform()).database.db
}

export async function getAuth() {
	return (await getPlatform()).auth
}
