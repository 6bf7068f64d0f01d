import { createHash, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type Db } from '#app/platform/db/client.server.ts'
import { setlist, setlistItem, song } from '#app/platform/db/schema.ts'
import { ArchiveError, createArchiveWriter, readArchive } from '#app/platform/ops/archive.server.ts'
import { knownMigrations, siteTables, writeBackup } from '#app/platform/ops/backup.server.ts'
import { requestBackup, startControlSocket } from '#app/platform/ops/control.server.ts'
import { backupNow, BACKUPS_KEPT, listBackups } from '#app/platform/ops/scheduled-backups.server.ts'
import { backupSite, moveToPostgres, restoreSite, SiteRunningError } from '#app/platform/ops/site-tools.server.ts'
import { createStorage } from '#app/platform/storage/create-storage.server.ts'
import { listStoredFiles } from '#app/platform/storage/list.server.ts'
import type { Storage } from '#app/platform/storage/storage.server.ts'
import { createTestDatabase, databaseKind, makeTempDir, type TestDatabase } from '../support/database.ts'
import { daysFrom, insertCover, insertEvent } from '../support/events.ts'
import { startTestPlatform, type TestPlatform } from '../support/platform.ts'
import { SITE_URL } from '../support/requests.ts'
import { startTestS3 } from '../support/s3.ts'
import { siteDataCli } from '../support/site-data-cli.ts'

/*
 * Backups and restores on a real database and real files: a site with accounts, mails, events,
 * images and limits is backed up, restored into a fresh site, and every row of every table and
 * every file's bytes are found again. Then the refusals: a truncated, altered or newer archive, a
 * site that is not empty, a folder the server holds.
 */

let site: TestPlatform
let temp: { dir: string; dispose(): void }
const targets: TestDatabase[] = []

/** Restores open an embedded database several times, which a busy machine makes slow. */
const SLOW = { timeout: 180_000 }

/** Every row of every site table, as sorted JSON: two sites hold the same data if these are equal. */
async function snapshot(db: Db): Promise<Record<string, string[]>> {
	const out: Record<string, string[]> = {}
	for (const table of await siteTables(db)) {
		const result = (await db.execute(sql`select to_jsonb(t)::text as r from ${sql.identifier(table)} t`)) as unknown as {
			rows: { r: string }[]
		}
		out[table] = result.rows.map((row) => row.r).sort()
	}
	return out
}

async function fileDigests(storage: Storage): Promise<Record<string, string>> {
	const out: Record<string, string> = {}
	for (const { key } of await listStoredFiles(storage))
		out[key] = createHash('sha256')
			.update((await storage.read(key))!)
			.digest('hex')
	return out
}

const envFor = (target: { dataDir: string; databaseUrl?: string }) => ({
	DATA_DIR: target.dataDir,
	DATABASE_URL: target.databaseUrl,
	SITE_URL,
	S3_ENDPOINT: undefined,
	S3_BUCKET: undefined,
	S3_REGION: 'us-east-1',
	S3_ACCESS_KEY_ID: undefined,
	S3_SECRET_ACCESS_KEY: undefined,
})

/** An archive from a later version of the site: one migration this code does not know. */
async function newerArchive(file: string): Promise<string> {
	const writer = createArchiveWriter(file)
	const known = knownMigrations().map((m) => m.when)
	await writer.add({
		type: 'manifest',
		format: 1,
		createdAt: new Date().toISOString(),
		source: { database: 'pglite', storage: 'local' },
		migrations: [...known, known.at(-1)! + 1000],
	})
	await writer.finish({ tables: {}, files: 0, fileBytes: 0 })
	return file
}

async function freshTarget(kind = databaseKind()) {
	const target = await createTestDatabase(kind)
	targets.push(target)
	return target
}

beforeAll(async () => {
	site = await startTestPlatform()
	temp = makeTempDir()
	const { auth, database, storage, limits } = site.platform
	const db = database.db
	// Accounts (user, account, verification, outbox mail), events with covers, files, limits.
	for (const [name, email] of [
		['Alice Martin', 'alice@example.org'],
		['Bruno Leroy', 'bruno@example.org'],
	]) {
		await auth.api.signUpEmail({ body: { name: name!, email: email!, password: 'cheval agrafe pile correcte' } })
	}
	for (let i = 0; i < 3; i++) {
		const cover = await insertCover(db)
		for (const variant of cover.variants) await storage.put(variant.key, randomBytes(300 + i), { contentType: 'image/avif' })
		await storage.put(`originals/${cover.id}.jpg`, randomBytes(5000), { contentType: 'image/jpeg' })
		await insertEvent(db, { title: `Concert n° ${i + 1} — « Été »`, startsAt: daysFrom(10 + i), coverId: cover.id })
	}
	const draft = await insertEvent(db, { title: 'Brouillon', startsAt: daysFrom(40), published: false, publishedAt: null })
	// A set list for that draft: rows of three more tables, linked by foreign keys.
	await db.insert(song).values([
		{ id: 'song-1', title: 'Ouverture', durationSeconds: 215, musicalKey: 'Mi mineur', tempo: 128 },
		{ id: 'song-2', title: 'La « dernière »', originalArtist: 'Reprise', durationSeconds: 190 },
	])
	await db.insert(setlist).values({ id: 'setlist-1', name: 'Tournée d’été', eventId: draft })
	await db.insert(setlistItem).values([
		{ id: 'item-1', setlistId: 'setlist-1', position: 0, kind: 'set', label: 'Premier set' },
		{ id: 'item-2', setlistId: 'setlist-1', position: 1, kind: 'song', songId: 'song-1' },
		{ id: 'item-3', setlistId: 'setlist-1', position: 2, kind: 'encore' },
		{ id: 'item-4', setlistId: 'setlist-1', position: 3, kind: 'song', songId: 'song-2', notes: 'capo 2' },
	])

	await limits.consume('signInByAddress', '203.0.113.9')
}, 120_000)

afterAll(async () => {
	await site?.stop()
	for (const target of targets) await target.dispose()
	temp?.dispose()
})

describe('backup and restore', () => {
	it('restores into a fresh site every row of every table and every file', SLOW, async () => {
		const { database, storage } = site.platform
		const before = await snapshot(database.db)
		const beforeFiles = await fileDigests(storage)
		expect(before.user).toHaveLength(2)
		expect(before.event).toHaveLength(4)
		expect(before.setlist_item).toHaveLength(4)
		expect(Object.keys(beforeFiles).length).toBeGreaterThan(10)

		const file = path.join(temp.dir, 'site.backup')
		const summary = await writeBackup({ database, storage }, file)
		expect(summary.tables).toEqual(Object.fromEntries(Object.entries(before).map(([table, rows]) => [table, rows.length])))
		expect(summary.files).toBe(Object.keys(beforeFiles).length)

		const target = await freshTarget()
		const restored = await restoreSite(envFor(target), file)
		expect(restored.tables).toEqual(summary.tables)
		expect(restored.files).toBe(summary.files)

		const reopened = await openDatabase({ dataDir: target.dataDir, databaseUrl: target.databaseUrl })
		try {
			expect(await snapshot(reopened.db)).toEqual(before)
		} finally {
			await reopened.close()
		}
		const targetStorage = await createStorage(envFor(target), 'test')
		expect(await fileDigests(targetStorage)).toEqual(beforeFiles)

		// And the restored site is not empty any more: a second restore into it is refused.
		await expect(restoreSite(envFor(target), file)).rejects.toThrow(/site vide|base vide|n'est pas vide/)
	})

	it('restores an archive of one database kind into the other', SLOW, async () => {
		const file = path.join(temp.dir, 'cross.backup')
		await writeBackup(site.platform, file)
		const target = await freshTarget(databaseKind() === 'pglite' ? 'postgres' : 'pglite')
		const restored = await restoreSite(envFor(target), file)
		const reopened = await openDatabase({ dataDir: target.dataDir, databaseUrl: target.databaseUrl })
		try {
			expect(await snapshot(reopened.db)).toEqual(await snapshot(site.platform.database.db))
		} finally {
			await reopened.close()
		}
		expect(restored.files).toBe((await listStoredFiles(site.platform.storage)).length)
	})

	it('restores the files into an S3 bucket', SLOW, async () => {
		const file = path.join(temp.dir, 'to-s3.backup')
		const summary = await writeBackup(site.platform, file)
		const s3 = await startTestS3('restored-media')
		try {
			const target = await freshTarget()
			const env = { ...envFor(target), ...s3.env, S3_REGION: s3.region }
			const restored = await restoreSite(env, file)
			expect(restored.files).toBe(summary.files)
			expect(await fileDigests(await createStorage(env, 'test'))).toEqual(await fileDigests(site.platform.storage))
		} finally {
			await s3.close()
		}
	})

	it('refuses a truncated, altered or newer archive before writing anything', SLOW, async () => {
		const file = path.join(temp.dir, 'good.backup')
		await writeBackup(site.platform, file)
		const bytes = fs.readFileSync(file)

		const truncated = path.join(temp.dir, 'truncated.backup')
		fs.writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length * 0.6)))
		const altered = path.join(temp.dir, 'altered.backup')
		const copy = Buffer.from(bytes)
		copy[Math.floor(copy.length / 2)]! ^= 0xff
		fs.writeFileSync(altered, copy)
		const notOurs = path.join(temp.dir, 'not-ours.backup')
		fs.writeFileSync(notOurs, 'bonjour')

		const newer = await newerArchive(path.join(temp.dir, 'newer.backup'))

		for (const [archive, message] of [
			[truncated, /tronquée|incomplète/],
			[altered, /tronquée|abîmée|modifiée|incohérente/],
			[notOurs, /pas une sauvegarde/],
			[newer, /version plus récente/],
		] as const) {
			const target = await freshTarget()
			const error = await restoreSite(envFor(target), archive).catch((e: unknown) => e)
			expect(error, archive).toBeInstanceOf(ArchiveError)
			expect((error as Error).message).toMatch(message)
			// Nothing was created: the target is still an empty site.
			expect(fs.existsSync(path.join(target.dataDir, 'pglite'))).toBe(false)
			expect(await listStoredFiles(await createStorage(envFor(target), 'test'))).toEqual([])
		}
	})

	it('npm run restore says why it refuses a newer or truncated archive, in French, and writes nothing', SLOW, async () => {
		const good = path.join(temp.dir, 'cli-good.backup')
		await writeBackup(site.platform, good)
		const truncated = path.join(temp.dir, 'cli-truncated.backup')
		const bytes = fs.readFileSync(good)
		fs.writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length * 0.6)))
		const newer = await newerArchive(path.join(temp.dir, 'cli-newer.backup'))

		for (const [archive, message] of [
			[newer, /^Échec\s: Cette sauvegarde vient d'une version plus récente du site/m],
			[truncated, /^Échec\s: .*(tronquée|incomplète)/m],
		] as const) {
			const target = await freshTarget()
			const env: Record<string, string> = { DATA_DIR: target.dataDir, SITE_URL }
			if (target.databaseUrl) env.DATABASE_URL = target.databaseUrl
			const run = await siteDataCli(['restore', archive], env)
			expect(run.code, run.output).toBe(1)
			expect(run.output).toMatch(message)
			// One sentence for the operator, not a stack trace.
			expect(run.output).not.toMatch(/\n\s+at /)
			expect(fs.existsSync(path.join(target.dataDir, 'pglite'))).toBe(false)
			expect(fs.existsSync(path.join(target.dataDir, 'files'))).toBe(false)
		}
	})

	it('runs again after an interruption, and refuses a target holding other files', SLOW, async () => {
		const file = path.join(temp.dir, 'resume.backup')
		const summary = await writeBackup(site.platform, file)
		const target = await freshTarget()
		const targetStorage = await createStorage(envFor(target), 'test')
		// As if a first run had stopped midway: some files there, the database created but empty.
		const [firstKey, secondKey] = (await listStoredFiles(site.platform.storage)).map((f) => f.key)
		await targetStorage.put(firstKey!, (await site.platform.storage.read(firstKey!))!, { contentType: 'image/avif' })
		const before = (await targetStorage.stat(firstKey!))!.lastModified
		const empty = await openDatabase({ dataDir: target.dataDir, databaseUrl: target.databaseUrl })
		await empty.close()

		const restored = await restoreSite(envFor(target), file)
		expect(restored.tables).toEqual(summary.tables)
		expect(restored.files).toBe(summary.files)
		expect((await targetStorage.stat(firstKey!))!.lastModified).toEqual(before) // not sent twice

		const other = await freshTarget()
		const otherStorage = await createStorage(envFor(other), 'test')
		await otherStorage.put('autre/fichier.txt', new TextEncoder().encode('à moi'), { contentType: 'text/plain' })
		await expect(restoreSite(envFor(other), file)).rejects.toThrow(/contient déjà d'autres fichiers/)
		// A file of the archive but with other bytes counts as foreign too.
		const third = await freshTarget()
		await (await createStorage(envFor(third), 'test')).put(secondKey!, new Uint8Array([1, 2, 3]), { contentType: 'image/avif' })
		await expect(restoreSite(envFor(third), file)).rejects.toThrow(/contient déjà d'autres fichiers/)
	})

	it('reads the archive it wrote entry by entry, manifest first and end last', async () => {
		const file = path.join(temp.dir, 'entries.backup')
		await writeBackup(site.platform, file)
		const types: string[] = []
		for await (const { entry } of readArchive(file)) types.push(entry.type)
		expect(types[0]).toBe('manifest')
		expect(types.at(-1)).toBe('end')
		expect(types.indexOf('file')).toBeGreaterThan(types.lastIndexOf('rows'))
	})

	it('keeps the last seven automatic backups', async () => {
		const dir = path.join(temp.dir, 'auto')
		fs.mkdirSync(dir)
		for (let day = 1; day <= 9; day++)
			fs.writeFileSync(path.join(dir, `sauvegarde-202601${String(day).padStart(2, '0')}-033000.backup`), 'x')
		fs.writeFileSync(path.join(dir, 'notes.txt'), 'à garder')
		const summary = await backupNow(site.platform, dir)
		const kept = listBackups(dir)
		expect(kept).toHaveLength(BACKUPS_KEPT)
		expect(kept.at(-1)).toBe(path.basename(summary.file))
		expect(kept[0]).toBe('sauvegarde-20260104-033000.backup')
		expect(fs.existsSync(path.join(dir, 'notes.txt'))).toBe(true)
	})
})

describe.runIf(databaseKind() === 'pglite')('the embedded database while the server holds it', () => {
	it('backs up through the running server, and refuses to restore or move', SLOW, async () => {
		const { env } = site.platform
		const stop = await startControlSocket({ ...site.platform, dataDir: env.DATA_DIR })
		try {
			const file = path.join(temp.dir, 'from-server.backup')
			const summary = await backupSite(envFor({ dataDir: env.DATA_DIR }), file)
			expect(summary.via).toBe('server')
			expect(summary.tables.user).toBe(2)
			const target = await freshTarget()
			const restored = await restoreSite(envFor(target), file)
			expect(restored.tables).toEqual(summary.tables)
		} finally {
			await stop()
		}
		// No socket: the CLI cannot reach the server and must not open the folder beside it.
		expect(await requestBackup(env.DATA_DIR, path.join(temp.dir, 'none.backup'))).toBeNull()
		await expect(backupSite(envFor({ dataDir: env.DATA_DIR }), path.join(temp.dir, 'none.backup'))).rejects.toThrow(/ne répond pas/)
		const pg = await freshTarget('postgres')
		await expect(moveToPostgres({ ...envFor({ dataDir: env.DATA_DIR }), DATABASE_URL: pg.databaseUrl! })).rejects.toBeInstanceOf(
			SiteRunningError,
		)
	})
})
