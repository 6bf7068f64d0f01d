import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { POSTGRES_ADMIN_URL, TEMP_PREFIX, TEST_DATABASE_PREFIX } from './names.ts'

/*
 * Once per `vitest run`: a run id that names every temporary folder and PostgreSQL database of this
 * run, and, at the end, a sweep that removes whatever a crashed worker may have left behind.
 * Each test file still creates and removes its own folder and database.
 */
export default async function setup(project: TestProject) {
	const runId = `${Date.now().toString(36)}${process.pid.toString(36)}`
	project.provide('runId', runId)
	project.provide('postgresAdminUrl', POSTGRES_ADMIN_URL)

	const runsPostgres = project.vitest.projects.some((p) => p.name === 'postgres')
	if (runsPostgres) {
		const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 5_000 })
		try {
			await client.connect()
			await client.query('select 1')
		} catch (error) {
			throw new Error(
				`The "postgres" test project needs a PostgreSQL server at ${POSTGRES_ADMIN_URL} ` +
					`(set TEST_POSTGRES_URL, or run \`vitest run --project unit --project pglite\`): ${(error as Error).message}`,
			)
		} finally {
			await client.end().catch(() => {})
		}
	}

	return async function teardown() {
		for (const entry of fs.readdirSync(os.tmpdir())) {
			if (entry.startsWith(`${TEMP_PREFIX}${runId}-`)) fs.rmSync(path.join(os.tmpdir(), entry), { recursive: true, force: true })
		}
		if (!runsPostgres) return
		const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL })
		await client.connect()
		try {
			const { rows } = await client.query<{ datname: string }>('select datname from pg_database where datname like $1', [
				`${TEST_DATABASE_PREFIX}${runId}_%`,
			])
			for (const { datname } of rows) await client.query(`drop database if exists "${datname}" with (force)`)
		} finally {
			await client.end()
		}
	}
}
