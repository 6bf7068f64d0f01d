import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import type { Database, Db } from '../db/client.server.ts'
import { projectMigrationsFolder } from '../db/client.server.ts'
import { listStoredFiles } from '../storage/list.server.ts'
import { contentTypeOfKey, type Storage } from '../storage/storage.server.ts'
import { ARCHIVE_FORMAT, ArchiveError, createArchiveWriter, readArchive, verifyArchive, type Manifest } from './archive.server.ts'
import { getT } from '../i18n.server.ts'

/*
 * Backups and restores of a whole site: every table of the `public` schema (whatever features
 * exist: new tables are included without a change here) and every stored file. The rows are read
 * in one read-only, repeatable-read transaction, so the database part is one consistent snapshot;
 * files are read after it, so every file a row of the snapshot names is there (unless deleted in
 * between). The job queue's own tables (pg-boss) are not included: what must survive (mails to
 * send, campaigns) lives in the site's tables, and the workers pick it up again at start.
 */

/** Rows per archive entry (and per INSERT on restore). */
const CHUNK_ROWS = 2_000

type Executor = Pick<Db, 'execute'>

async function rows<T>(db: Executor, query: ReturnType<typeof sql>): Promise<T[]> {
	const result = (await db.execute(query)) as unknown as { rows: T[] }
	return result.rows
}

/** Migrations applied to a database (drizzle's `created_at`, oldest first); empty on a new one. */
export async function appliedMigrations(db: Executor): Promise<number[]> {
	const [exists] = await rows<{ present: boolean }>(db, sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`)
	if (!exists?.present) return []
	const applied = await rows<{ created_at: string | number }>(
		db,
		sql`select created_at from drizzle.__drizzle_migrations order by created_at`,
	)
	return applied.map((row) => Number(row.created_at))
}

interface JournalEntry {
	idx: number
	when: number
	tag: string
}

/** The migrations this version of the site knows (drizzle/meta/_journal.json), oldest first. */
export function knownMigrations(folder = projectMigrationsFolder()): JournalEntry[] {
	const journal = JSON.parse(fs.readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')) as { entries: JournalEntry[] }
	return journal.entries
}

/**
 * The site's tables, parents before children (by foreign keys), so that rows can be inserted in
 * this order; a table in a cycle comes after the others.
 */
export async function siteTables(db: Executor): Promise<string[]> {
	const tables = (
		await rows<{ name: string }>(
			db,
			sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
				where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition order by c.relname`,
		)
	).map((row) => row.name)
	const links = await rows<{ child: string; parent: string }>(
		db,
		sql`select ch.relname as child, pa.relname as parent from pg_constraint k
			join pg_class ch on ch.oid = k.conrelid join pg_class pa on pa.oid = k.confrelid
			join pg_namespace n on n.oid = ch.relnamespace
			where k.contype = 'f' and n.nspname = 'public'`,
	)
	const parents = new Map(tables.map((table) => [table, new Set<string>()]))
	for (const { child, parent } of links) if (child !== parent) parents.get(child)?.add(parent)
	const ordered: string[] = []
	const placed = new Set<string>()
	while (ordered.length < tables.length) {
		const ready = tables.filter((table) => !placed.has(table) && [...parents.get(table)!].every((parent) => placed.has(parent)))
		const next = ready.length > 0 ? ready : tables.filter((table) => !placed.has(table)).slice(0, 1)
		for (const table of next) {
			ordered.push(table)
			placed.add(table)
		}
	}
	return ordered
}

export async function countRows(db: Executor, tables?: string[]): Promise<Record<string, number>> {
	const counts: Record<string, number> = {}
	for (const table of tables ?? (await siteTables(db))) {
		const [row] = await rows<{ n: string | number }>(db, sql`select count(*) as n from ${sql.identifier(table)}`)
		counts[table] = Number(row!.n)
	}
	return counts
}

async function sequenceValues(db: Executor): Promise<Record<string, number | null>> {
	const found = await rows<{ name: string; value: string | number | null }>(
		db,
		sql`select sequencename as name, last_value as value from pg_sequences where schemaname = 'public'`,
	)
	return Object.fromEntries(found.map((row) => [row.name, row.value === null ? null : Number(row.value)]))
}

export interface BackupSummary {
	file: string
	tables: Record<string, number>
	files: number
	fileBytes: number
	archiveBytes: number
}

export interface Site {
	database: Database
	/** The files to include; none without it (the move to PostgreSQL copies files on its own). */
	storage?: Storage
}

/**
 * Writes a backup of the site to `file` (through a temporary file beside it, renamed at the end:
 * a crash never leaves a half-written archive under the final name).
 */
export async function writeBackup(site: Site, file: string): Promise<BackupSummary> {
	const partial = `${file}.partial-${process.pid}`
	fs.mkdirSync(path.dirname(file), { recursive: true })
	const writer = createArchiveWriter(partial)
	try {
		const tables: Record<string, number> = {}
		await site.database.db.transaction(
			async (tx) => {
				const manifest: Omit<Manifest, 'size'> = {
					type: 'manifest',
					format: ARCHIVE_FORMAT,
					createdAt: new Date().toISOString(),
					source: { database: site.database.kind, storage: site.storage?.kind ?? 'local' },
					migrations: await appliedMigrations(tx),
				}
				await writer.add(manifest)
				for (const table of await siteTables(tx)) {
					const found = await rows<{ r: string }>(tx, sql`select to_jsonb(t)::text as r from ${sql.identifier(table)} t`)
					tables[table] = found.length
					for (let start = 0; start < found.length; start += CHUNK_ROWS) {
						const chunk = found.slice(start, start + CHUNK_ROWS)
						const body = Buffer.from(chunk.map((row) => row.r).join('\n'))
						await writer.add({ type: 'rows', table, rows: chunk.length }, body)
					}
				}
				await writer.add({ type: 'sequences', values: await sequenceValues(tx) })
			},
			{ isolationLevel: 'repeatable read', accessMode: 'read only' },
		)
		let files = 0
		let fileBytes = 0
		for (const { key } of site.storage ? await listStoredFiles(site.storage) : []) {
			const body = await site.storage!.read(key)
			if (!body) continue // deleted since it was listed
			const sha256 = createHash('sha256').update(body).digest('hex')
			await writer.add({ type: 'file', key, contentType: contentTypeOfKey(key), sha256 }, body)
			files += 1
			fileBytes += body.byteLength
		}
		await writer.finish({ tables, files, fileBytes })
		fs.renameSync(partial, file)
		return { file, tables, files, fileBytes, archiveBytes: fs.statSync(file).size }
	} catch (error) {
		await writer.abort()
		fs.rmSync(partial, { force: true })
		throw error
	}
}

/**
 * Whether this version of the site can restore an archive taken at `migrations`: they must be the
 * first of the migrations it knows. Returns how many of them to apply before loading the rows.
 */
export function restorableLevel(migrations: number[], known = knownMigrations()): number {
	const newer = migrations.some((when, index) => known[index]?.when !== when)
	if (newer || migrations.length > known.length) {
		throw new ArchiveError(getT()('ops.archive.newerSchema', { archived: migrations.length, known: known.length }))
	}
	return migrations.length
}

/** A copy of the migrations folder holding only the first `count` migrations (drizzle runs a whole folder). */
export function migrationsUpTo(count: number, folder = projectMigrationsFolder()): { folder: string; dispose(): void } {
	const target = fs.mkdtempSync(path.join(os.tmpdir(), 'band-site-migrations-'))
	const journal = JSON.parse(fs.readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')) as { entries: JournalEntry[] }
	const kept = journal.entries.slice(0, count)
	fs.mkdirSync(path.join(target, 'meta'))
	fs.writeFileSync(path.join(target, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries: kept }))
	for (const entry of kept) fs.copyFileSync(path.join(folder, `${entry.tag}.sql`), path.join(target, `${entry.tag}.sql`))
	return { folder: target, dispose: () => fs.rmSync(target, { recursive: true, force: true }) }
}

/** Whether a database holds no row of the site (a new one, or one whose tables are all empty). */
export async function databaseIsEmpty(db: Executor): Promise<boolean> {
	const counts = await countRows(db)
	return Object.values(counts).every((n) => n === 0)
}

/**
 * Loads an archive's rows into `db` (migrated to the archive's level, with no row yet), in one
 * transaction, then sets the sequences. Returns the counts it inserted.
 */
export async function loadRows(
	db: Db,
	file: string,
	options: { before?: (tx: Executor) => Promise<void> } = {},
): Promise<Record<string, number>> {
	const inserted: Record<string, number> = {}
	await db.transaction(async (tx) => {
		await options.before?.(tx)
		const columnsOf = new Map<string, string[]>()
		const columns = async (table: string) => {
			let found = columnsOf.get(table)
			if (!found) {
				found = (
					await rows<{ name: string }>(
						tx,
						sql`select a.attname as name from pg_attribute a join pg_class c on c.oid = a.attrelid
							join pg_namespace n on n.oid = c.relnamespace
							where n.nspname = 'public' and c.relname = ${table} and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
							order by a.attnum`,
					)
				).map((row) => row.name)
				if (found.length === 0) throw new ArchiveError(getT()('ops.archive.unknownTable', { table }))
				columnsOf.set(table, found)
			}
			return found
		}
		for await (const { entry, body } of readArchive(file)) {
			if (entry.type === 'rows') {
				const list = sql.join(
					(await columns(entry.table)).map((name) => sql.identifier(name)),
					sql`, `,
				)
				const json = `[${body.toString('utf8').split('\n').join(',')}]`
				await tx.execute(
					sql`insert into ${sql.identifier(entry.table)} (${list}) overriding system value
						select ${list} from jsonb_populate_recordset(null::${sql.identifier(entry.table)}, ${json}::jsonb)`,
				)
				inserted[entry.table] = (inserted[entry.table] ?? 0) + entry.rows
			} else if (entry.type === 'sequences') {
				for (const [name, value] of Object.entries(entry.values)) {
					if (value !== null) await tx.execute(sql`select setval(${`public.${JSON.stringify(name)}`}::regclass, ${value}, true)`)
				}
			} else if (entry.type === 'file' || entry.type === 'end') {
				break
			}
		}
	})
	return inserted
}

/**
 * Puts every file of the archive into `storage`, but those already there with the same size (an
 * earlier, interrupted restore). Returns how many it wrote, and their bytes.
 */
export async function loadFiles(
	storage: Storage,
	file: string,
	present = new Map<string, number>(),
): Promise<{ files: number; fileBytes: number }> {
	let files = 0
	let fileBytes = 0
	for await (const { entry, body } of readArchive(file)) {
		if (entry.type !== 'file' || present.get(entry.key) === entry.size) continue
		await storage.put(entry.key, new Uint8Array(body.buffer, body.byteOffset, body.byteLength), { contentType: entry.contentType })
		files += 1
		fileBytes += body.byteLength
	}
	return { files, fileBytes }
}

export { ArchiveError, verifyArchive }
