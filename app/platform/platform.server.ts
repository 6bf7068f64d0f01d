import type { Logger } from 'pino'
import { createAuthEmails, type AuthEmails } from './auth-emails.server.tsx'
import { createAuth, grantListedAdmins, resolveAuthSecret, type Auth } from './auth.server.ts'
import { openDatabase, type Database } from './db/client.server.ts'
import { getEnv, type Env } from './env.server.ts'
import { createJobs, type Jobs } from './jobs.server.ts'
import { getLogger } from './logger.server.ts'
import { createMailer, startMailWorker, type Mailer } from './mail/mailer.server.ts'
import { createRateLimits, type RateLimits } from './rate-limit.server.ts'
import { startRealtime, type Realtime } from './realtime.server.ts'
import { connectSessionCache } from './session-cache.server.ts'
import { connectTableMemory } from './table-memory.server.ts'
import { startControlSocket } from './ops/control.server.ts'
import { startScheduledBackups } from './ops/scheduled-backups.server.ts'
import { createStorage } from './storage/create-storage.server.ts'
import type { Storage } from './storage/storage.server.ts'

export interface Platform {
	env: Env
	logger: Logger
	database: Database
	jobs: Jobs
	mailer: Mailer
	emails: AuthEmails
	auth: Auth
	limits: RateLimits
	/** Uploaded files: DATA_DIR/files, or an S3-compatible bucket (S3_*). */
	storage: Storage
	/** Live updates across instances (LISTEN/NOTIFY), for server-sent events and cache invalidation. */
	realtime: Realtime
}

/*
 * One platform per process, opened on first use. It hangs on globalThis so that the dev
 * server's module reloads never open the embedded database twice.
 */
const holder = globalThis as typeof globalThis & {
	__bandPlatform?: Promise<Platform>
	__bandControl?: Promise<() => Promise<void>>
	__bandSessionCache?: () => void
	__bandTableMemory?: () => void
}

async function open(): Promise<Platform> {
	const env = getEnv()
	const logger = getLogger()
	const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR })
	try {
		logger.info({ database: database.kind, dataDir: database.kind === 'pglite' ? env.DATA_DIR : undefined }, 'database ready')
		const jobs = createJobs(database, logger)
		const limits = createRateLimits(database.db)
		const mailer = createMailer({ db: database.db, jobs, env, logger, limits })
		const emails = createAuthEmails(env, mailer)
		const secret = await resolveAuthSecret(database.db, env)
		const auth = createAuth({ db: database.db, env, secret, emails, logger })
		await grantListedAdmins(database.db, env)
		const storage = await createStorage(env, secret)
		const realtime = await startRealtime(database, logger)
		// Sessions remembered for a few seconds, forgotten on every instance when the database signals a change.
		holder.__bandSessionCache = connectSessionCache(realtime)
		// Admin reads kept until their table changes, forgotten the same way.
		holder.__bandTableMemory = connectTableMemory(realtime)
		return { env, logger, database, jobs, mailer, emails, auth, limits, storage, realtime }
	} catch (error) {
		await database.close().catch(() => {})
		throw error
	}
}

export function getPlatform(): Promise<Platform> {
	holder.__bandPlatform ??= open().catch((error) => {
		holder.__bandPlatform = undefined
		throw error
	})
	return holder.__bandPlatform
}

/** Starts the platform's own background workers (outbox mail); features add theirs in app/background.server.ts. */
export async function startPlatformWorkers(platform: Platform): Promise<void> {
	await startMailWorker(platform.mailer, platform.jobs)
	await startScheduledBackups(platform)
	// The embedded database's own door for command-line tools (npm run backup while the server runs).
	if (platform.database.kind === 'pglite' && !holder.__bandControl) {
		holder.__bandControl = startControlSocket({ ...platform, dataDir: platform.env.DATA_DIR }).catch((error: unknown) => {
			platform.logger.warn({ err: error }, 'control socket not started: npm run backup needs the server stopped')
			return async () => {}
		})
		await holder.__bandControl
	}
}

/**
 * The first step of a shutdown (server/main.ts): the job workers stop taking jobs and hand back those
 * they cannot finish in a few seconds, while requests in flight still have the whole platform.
 */
export async function releaseWorkers(): Promise<void> {
	const platform = await holder.__bandPlatform?.catch(() => undefined)
	await platform?.jobs.release()
}

export async function closePlatform(): Promise<void> {
	const pending = holder.__bandPlatform
	holder.__bandPlatform = undefined
	if (!pending) return
	const platform = await pending.catch(() => undefined)
	if (!platform) return
	const control = holder.__bandControl
	holder.__bandControl = undefined
	await (await control)?.().catch(() => {})
	holder.__bandSessionCache?.()
	holder.__bandSessionCache = undefined
	holder.__bandTableMemory?.()
	holder.__bandTableMemory = undefined
	await platform.realtime.close().catch((error) => platform.logger.error({ err: error }, 'realtime listener did not stop cleanly'))
	await platform.jobs.stop().catch((error) => platform.logger.error({ err: error }, 'job queue did not stop cleanly'))
	platform.mailer.close()
	await platform.database.close()
}

export async function getDb() {
	return (await getPlatform()).database.db
}

export async function getAuth() {
	return (await getPlatform()).auth
}

/** @public for the live-update routes to come (the stats and setlist screens). */
export async function getRealtime() {
	return (await getPlatform()).realtime
}
