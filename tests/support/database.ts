import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { inject } from 'vitest'
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
	const temp = makeTempDir()
	if (kind === 'pglite') {
		return {
			kind,
			dataDir: temp.dir,
			dispose: async () => temp.dispose(),
		}
	}
	const name = `${TEST_DATABASE_PREFIX}${inject('runId')}_${randomBytes(4).toString('hex')}`
	await withAdmin((client) => client.query(`create database "${name}"`))
	const url = new URL(inject('postgresAdminUrl'))
	url.pathname = `/${name}`
	return {
		kind,
		dataDir: temp.dir,
		databaseUrl: url.toString(),
		dispose: async () => {
			await withAdmin((client) => client.query(`drop database if exists "${name}" with (force)`))
			temp.dispose()
		},
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
