/*
 * The site's data on the command line (see the README, "Backups" and "Moving to PostgreSQL"):
 *
 *   npm run backup [-- <archive>]     a consistent archive of the database and files
 *   npm run restore -- <archive>      into an empty site (a new DATA_DIR, or an empty database and bucket)
 *   npm run move-to-postgres          DATA_DIR's embedded database and files → DATABASE_URL and S3_*
 *
 * Settings come from the environment and .env, as for the server. The embedded database is never
 * opened beside a running server: a backup asks the server over its control socket, and restore
 * and move refuse while the server holds the data folder.
 */
import '../server/mode.ts'
import '../scripts/check-node.mjs'
import path from 'node:path'
import { parseEnv } from '#app/platform/env.server.ts'
import { getT } from '#app/platform/i18n.server.ts'
import { archiveName, backupDir } from '#app/platform/ops/scheduled-backups.server.ts'
import { backupSite, moveToPostgres, restoreSite } from '#app/platform/ops/site-tools.server.ts'

const [command, argument] = process.argv.slice(2)
const say = (message: string) => process.stdout.write(`${message}\n`)
const total = (tables: Record<string, number>) => Object.values(tables).reduce((a, b) => a + b, 0)

async function main(): Promise<void> {
	const t = getT()
	const env = parseEnv()
	if (command === 'backup') {
		const file = path.resolve(argument ?? path.join(backupDir(env), archiveName(new Date())))
		const summary = await backupSite(env, file)
		say(t('ops.cli.backupWritten', { file }))
		say(
			`  ${t('ops.cli.backupCounts', { rows: total(summary.tables), tables: Object.keys(summary.tables).length, files: summary.files, bytes: summary.fileBytes })}`,
		)
		const archive = { bytes: summary.archiveBytes }
		say(`  ${summary.via === 'server' ? t('ops.cli.archiveByServer', archive) : t('ops.cli.archiveDirect', archive)}`)
		for (const [table, rows] of Object.entries(summary.tables)) say(`  ${table.padEnd(28)} ${rows}`)
		return
	}
	if (command === 'restore') {
		if (!argument) throw new Error(t('ops.cli.restoreWhich'))
		const summary = await restoreSite(env, path.resolve(argument), say)
		say(
			t('ops.cli.restoreDone', {
				where: env.DATABASE_URL ? 'PostgreSQL' : env.DATA_DIR,
				rows: total(summary.tables),
				files: summary.files,
			}),
		)
		for (const [table, rows] of Object.entries(summary.tables)) say(`  ${table.padEnd(28)} ${rows}`)
		if (summary.migrationsNow > summary.migrationsInArchive) {
			say(`  ${t('ops.cli.schemaUpgraded', { from: summary.migrationsInArchive, to: summary.migrationsNow })}`)
		}
		return
	}
	if (command === 'move-to-postgres') {
		if (!env.DATABASE_URL) throw new Error(t('ops.cli.moveWhere'))
		const summary = await moveToPostgres({ ...env, DATABASE_URL: env.DATABASE_URL }, say)
		say(summary.replacedEarlierMove ? t('ops.cli.moveVerifiedAgain') : t('ops.cli.moveVerified'))
		say(`  ${t('ops.cli.columnTable').padEnd(28)} ${t('ops.cli.columnEmbedded').padStart(10)} ${'PostgreSQL'.padStart(10)}`)
		for (const [table, n] of Object.entries(summary.tables))
			say(`  ${table.padEnd(28)} ${String(n.source).padStart(10)} ${String(n.target).padStart(10)}`)
		say(
			`  ${t('ops.cli.rowFiles').padEnd(28)} ${String(summary.files.source).padStart(10)} ${String(summary.files.target).padStart(10)}  ${t('ops.cli.copiedNow', { count: summary.files.copied })}`,
		)
		say(t('ops.cli.moveNext'))
		return
	}
	throw new Error(t('ops.cli.usage'))
}

try {
	await main()
	process.exit(0)
} catch (error) {
	process.stderr.write(`${getT()('ops.cli.failed', { reason: (error as Error).message })}\n`)
	process.exit(1)
}
