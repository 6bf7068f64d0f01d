import fs from 'node:fs'
import path from 'node:path'
import { PGlite, type PGliteOptions } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import pg from 'pg'
import lockfile from 'proper-lockfile'
import * as schema from './schema.ts'
import { nulGuard } from './nul-guard.server.ts'
import { getLogger } from '../logger.server.ts'
import { getT } from '../i18n.server.ts'

export type Schema = typeof schema
export type Db = PgDatabase<PgQueryResultHKT, Schema>

export interface Database {
	db: Db
	kind: 'pglite' | 'postgres'
	/** The embedded engine itself (PGlite only), for the job queue and LISTEN/NOTIFY. */
	pglite?: PGlite
	/** The connection string (PostgreSQL only), for the job queue's own pool. */
	url?: string
	/** Raw SQL for the health check. */
	ping(): Promise<void>
	close(): Promise<void>
	/**
	 * PostgreSQL only: hears the signals of the SIGNAL_CHANNELS on the connections of the pool, so
	 * that the signal of a write this process makes is heard before the write returns (a connection
	 * listening on a channel gets its own notifications before its commit is answered; another
	 * connection hears them a moment later). Returns the way to stop.
	 */
	onPooledSignal?(listener: (channel: SignalChannel, payload: string) => void): () => void
}

/**
 * The channel the database's triggers signal on when a statement changes what a member's session
 * or dashboard shows (their account, sessions, avatars, unlocked contents, newsletter row):
 * drizzle/0014_member_change_signal.sql and 0016_newsletter_and_event_signals.sql.
 */
export const MEMBER_CHANGE_CHANNEL = 'band_member_change'
/**
 * The channel the database's triggers signal on with the name of a table a statement wrote, for the
 * tables whose reads are kept until they change (drizzle/0016_newsletter_and_event_signals.sql).
 */
export const TABLE_CHANGE_CHANNEL = 'band_table_change'
/** The channels of the database's own triggers. */
export const SIGNAL_CHANNELS = [MEMBER_CHANGE_CHANNEL, TABLE_CHANGE_CHANNEL] as const
export type SignalChannel = (typeof SIGNAL_CHANNELS)[number]
const isSignalChannel = (channel: string): channel is SignalChannel => (SIGNAL_CHANNELS as readonly string[]).includes(channel)

export class DataDirLockedError extends Error {
	constructor(dir: string) {
		super(getT()('ops.dataDirLocked', { dataDir: dir }))
		this.name = 'DataDirLockedError'
	}
}

const migrationsFolder = () => path.resolve(process.env.MIGRATIONS_DIR ?? 'drizzle')
/** A fixed key for pg_advisory_lock, so that two instances never migrate at once. */
const MIGRATION_LOCK_KEY = 727_274_001

/**
 * Whether the newest migration of `folder` is already recorded in the database, by drizzle's own rule
 * (a migration is applied once the newest recorded one is at least as recent): then the migrator, which
 * reads and hashes every file and opens a transaction, has nothing to do and is not run. A database
 * without the record (a fresh one) is not up to date.
 */
async function migrationsUpToDate(folder: string, query: (text: string) => Promise<{ rows: unknown[] }>): Promise<boolean> {
	try {
		const journal = JSON.parse(fs.readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')) as { entries: { when: number }[] }
		const newest = Math.max(...journal.entries.map((entry) => entry.when))
		const { rows } = await query('select max(created_at) as newest from drizzle.__drizzle_migrations')
		return Number((rows[0] as { newest: unknown } | undefined)?.newest ?? 0) >= newest
	} catch {
		return false
	}
}

export interface OpenOptions {
	/** Migrations to run at open: the project's (default), another folder, or none (`false`, for backups). */
	migrations?: string | false
}

export async function openPostgres(url: string, options: OpenOptions = {}): Promise<Database> {
	const signalListeners = new Set<(channel: SignalChannel, payload: string) => void>()
	const pool = new pg.Pool({
		connectionString: url,
		max: 10,
		// Every connection listens before the pool hands it out (see onPooledSignal).
		onConnect: async (client) => {
			client.on('notification', (message) => {
				const channel = message.channel
				if (!isSignalChannel(channel)) return
				for (const listener of signalListeners) listener(channel, message.payload ?? '')
			})
			for (const channel of SIGNAL_CHANNELS) await client.query(`LISTEN ${channel}`)
		},
	})
	// An idle connection closed by the server (a restart, a failover, an administrator) is dropped
	// from the pool and replaced on next use; unheard, its error would crash the process.
	pool.on('error', (error) =>
		getLogger().warn({ code: (error as { code?: string }).code, reason: error.message }, 'PostgreSQL connection lost; it will be replaced'),
	)
	const client = await pool.connect().catch(async (error: unknown) => {
		await pool.end().catch(() => {})
		throw error
	})
	try {
		const folder = options.migrations === false ? undefined : (options.migrations ?? migrationsFolder())
		if (folder && !(await migrationsUpToDate(folder, (text) => client.query(text)))) {
			await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY])
			try {
				await migratePg(drizzlePg(client, { schema }), { migrationsFolder: folder })
			} finally {
				await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {})
			}
		}
	} finally {
		client.release()
	}
	const db = drizzlePg(pool, { schema, logger: nulGuard }) as unknown as Db
	return {
		db,
		kind: 'postgres',
		url,
		ping: async () => {
			await db.execute(sql`select 1`)
		},
		close: () => pool.end(),
		onPooledSignal(listener) {
			signalListeners.add(listener)
			return () => signalListeners.delete(listener)
		},
	}
}

/** Whether a process with this id runs on this machine (a dead holder left its lock behind). */
function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0)
		return true
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM'
	}
}

/**
 * When a process started, in ms since the epoch (Linux: /proc, to the second); undefined elsewhere.
 * Process ids are reused, quickly in a container where every start counts from 1.
 */
function startedAt(pid: number): number | undefined {
	try {
		const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
		// Field 22, after the command name in parentheses (which may hold spaces): clock ticks since boot.
		const ticks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19])
		const boot = Number(/^btime (\d+)$/m.exec(fs.readFileSync('/proc/stat', 'utf8'))?.[1])
		// /proc counts in USER_HZ, 100 on every Linux build.
		return Number.isFinite(ticks) && Number.isFinite(boot) ? boot * 1000 + ticks * 10 : undefined
	} catch {
		return undefined
	}
}

/** A lock with no holder's id for this long was left by a process that died while taking it. */
const UNNAMED_LOCK_MS = 5_000

/**
 * Whether the holder of a taken lock is gone. It writes its process id beside the lock right after
 * taking it (and removes it only after letting go), so: no id for more than a few seconds, or an
 * id no process has, or one that a process started since has been given, all mean gone. An earlier
 * life of this very id (PID 1 in a container) is gone too.
 */
function holderIsGone(lockfilePath: string, pidFile: string): boolean {
	let holder = Number.NaN
	let named = 0
	try {
		holder = Number.parseInt(fs.readFileSync(pidFile, 'utf8').trim(), 10)
		named = fs.statSync(pidFile).mtimeMs
	} catch {
		// no id yet, see below
	}
	if (!Number.isInteger(holder)) {
		try {
			return Date.now() - fs.statSync(lockfilePath).mtimeMs > UNNAMED_LOCK_MS
		} catch {
			return true // released meanwhile
		}
	}
	if (holder === process.pid || !isAlive(holder)) return true
	const started = startedAt(holder)
	return started !== undefined && started > named + 2_000
}

/**
 * Takes the data folder's lock. The lock file is refreshed every few seconds, but PGlite can block
 * the event loop for a long time (a first start on a busy machine), so staleness by age alone would
 * let a second process in while the first still runs. The holder's process id is written beside the
 * lock instead: a lock whose holder is gone (holderIsGone) is taken over at once; a live holder
 * keeps it.
 */
const heldHere = new Set<string>()

async function lockDataDir(dir: string): Promise<() => Promise<void>> {
	if (heldHere.has(dir)) throw new DataDirLockedError(dir)
	const lockfilePath = `${dir}.lock`
	const pidFile = `${dir}.pid`
	const options = {
		lockfilePath,
		stale: 10 * 60_000,
		update: 5_000,
		realpath: false,
		onCompromised: (err: Error) => {
			// Another process took the folder over: stop writing at once rather than corrupt it.
			console.error(getT()('ops.lockLost', { reason: err.message }))
			process.exit(70)
		},
	}
	let release: () => Promise<void>
	try {
		release = await lockfile.lock(dir, options)
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error
		if (!holderIsGone(lockfilePath, pidFile)) throw new DataDirLockedError(dir)
		// proper-lockfile's unlock() refuses a lock this process does not hold (and the holder is
		// gone): remove the dead holder's lock folder ourselves, then take it as usual. Two processes
		// racing here cannot both win: only one mkdir of the lock folder succeeds.
		fs.rmSync(lockfilePath, { recursive: true, force: true })
		try {
			release = await lockfile.lock(dir, options)
		} catch {
			throw new DataDirLockedError(dir)
		}
	}
	fs.writeFileSync(pidFile, String(process.pid))
	heldHere.add(dir)
	return async () => {
		heldHere.delete(dir)
		// The lock first, its holder's id after: a lock is never left without the id that frees it.
		await release()
		fs.rmSync(pidFile, { force: true })
	}
}

/**
 * PGlite runs Postgres inside this process, with the settings of a server: 128 MB of shared buffers
 * reserved up front and shared memory sized for 100 connections, where one process has one. A
 * band's database is a few megabytes, so 32 MB of buffers hold all of it; measured, this takes
 * ~100 MB off the process's resident memory. (PostgreSQL itself keeps its own settings.)
 */
const PGLITE_SETTINGS = ['-c', 'shared_buffers=32MB', '-c', 'max_connections=4']

/** PGlite's engine and file bundle, compiled and read by the server while it loaded the build. */
type PgliteAssets = Required<Pick<PGliteOptions, 'pgliteWasmModule' | 'fsBundle'>>
let preparedAssets: Promise<PgliteAssets> | undefined

/**
 * Hands the next openPglite the engine the server has been preparing since it started
 * (server/pglite-assets.ts), so that opening the database does not wait for PGlite to read and compile
 * it only then. Taken once: the bundle is not held for the process's life. If its preparation
 * failed, PGlite loads its files itself.
 */
export function usePgliteAssets(assets: Promise<PgliteAssets>) {
	preparedAssets = assets
}

export async function openPglite(dataDir: string, options: OpenOptions = {}): Promise<Database> {
	const dir = path.join(dataDir, 'pglite')
	fs.mkdirSync(dir, { recursive: true })
	const release = await lockDataDir(dir)
	let client: PGlite | undefined
	try {
		const assets = await preparedAssets?.catch(() => undefined)
		preparedAssets = undefined
		client = await PGlite.create(dir, { ...assets, startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS] })
		const db = drizzlePglite(client, { schema, logger: nulGuard }) as unknown as Db
		const folder = options.migrations === false ? undefined : (options.migrations ?? migrationsFolder())
		if (folder && !(await migrationsUpToDate(folder, (text) => client!.query(text))))
			await migratePglite(db as never, { migrationsFolder: folder })
		return {
			db,
			kind: 'pglite',
			pglite: client,
			ping: async () => {
				await client!.query('select 1')
			},
			close: async () => {
				await client!.close()
				await release()
			},
		}
	} catch (error) {
		await client?.close().catch(() => {})
		await release()
		throw error
	}
}

export function openDatabase(options: { databaseUrl?: string; dataDir: string } & OpenOptions) {
	return options.databaseUrl ? openPostgres(options.databaseUrl, options) : openPglite(options.dataDir, options)
}

/** The project's migrations folder (drizzle/, or MIGRATIONS_DIR). */
export const projectMigrationsFolder = migrationsFolder
