import fs from 'node:fs'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import pg from 'pg'
import lockfile from 'proper-lockfile'
import * as schema from './schema.ts'

export type Schema = typeof schema
export type Db = PgDatabase<PgQueryResultHKT, Schema>

export interface Database {
	db: Db
	kind: 'pglite' | 'postgres'
	/** Raw SQL for the health check and LISTEN/NOTIFY. */
	ping(): Promise<void>
	close(): Promise<void>
}

export class DataDirLockedError extends Error {
	constructor(dir: string) {
		super(
			`Le dossier de données ${dir} est déjà utilisé par un autre processus du site. ` +
				`Arrêtez-le d'abord (une base embarquée ne s'ouvre que par un seul processus à la fois).`,
		)
		this.name = 'DataDirLockedError'
	}
}

const migrationsFolder = () => path.resolve(process.env.MIGRATIONS_DIR ?? 'drizzle')
/** A fixed key for pg_advisory_lock, so that two instances never migrate at once. */
const MIGRATION_LOCK_KEY = 727_274_001

export async function openPostgres(url: string): Promise<Database> {
	const pool = new pg.Pool({ connectionString: url, max: 10 })
	const client = await pool.connect()
	try {
		await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY])
		await migratePg(drizzlePg(client, { schema }), { migrationsFolder: migrationsFolder() })
	} finally {
		await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {})
		client.release()
	}
	const db = drizzlePg(pool, { schema }) as unknown as Db
	return {
		db,
		kind: 'postgres',
		ping: async () => {
			await db.execute(sql`select 1`)
		},
		close: () => pool.end(),
	}
}

export async function openPglite(dataDir: string): Promise<Database> {
	const dir = path.join(dataDir, 'pglite')
	fs.mkdirSync(dir, { recursive: true })
	let release: () => Promise<void>
	try {
		release = await lockfile.lock(dir, {
			lockfilePath: `${dir}.lock`,
			stale: 10_000,
			update: 2_000,
			realpath: false,
			onCompromised: (err) => {
				// Another process took the folder over: stop writing at once rather than corrupt it.
				console.error(`Verrou du dossier de données perdu : ${err.message}`)
				process.exit(70)
			},
		})
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ELOCKED') throw new DataDirLockedError(dir)
		throw error
	}
	try {
		const client = await PGlite.create(dir)
		const db = drizzlePglite(client, { schema }) as unknown as Db
		await migratePglite(db as never, { migrationsFolder: migrationsFolder() })
		return {
			db,
			kind: 'pglite',
			ping: async () => {
				await client.query('select 1')
			},
			close: async () => {
				await client.close()
				await release()
			},
		}
	} catch (error) {
		await release()
		throw error
	}
}

export function openDatabase(options: { databaseUrl?: string; dataDir: string }) {
	return options.databaseUrl ? openPostgres(options.databaseUrl) : openPglite(options.dataDir)
}
