import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type Database } from '#app/platform/db/client.server.ts'
import { code, codeRedemption } from '#app/platform/db/schema.ts'
import { formatCode } from '#app/features/codes/code-format.ts'
import { createMigratedTestDatabase, databaseKind, type TestDatabase } from '../support/database.ts'
import { campaignWithCodes } from '../support/codes.ts'
import { ensureBuild, TEST_BUILD_DIR, startSiteServer, type SiteServer } from '../support/site-server.ts'

/*
 * The double-spend proof through the whole HTTP path: two instances of the real server
 * (server/index.ts on a production build) on one PostgreSQL, and a crowd of visitors posting the
 * same code to either of them at once, each from its own address (told by a trusted proxy, so that
 * the per-address limits do not stop the crowd before the database does). PostgreSQL only: an
 * embedded database has one process.
 */
const kind = databaseKind()
let database: TestDatabase
let db: Database
let servers: SiteServer[] = []

describe.skipIf(kind !== 'postgres')('codes redeemed through two server instances on PostgreSQL', () => {
	beforeAll(async () => {
		await ensureBuild()
		database = await createMigratedTestDatabase()
		const env = { DATABASE_URL: database.databaseUrl, TRUST_PROXY: '127.0.0.1' }
		// The first one migrates; the second starts on a database that is ready.
		servers.push(await startSiteServer({ buildDir: TEST_BUILD_DIR, dataDir: database.dataDir, env }))
		servers.push(await startSiteServer({ buildDir: TEST_BUILD_DIR, dataDir: database.dataDir, env }))
		db = await openDatabase({ databaseUrl: database.databaseUrl, dataDir: database.dataDir })
	}, 300_000)
	afterAll(async () => {
		await Promise.all(servers.map((s) => s.stop()))
		servers = []
		await db?.close()
		await database?.dispose()
	})

	/** `count` visitors at once, alternating between the instances, each from its own address. */
	async function crowd(value: string, count: number) {
		return Promise.all(
			Array.from({ length: count }, async (_, i) => {
				const origin = servers[i % servers.length]!.origin
				const response = await fetch(`${origin}/redeem`, {
					method: 'POST',
					headers: {
						origin,
						'content-type': 'application/x-www-form-urlencoded',
						'x-forwarded-for': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
					},
					body: new URLSearchParams({ code: formatCode(value) }),
					redirect: 'manual',
				})
				const html = await response.text()
				// Reserved: the page's sign-in and sign-up links lead back to the claim (/auth/claim?mode=reward…).
				return { status: response.status, reserved: html.includes(encodeURIComponent('/auth/claim?mode=reward')) }
			}),
		)
	}

	const count = async (value: string) => {
		const [row] = await db.db.select({ uses: code.uses }).from(code).where(eq(code.code, value))
		const [held] = await db.db
			.select({ n: sql<number>`count(*)::int` })
			.from(codeRedemption)
			.where(eq(codeRedemption.code, value))
		return { uses: row!.uses, redemptions: held!.n }
	}

	it('gives a single-use code to exactly one of 1,000 visitors', async () => {
		const { codes } = await campaignWithCodes(db.db, 1)
		const results = await crowd(codes[0]!, 1000)
		expect(results.filter((r) => r.status === 200 && r.reserved)).toHaveLength(1)
		expect(results.filter((r) => r.status === 410)).toHaveLength(999)
		expect(await count(codes[0]!)).toEqual({ uses: 1, redemptions: 1 })
	}, 240_000)

	it('gives a five-use code to exactly five of 300 visitors', async () => {
		const { codes } = await campaignWithCodes(db.db, 1, { usesPerCode: 5 })
		const results = await crowd(codes[0]!, 300)
		expect(results.filter((r) => r.status === 200 && r.reserved)).toHaveLength(5)
		expect(results.filter((r) => r.status === 410)).toHaveLength(295)
		expect(await count(codes[0]!)).toEqual({ uses: 5, redemptions: 5 })
	}, 240_000)
})
