import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { DataDirLockedError, openDatabase, openPglite, openPostgres, type Database } from '#app/platform/db/client.server.ts'
import { siteSetting } from '#app/platform/db/schema.ts'
import { createTestDatabase, databaseKind, postgresDatabaseExists, type TestDatabase } from '../support/database.ts'

const kind = databaseKind()
const root = path.resolve(import.meta.dirname, '../..')

/** Every migration drizzle-kit generated, from its journal. */
const journal = JSON.parse(fs.readFileSync(path.join(root, 'drizzle/meta/_journal.json'), 'utf8')) as {
	entries: { tag: string }[]
}

async function rows<T>(database: Database, query: ReturnType<typeof sql>): Promise<T[]> {
	const result = (await database.db.execute(query)) as unknown as { rows: T[] }
	return result.rows
}

const open = (target: TestDatabase) => openDatabase({ databaseUrl: target.databaseUrl, dataDir: target.dataDir })

describe(`openDatabase on ${kind}`, () => {
	let target: TestDatabase
	beforeAll(async () => {
		target = await createTestDatabase()
	})
	afterAll(async () => {
		await target.dispose()
		if (target.databaseUrl) expect(await postgresDatabaseExists(target.databaseUrl)).toBe(false)
		else expect(fs.existsSync(target.dataDir)).toBe(false)
	})

	it('runs every migration on an empty database, then answers ping, then closes', async () => {
		const database = await open(target)
		try {
			expect(database.kind).toBe(kind)
			await database.ping()
			const tables = await rows<{ table_name: string }>(
				database,
				sql`select table_name from information_schema.tables where table_schema = 'public'`,
			)
			expect(tables.map((t) => t.table_name)).toEqual(
				expect.arrayContaining(['user', 'session', 'account', 'verification', 'site_setting']),
			)
			const applied = await rows<{ n: number | string }>(database, sql`select count(*) as n from drizzle.__drizzle_migrations`)
			expect(Number(applied[0]!.n)).toBe(journal.entries.length)
		} finally {
			await database.close()
		}
		await expect(database.ping()).rejects.toThrow()
	})

	it('keeps its data across a close and a reopen, and migrating again changes nothing', async () => {
		const first = await open(target)
		await first.db.insert(siteSetting).values({ key: 'test:kept', value: 'toujours là' })
		await first.close()

		const second = await open(target)
		try {
			const [row] = await second.db
				.select()
				.from(siteSetting)
				.where(sql`${siteSetting.key} = 'test:kept'`)
			expect(row?.value).toBe('toujours là')
			const applied = await rows<{ n: number | string }>(second, sql`select count(*) as n from drizzle.__drizzle_migrations`)
			expect(Number(applied[0]!.n)).toBe(journal.entries.length)
		} finally {
			await second.close()
		}
	})
})

/**
 * Waits until the holder has refreshed its lock since `since`. proper-lockfile refreshes the lock
 * every ~2 s from a timer; a long synchronous stretch (PGlite's first initdb on a busy machine) can
 * delay that past the 10 s after which a lock counts as stale (see the report on this folder lock).
 * The tests below are about a server that is open and idle, whose lock is fresh.
 */
function lockRefreshedSince(lockPath: string, since: number) {
	return vi.waitFor(
		() => {
			if (fs.statSync(lockPath).mtimeMs < since) throw new Error(`the lock ${lockPath} was not refreshed`)
		},
		{ timeout: 20_000, interval: 100 },
	)
}

describe.runIf(kind === 'pglite')('the embedded database’s data-folder lock', () => {
	let target: TestDatabase
	let holder: Database
	beforeAll(async () => {
		target = await createTestDatabase('pglite')
		holder = await openPglite(target.dataDir)
		await lockRefreshedSince(path.join(target.dataDir, 'pglite.lock'), Date.now())
	})
	afterAll(async () => {
		await holder?.close()
		await target.dispose()
	})

	it('refuses a second opening in this process while the first is open', async () => {
		const attempt = openPglite(target.dataDir)
		await expect(attempt).rejects.toBeInstanceOf(DataDirLockedError)
		await expect(attempt).rejects.toThrow(
			`Le dossier de données ${path.join(target.dataDir, 'pglite')} est déjà utilisé par un autre processus du site.`,
		)
	})

	it('refuses another process, which stops with a non-zero code and the French message', async () => {
		const bin = path.join(root, 'node_modules/.bin')
		const child = spawn(path.join(bin, 'tsx'), [path.join(root, 'tests/support/open-pglite.ts'), target.dataDir], {
			cwd: root,
			// The project's own Node (node_modules/.bin/node) runs tsx, as in the npm scripts.
			env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` },
			stdio: ['ignore', 'pipe', 'pipe'],
		})
		let stdout = ''
		let stderr = ''
		child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
		const code = await new Promise<number | null>((resolve) => child.on('close', resolve))

		expect(stdout).not.toContain('opened')
		expect(code).not.toBe(0)
		expect(code).not.toBeNull()
		expect(stderr).toContain('DataDirLockedError')
		expect(stderr).toContain('est déjà utilisé par un autre processus du site')
		expect(stderr).toContain("une base embarquée ne s'ouvre que par un seul processus à la fois")
	})

	it('is still fine after those attempts, and the folder opens again once released', async () => {
		await holder.ping()
		await holder.db.insert(siteSetting).values({ key: 'test:lock', value: 'ok' })
		await holder.close()
		const again = await openPglite(target.dataDir)
		holder = again
		const [row] = await again.db
			.select()
			.from(siteSetting)
			.where(sql`${siteSetting.key} = 'test:lock'`)
		expect(row?.value).toBe('ok')
	})
})

describe.runIf(kind === 'pglite')('a restart after a crash', () => {
	let target: TestDatabase
	beforeAll(async () => {
		target = await createTestDatabase('pglite')
	})
	afterAll(async () => {
		await target.dispose()
	})

	it('opens at once when the holder of the lock was killed (kill -9), well before the lock goes stale', async () => {
		const bin = path.join(root, 'node_modules/.bin')
		const child = spawn(path.join(bin, 'tsx'), [path.join(root, 'tests/support/open-pglite.ts'), target.dataDir, '--hold'], {
			cwd: root,
			env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` },
			stdio: ['ignore', 'pipe', 'pipe'],
		})
		let stdout = ''
		child.stderr.resume()
		await new Promise<void>((resolve, reject) => {
			child.stdout.on('data', (chunk: Buffer) => {
				stdout += chunk.toString()
				if (stdout.includes('opened')) resolve()
			})
			child.once('exit', (code) => reject(new Error(`the holder exited early (code ${code})`)))
		})
		const killed = new Promise((resolve) => child.once('exit', resolve))
		// tsx runs the script in a child of its own: kill the whole group, as the OOM killer would.
		process.kill(child.pid!, 'SIGKILL')
		await killed
		// The script's own process (tsx's child) may outlive tsx for a moment: wait until its id is gone.
		const pidFile = path.join(target.dataDir, 'pglite.pid')
		const holderPid = Number(fs.readFileSync(pidFile, 'utf8'))
		if (holderPid !== child.pid) {
			try {
				process.kill(holderPid, 'SIGKILL')
			} catch {
				// already gone
			}
		}
		const deadline = Date.now() + 2_000
		while (Date.now() < deadline && isAlive(holderPid)) await new Promise((resolve) => setTimeout(resolve, 50))

		const started = Date.now()
		const reopened = await openPglite(target.dataDir)
		try {
			expect(Date.now() - started).toBeLessThan(5_000)
			await reopened.ping()
		} finally {
			await reopened.close()
		}
		// The bound that matters is the 5 s above; starting tsx and PGlite on a busy machine takes longer.
	}, 90_000)
})

describe.runIf(kind === 'pglite')('a lock whose holder is gone, whatever it left behind', () => {
	let target: TestDatabase
	beforeAll(async () => {
		target = await createTestDatabase('pglite')
		// A first opening makes the folder (initdb, migrations): the tests below time the lock alone.
		await (await openPglite(target.dataDir)).close()
	})
	afterAll(async () => {
		await target.dispose()
	})

	const lockPath = () => path.join(target.dataDir, 'pglite.lock')
	const pidPath = () => path.join(target.dataDir, 'pglite.pid')
	const ago = (ms: number) => new Date(Date.now() - ms)

	it('opens at once when the holder’s id now belongs to another process started since (ids are reused)', async () => {
		// The dead holder named itself a minute ago; its id is now a live process's, started just now.
		const other = spawn('sleep', ['30'], { stdio: 'ignore' })
		try {
			fs.mkdirSync(lockPath())
			fs.writeFileSync(pidPath(), String(other.pid))
			fs.utimesSync(pidPath(), ago(60_000), ago(60_000))
			// Refused at once before: that live id held the folder until the lock went stale (10 minutes).
			const reopened = await openPglite(target.dataDir)
			await reopened.close()
		} finally {
			other.kill('SIGKILL')
		}
		expect(fs.existsSync(lockPath())).toBe(false)
		expect(fs.existsSync(pidPath())).toBe(false)
	})

	it('opens when a lock was left without its holder’s id (a death while taking it), and refuses one just taken', async () => {
		fs.mkdirSync(lockPath())
		// Just taken: its holder is writing its id this very moment.
		await expect(openPglite(target.dataDir)).rejects.toBeInstanceOf(DataDirLockedError)
		// Left for longer than a holder ever takes to name itself: abandoned.
		fs.utimesSync(lockPath(), ago(10_000), ago(10_000))
		const reopened = await openPglite(target.dataDir)
		await reopened.ping()
		await reopened.close()
		expect(fs.existsSync(lockPath())).toBe(false)
	})
})

function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0)
		return true
	} catch {
		return false
	}
}

describe.runIf(kind === 'postgres')('several instances starting at once on PostgreSQL', () => {
	let target: TestDatabase
	beforeAll(async () => {
		target = await createTestDatabase('postgres')
	})
	afterAll(async () => {
		await target.dispose()
	})

	it('migrate one at a time: all start, and every migration is applied once', async () => {
		const instances = await Promise.all([1, 2, 3].map(() => openPostgres(target.databaseUrl!)))
		try {
			await Promise.all(instances.map((instance) => instance.ping()))
			const applied = await rows<{ n: string }>(instances[0]!, sql`select count(*) as n from drizzle.__drizzle_migrations`)
			expect(Number(applied[0]!.n)).toBe(journal.entries.length)
		} finally {
			await Promise.all(instances.map((instance) => instance.close()))
		}
	})
})
