import { newSecret } from '../random-token.server.ts'
import fs from 'node:fs'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { DataDirLockedError, openDatabase, openPglite, openPostgres, type Database } from '../db/client.server.ts'
import type { Env } from '../env.server.ts'
import { siteSetting } from '../db/schema.ts'
import { createStorage } from '../storage/create-storage.server.ts'
import { listStoredFiles } from '../storage/list.server.ts'
import {
	appliedMigrations,
	ArchiveError,
	countRows,
	databaseIsEmpty,
	knownMigrations,
	loadFiles,
	loadRows,
	migrationsUpTo,
	restorableLevel,
	siteTables,
	verifyArchive,
	writeBackup,
	type BackupSummary,
} from './backup.server.ts'
import { requestBackup } from './control.server.ts'
import { getT } from '../i18n.server.ts'

/*
 * What `npm run backup`, `npm run restore` and `npm run move-to-postgres` do (scripts/*.ts are
 * their thin command-line fronts). The embedded database is never opened beside a running server:
 * a backup goes through the server's control socket, and everything else takes the folder's lock
 * (and so refuses while the server runs).
 */

type SiteEnv = Pick<
	Env,
	'DATA_DIR' | 'DATABASE_URL' | 'SITE_URL' | 'S3_ENDPOINT' | 'S3_BUCKET' | 'S3_REGION' | 'S3_ACCESS_KEY_ID' | 'S3_SECRET_ACCESS_KEY'
>

/** Storage for a command-line tool: it never signs links, so its signing secret is a throwaway. */
const toolStorage = (env: SiteEnv) => createStorage(env, newSecret())

/** The site's message when the embedded server holds the folder. */
export class SiteRunningError extends Error {
	constructor(dataDir: string, action: 'restore' | 'move') {
		super(action === 'restore' ? getT()('ops.siteRunning.restore', { dataDir }) : getT()('ops.siteRunning.move', { dataDir }))
		this.name = 'SiteRunningError'
	}
}

export async function backupSite(env: SiteEnv, file: string): Promise<Omit<BackupSummary, 'file'> & { via: 'server' | 'direct' }> {
	if (!env.DATABASE_URL) {
		const streamed = await requestBackup(env.DATA_DIR, file)
		if (streamed) {
			await verifyArchive(file)
			return { ...streamed, via: 'server' }
		}
	}
	let database: Database
	try {
		database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR, migrations: false })
	} catch (error) {
		if (error instanceof DataDirLockedError) {
			throw new Error(getT()('ops.backup.serverSilent', { dataDir: env.DATA_DIR }))
		}
		throw error
	}
	try {
		const summary = await writeBackup({ database, storage: await toolStorage(env) }, file)
		return { ...summary, via: 'direct' }
	} finally {
		await database.close()
	}
}

export interface RestoreSummary {
	tables: Record<string, number>
	files: number
	migrationsInArchive: number
	migrationsNow: number
}

function pgliteFolderIsEmpty(dataDir: string): boolean {
	const dir = path.join(dataDir, 'pglite')
	return !fs.existsSync(dir) || fs.readdirSync(dir).length === 0
}

/**
 * Whether the database `env` names may receive an archive taken at `migrations`: no row of the
 * site in it, and no migration the archive lacks. A database an interrupted restore created (its
 * rows roll back together) qualifies; one a server has started on (it writes its secret) does not.
 */
async function checkDatabaseTarget(env: SiteEnv, migrations: number[]): Promise<void> {
	if (!env.DATABASE_URL && pgliteFolderIsEmpty(env.DATA_DIR)) return
	const existing = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR, migrations: false }).catch(
		(error: unknown) => {
			if (error instanceof DataDirLockedError) throw new SiteRunningError(env.DATA_DIR, 'restore')
			throw error
		},
	)
	const t = getT()
	const where = env.DATABASE_URL ? t('ops.restore.postgres') : t('ops.restore.embedded', { dataDir: env.DATA_DIR })
	try {
		const applied = await appliedMigrations(existing.db)
		if (applied.length > migrations.length || applied.some((when, index) => migrations[index] !== when)) {
			throw new ArchiveError(t('ops.restore.newerSchema', { where }))
		}
		if (!(await databaseIsEmpty(existing.db))) {
			throw new ArchiveError(t('ops.restore.notEmpty', { where }))
		}
	} finally {
		await existing.close()
	}
}

/**
 * Restores an archive into an empty site (the one `env` describes). The whole archive is checked
 * first (complete, unaltered, from a schema this version knows) and so is the target; then the
 * files are written, then every row in one transaction. Interrupted (S3 failing, the machine
 * stopping), it can be run again: files already there are not sent twice, and rows are all or none.
 */
export async function restoreSite(env: SiteEnv, file: string, progress: (message: string) => void = () => {}): Promise<RestoreSummary> {
	const { manifest, end, files: archived } = await verifyArchive(file)
	const level = restorableLevel(manifest.migrations)
	const t = getT()
	progress(
		t('ops.restore.verified', { rows: Object.values(end.tables).reduce((a, b) => a + b, 0), files: end.files, date: manifest.createdAt }),
	)

	const storage = await toolStorage(env)
	const present = new Map((await listStoredFiles(storage)).map((stored) => [stored.key, stored.size]))
	const foreign = [...present].filter(([key, size]) => archived.get(key) !== size)
	if (foreign.length > 0) {
		const where = storage.kind === 's3' ? t('ops.restore.bucket', { bucket: env.S3_BUCKET }) : path.join(env.DATA_DIR, 'files')
		throw new ArchiveError(t('ops.restore.foreignFiles', { where, example: foreign[0]![0] }))
	}
	await checkDatabaseTarget(env, manifest.migrations.slice(0, level))

	progress(present.size > 0 ? t('ops.restore.copyingSome', { present: present.size }) : t('ops.restore.copying'))
	await loadFiles(storage, file, present)
	const stored = await listStoredFiles(storage)
	if (stored.length !== end.files) throw new Error(t('ops.restore.filesMissing', { stored: stored.length, expected: end.files }))

	const migrations = migrationsUpTo(level)
	let tables: Record<string, number>
	try {
		const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR, migrations: migrations.folder }).catch(
			(error: unknown) => {
				if (error instanceof DataDirLockedError) throw new SiteRunningError(env.DATA_DIR, 'restore')
				throw error
			},
		)
		try {
			if (!(await databaseIsEmpty(database.db))) throw new ArchiveError(t('ops.restore.targetNotEmpty'))
			progress(t('ops.restore.loadingRows'))
			await loadRows(database.db, file)
			tables = await countRows(database.db)
		} finally {
			await database.close()
		}
	} finally {
		migrations.dispose()
	}
	const missing = Object.entries(end.tables).filter(([table, rows]) => tables[table] !== rows)
	if (missing.length > 0) {
		throw new Error(
			t('ops.restore.rowsMissing', { tables: missing.map(([table, rows]) => `${table} ${tables[table] ?? 0}/${rows}`).join(', ') }),
		)
	}

	// Migrations newer than the archive, if this version has any, run now (as at every start).
	if (level < knownMigrations().length) {
		const upgraded = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR })
		await upgraded.close()
	}
	return { tables, files: stored.length, migrationsInArchive: level, migrationsNow: knownMigrations().length }
}

export interface MoveSummary {
	/** Rows per table, in the embedded database and in PostgreSQL after the move. */
	tables: Record<string, { source: number; target: number }>
	files: { source: number; target: number; copied: number }
	/** Whether the PostgreSQL database had been filled by an earlier run of the move (now replaced). */
	replacedEarlierMove: boolean
}

const MOVE_MARKER = 'ops.moved_from_embedded_at'

/**
 * Copies the site's data from the embedded database in DATA_DIR (and its files) to PostgreSQL
 * (`DATABASE_URL`) and, with S3_*, to the bucket. Re-runnable: a PostgreSQL database filled by an
 * earlier run is emptied and filled again in one transaction; files already in the bucket with the
 * same size are not sent again. It refuses while the embedded server runs (it holds the lock), and
 * refuses a PostgreSQL database that holds other data (or that the site already ran on).
 */
export async function moveToPostgres(
	env: SiteEnv & { DATABASE_URL: string },
	progress: (message: string) => void = () => {},
): Promise<MoveSummary> {
	const t = getT()
	if (pgliteFolderIsEmpty(env.DATA_DIR)) throw new Error(t('ops.move.nothing', { dataDir: env.DATA_DIR }))
	const source = await openPglite(env.DATA_DIR, { migrations: false }).catch((error: unknown) => {
		if (error instanceof DataDirLockedError) throw new SiteRunningError(env.DATA_DIR, 'move')
		throw error
	})
	try {
		const sourceLevel = await appliedMigrations(source.db)
		restorableLevel(sourceLevel)
		const target = await openPostgres(env.DATABASE_URL, { migrations: false })
		let replacedEarlierMove = false
		try {
			const applied = await appliedMigrations(target.db)
			if (applied.length > 0 && !(await databaseIsEmpty(target.db))) {
				const [marker] = await target.db
					.select()
					.from(siteSetting)
					.where(sql`${siteSetting.key} = ${MOVE_MARKER}`)
				if (!marker) {
					throw new Error(t('ops.move.foreignData'))
				}
				const [used] = (
					(await target.db.execute(sql`select count(*) as n from session where created_at > ${new Date(marker.value)}`)) as unknown as {
						rows: { n: string | number }[]
					}
				).rows
				if (Number(used?.n ?? 0) > 0) {
					throw new Error(t('ops.move.alreadyUsed', { date: marker.value }))
				}
				replacedEarlierMove = true
			}
		} finally {
			await target.close()
		}

		// The target at the source's schema level, so that rows load as they are; later migrations run at the next start.
		const migrations = migrationsUpTo(sourceLevel.length)
		const tables: MoveSummary['tables'] = {}
		try {
			const postgres = await openPostgres(env.DATABASE_URL, { migrations: migrations.folder })
			try {
				const backupDir = fs.mkdtempSync(path.join(env.DATA_DIR, '.move-'))
				try {
					// The rows go through the same archive as a backup: one consistent snapshot, checked on read.
					const archive = path.join(backupDir, 'rows.backup')
					await writeBackup({ database: source }, archive)
					progress(t('ops.move.writing'))
					const order = await siteTables(postgres.db)
					// Emptied and filled in one transaction: a failure leaves the earlier state.
					await loadRows(postgres.db, archive, {
						before: (tx) =>
							tx
								.execute(
									sql`truncate ${sql.join(
										order.map((t) => sql.identifier(t)),
										sql`, `,
									)} restart identity cascade`,
								)
								.then(() => {}),
					})
					await postgres.db
						.insert(siteSetting)
						.values({ key: MOVE_MARKER, value: new Date().toISOString() })
						.onConflictDoUpdate({ target: siteSetting.key, set: { value: new Date().toISOString() } })
				} finally {
					fs.rmSync(backupDir, { recursive: true, force: true })
				}
				const before = await countRows(source.db)
				const after = await countRows(postgres.db)
				for (const table of new Set([...Object.keys(before), ...Object.keys(after)])) {
					// The move's own marker is one row more in site_setting.
					const extra = table === 'site_setting' ? 1 : 0
					tables[table] = { source: before[table] ?? 0, target: (after[table] ?? 0) - extra }
				}
			} finally {
				await postgres.close()
			}
		} finally {
			migrations.dispose()
		}
		const wrong = Object.entries(tables).filter(([, n]) => n.source !== n.target)
		if (wrong.length > 0) {
			throw new Error(t('ops.move.countsDiffer', { tables: wrong.map(([table, n]) => `${table} ${n.source} → ${n.target}`).join(', ') }))
		}

		const files = await moveFiles(env, progress)
		return { tables, files, replacedEarlierMove }
	} finally {
		await source.close()
	}
}

async function moveFiles(env: SiteEnv, progress: (message: string) => void): Promise<MoveSummary['files']> {
	const local = await toolStorage({
		...env,
		S3_BUCKET: undefined,
		S3_ENDPOINT: undefined,
		S3_ACCESS_KEY_ID: undefined,
		S3_SECRET_ACCESS_KEY: undefined,
	})
	const sourceFiles = await listStoredFiles(local)
	const t = getT()
	if (!env.S3_BUCKET) {
		progress(t('ops.move.noBucket'))
		return { source: sourceFiles.length, target: sourceFiles.length, copied: 0 }
	}
	const bucket = await toolStorage(env)
	const present = new Map((await listStoredFiles(bucket)).map((file) => [file.key, file.size]))
	let copied = 0
	for (const file of sourceFiles) {
		if (present.get(file.key) === file.size) continue
		const body = await local.read(file.key)
		if (!body) continue
		const info = await local.stat(file.key)
		await bucket.put(file.key, body, { contentType: info?.contentType ?? 'application/octet-stream' })
		copied += 1
		if (copied % 100 === 0) progress(t('ops.move.copied', { count: copied }))
	}
	const after = await listStoredFiles(bucket)
	const inBucket = new Set(after.map((file) => file.key))
	const missing = sourceFiles.filter((file) => !inBucket.has(file.key))
	if (missing.length > 0) throw new Error(t('ops.move.filesMissing', { count: missing.length, example: missing[0]!.key }))
	return { source: sourceFiles.length, target: sourceFiles.filter((file) => inBucket.has(file.key)).length, copied }
}
