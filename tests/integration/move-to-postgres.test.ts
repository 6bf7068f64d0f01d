import { createHash, randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPglite, openPostgres, type Db } from '#app/platform/db/client.server.ts'
import { session } from '#app/platform/db/schema.ts'
import { siteTables } from '#app/platform/ops/backup.server.ts'
import { moveToPostgres, SiteRunningError } from '#app/platform/ops/site-tools.server.ts'
import { closePlatform } from '#app/platform/platform.server.ts'
import { createStorage } from '#app/platform/storage/create-storage.server.ts'
import { listStoredFiles } from '#app/platform/storage/list.server.ts'
import type { Storage } from '#app/platform/storage/storage.server.ts'
import { createTestDatabase, databaseKind, type TestDatabase } from '../support/database.ts'
import { daysFrom, insertCover, insertEvent } from '../support/events.ts'
import { startTestPlatform, type TestPlatform } from '../support/platform.ts'
import { SITE_URL } from '../support/requests.ts'
import { startTestS3, type TestS3 } from '../support/s3.ts'

/*
 * `npm run move-to-postgres` on a real embedded site: refused while the site runs; then every row
 * and file is copied to PostgreSQL and the S3 test server, counted on both sides; run again, it
 * gives the same result without copying files twice; once the site has served on PostgreSQL, a
 * new run is refused. Only in the PGlite project: the source is always an embedded database.
 */

let site: TestPlatform
let target: TestDatabase
let s3: TestS3

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

describe.runIf(databaseKind() === 'pglite')('moving an embedded site to PostgreSQL and S3', () => {
	const env = () => ({
		DATA_DIR: site.database.dataDir,
		DATABASE_URL: target.databaseUrl!,
		SITE_URL,
		S3_REGION: s3.region,
		S3_ENDPOINT: s3.endpoint,
		S3_BUCKET: s3.bucket,
		S3_ACCESS_KEY_ID: s3.accessKeyId,
		S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
	})
	const localEnv = () => ({
		...env(),
		S3_ENDPOINT: undefined,
		S3_BUCKET: undefined,
		S3_ACCESS_KEY_ID: undefined,
		S3_SECRET_ACCESS_KEY: undefined,
	})

	beforeAll(async () => {
		site = await startTestPlatform()
		target = await createTestDatabase('postgres')
		s3 = await startTestS3()
		const { auth, database, storage } = site.platform
		await auth.api.signUpEmail({ body: { name: 'Alice Martin', email: 'alice@example.org', password: 'cheval agrafe pile correcte' } })
		for (let i = 0; i < 2; i++) {
			const cover = await insertCover(database.db)
			for (const variant of cover.variants) await storage.put(variant.key, randomBytes(400 + i), { contentType: 'image/webp' })
			await insertEvent(database.db, { title: `Date ${i + 1}`, startsAt: daysFrom(5 + i), coverId: cover.id })
		}
	}, 120_000)

	afterAll(async () => {
		await closePlatform()
		await site?.database.dispose()
		await target?.dispose()
		await s3?.close()
	})

	it('refuses while the embedded server holds the folder, then moves and counts every row and file', { timeout: 180_000 }, async () => {
		await expect(moveToPostgres(env())).rejects.toBeInstanceOf(SiteRunningError)
		const localFiles = await fileDigests(site.platform.storage)
		await closePlatform()

		const first = await moveToPostgres(env())
		expect(first.replacedEarlierMove).toBe(false)
		for (const [table, counts] of Object.entries(first.tables)) expect(counts.target, table).toBe(counts.source)
		expect(first.tables.user).toEqual({ source: 1, target: 1 })
		expect(first.tables.event).toEqual({ source: 2, target: 2 })
		expect(first.files).toEqual({
			source: Object.keys(localFiles).length,
			target: Object.keys(localFiles).length,
			copied: Object.keys(localFiles).length,
		})

		const source = await openPglite(site.database.dataDir, { migrations: false })
		const postgres = await openPostgres(target.databaseUrl!, { migrations: false })
		try {
			const moved = await snapshot(postgres.db)
			moved.site_setting = moved.site_setting!.filter((row) => !row.includes('ops.moved_from_embedded_at'))
			expect(moved).toEqual(await snapshot(source.db))
		} finally {
			await source.close()
			await postgres.close()
		}
		const bucket = await createStorage(env(), 'test')
		expect(await fileDigests(bucket)).toEqual(localFiles)

		// Again: the same data, nothing sent twice.
		const second = await moveToPostgres(env())
		expect(second.replacedEarlierMove).toBe(true)
		expect(second.tables).toEqual(first.tables)
		expect(second.files.copied).toBe(0)
		expect(await fileDigests(bucket)).toEqual(localFiles)
		// The local files are still there, untouched.
		expect(await fileDigests(await createStorage(localEnv(), 'test'))).toEqual(localFiles)
	})

	it('refuses once the site has served on PostgreSQL', async () => {
		const postgres = await openPostgres(target.databaseUrl!, { migrations: false })
		try {
			const users = ((await postgres.db.execute(sql`select id from "user" limit 1`)) as unknown as { rows: { id: string }[] }).rows
			await postgres.db.insert(session).values({
				id: 'used-on-postgres',
				token: randomBytes(16).toString('hex'),
				userId: users[0]!.id,
				expiresAt: daysFrom(7),
				createdAt: new Date(Date.now() + 1000),
			})
		} finally {
			await postgres.close()
		}
		await expect(moveToPostgres(env())).rejects.toThrow(/déjà servi sur PostgreSQL/)
	})
})
