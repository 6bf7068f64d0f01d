import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { pino } from 'pino'
import lockfile from 'proper-lockfile'
import { inject } from 'vitest'
import { openPglite, openPostgres } from '#app/platform/db/client.server.ts'
import { startJobs } from '#app/platform/jobs.server.ts'
import { TEMP_PREFIX, TEST_DATABASE_PREFIX } from './names.ts'

export type DatabaseKind = 'pglite' | 'postgres'

declare module 'vitest' {
	export interface ProvidedContext {
		/** Which database the integration project runs on (vitest.config.ts). */
		database: DatabaseKind
		/** Names this run's temporary folders and databases (tests/support/global-setup.ts). */
		runId: string
		postgresAdminUrl: string
	}
}

/** The database kind of the project this test file runs in. */
export function databaseKind(): DatabaseKind {
	return inject('database')
}

/** A temporary folder of this run, removed by `dispose` (and by the run's final sweep otherwise). */
export function makeTempDir(): { dir: string; dispose(): void } {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${TEMP_PREFIX}${inject('runId')}-`))
	return { dir, dispose: () => fs.rmSync(dir, { recursive: true, force: true }) }
}

export interface TestDatabase {
	kind: DatabaseKind
	/** The data folder: PGlite lives in it; on PostgreSQL it is still the site's DATA_DIR. */
	dataDir: string
	/** Set on PostgreSQL only: a database of its own, created for this test file. */
	databaseUrl?: string
	dispose(): Promise<void>
}

async function withAdmin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
	const client = new pg.Client({ connectionString: inject('postgresAdminUrl') })
	await client.connect()
	try {
		return await run(client)
	} finally {
		await client.end()
	}
}

/**
 * A fresh, empty database of the given kind: a temporary folder for PGlite, or a new, uniquely
 * named PostgreSQL database (dropped again by `dispose`).
 */
export async function createTestDatabase(kind: DatabaseKind = databaseKind()): Promise<TestDatabase> {
	if (kind === 'pglite') {
		const temp = makeTempDir()
		return { kind, dataDir: temp.dir, dispose: async () => temp.dispose() }
	}
	return createPostgresDatabase()
}

/** A new, uniquely named PostgreSQL database, a copy of `template` when given, dropped by `dispose`. */
async function createPostgresDatabase(template?: string): Promise<TestDatabase> {
	const temp = makeTempDir()
	const name = `${TEST_DATABASE_PREFIX}${inject('runId')}_${randomBytes(4).toString('hex')}`
	await withAdmin((client) => client.query(`create database "${name}"${template ? ` template "${template}"` : ''}`))
	const url = new URL(inject('postgresAdminUrl'))
	url.pathname = `/${name}`
	return {
		kind: 'postgres',
		dataDir: temp.dir,
		databaseUrl: url.toString(),
		dispose: async () => {
			await withAdmin((client) => client.query(`drop database if exists "${name}" with (force)`))
			temp.dispose()
		},
	}
}

/*
 * A fresh database as a first start leaves it (the project's migrations and the job queue's tables
 * in, no row of the site's), copied from a template made once per run: a PGlite data folder copied
 * as files, a PostgreSQL database created with `TEMPLATE`. Opening it runs the migrations as usual
 * (none is left to apply). PGlite's first start (initdb, then migrations) is seconds of CPU, its
 * copy a fraction of one; the tests about migrations and empty databases keep createTestDatabase.
 */
export async function createMigratedTestDatabase(kind: DatabaseKind = databaseKind()): Promise<TestDatabase> {
	const template = await ensureTemplate(kind)
	if (kind === 'pglite') {
		const temp = makeTempDir()
		fs.cpSync(path.join(template, 'pglite'), path.join(temp.dir, 'pglite'), { recursive: true })
		return { kind, dataDir: temp.dir, dispose: async () => temp.dispose() }
	}
	return createPostgresDatabase(template)
}

/**
 * Where this run's template of that kind is, made first if needed: one test file makes it while
 * the others wait for the lock. Each maker builds under a name of its own and names it in the
 * `.ready` file last, so a lock taken over from a maker that seemed gone never mixes two of them.
 */
async function ensureTemplate(kind: DatabaseKind): Promise<string> {
	const base = path.join(os.tmpdir(), `${TEMP_PREFIX}${inject('runId')}-template-${kind}`)
	const ready = `${base}.ready`
	if (fs.existsSync(ready)) return fs.readFileSync(ready, 'utf8')
	fs.mkdirSync(base, { recursive: true })
	// PGlite's first start can hold the event loop (and the lock's refresh) for a long while.
	const release = await lockfile.lock(base, {
		realpath: false,
		stale: 300_000,
		retries: { retries: 3_000, minTimeout: 100, maxTimeout: 200 },
	})
	try {
		if (fs.existsSync(ready)) return fs.readFileSync(ready, 'utf8')
		const quiet = pino({ level: 'silent' })
		const suffix = randomBytes(4).toString('hex')
		let location: string
		if (kind === 'pglite') {
			location = path.join(base, suffix)
			const database = await openPglite(location)
			await (await startJobs(database, quiet)).stop()
			await database.close()
		} else {
			location = `${TEST_DATABASE_PREFIX}${inject('runId')}_template_${suffix}`
			await withAdmin((client) => client.query(`create database "${location}"`))
			const url = new URL(inject('postgresAdminUrl'))
			url.pathname = `/${location}`
			const database = await openPostgres(url.toString())
			await (await startJobs(database, quiet)).stop()
			await database.close()
		}
		fs.writeFileSync(`${ready}.${suffix}`, location)
		fs.renameSync(`${ready}.${suffix}`, ready)
		return location
	} finally {
		await release()
	}
}

/** Whether a PostgreSQL database of that name exists (to prove that `dispose` dropped it). */
export async function postgresDatabaseExists(url: string): Promise<boolean> {
	const name = new URL(url).pathname.slice(1)
	return withAdmin(async (client) => {
		const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name])
		return rowCount === 1
	})
}
