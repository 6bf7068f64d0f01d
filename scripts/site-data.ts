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
import { archiveName, backupDir } from '#app/platform/ops/scheduled-backups.server.ts'
import { backupSite, moveToPostgres, restoreSite } from '#app/platform/ops/site-tools.server.ts'

const [command, argument] = process.argv.slice(2)
const say = (message: string) => process.stdout.write(`${message}\n`)
const total = (tables: Record<string, number>) => Object.values(tables).reduce((a, b) => a + b, 0)

async function main(): Promise<void> {
	const env = parseEnv()
	if (command === 'backup') {
		const file = path.resolve(argument ?? path.join(backupDir(env), archiveName(new Date())))
		const summary = await backupSite(env, file)
		say(
			`Sauvegarde écrite : ${file}\n` +
				`  ${total(summary.tables)} lignes dans ${Object.keys(summary.tables).length} tables, ${summary.files} fichiers (${summary.fileBytes} octets)\n` +
				`  archive de ${summary.archiveBytes} octets, ${summary.via === 'server' ? 'prise par le serveur en marche' : 'prise directement'}`,
		)
		for (const [table, rows] of Object.entries(summary.tables)) say(`  ${table.padEnd(28)} ${rows}`)
		return
	}
	if (command === 'restore') {
		if (!argument) throw new Error('Indiquez l’archive à restaurer : npm run restore -- <fichier>')
		const summary = await restoreSite(env, path.resolve(argument), say)
		say(
			`Restauration terminée dans ${env.DATABASE_URL ? 'PostgreSQL' : env.DATA_DIR} : ${total(summary.tables)} lignes, ${summary.files} fichiers.`,
		)
		for (const [table, rows] of Object.entries(summary.tables)) say(`  ${table.padEnd(28)} ${rows}`)
		if (summary.migrationsNow > summary.migrationsInArchive) {
			say(`  schéma mis à jour : ${summary.migrationsInArchive} → ${summary.migrationsNow} migrations`)
		}
		return
	}
	if (command === 'move-to-postgres') {
		if (!env.DATABASE_URL) throw new Error('Indiquez la base PostgreSQL de destination dans DATABASE_URL.')
		const summary = await moveToPostgres({ ...env, DATABASE_URL: env.DATABASE_URL }, say)
		say(`Déplacement vérifié${summary.replacedEarlierMove ? ' (il remplace celui fait auparavant)' : ''} :`)
		say(`  ${'table'.padEnd(28)} ${'embarquée'.padStart(10)} ${'PostgreSQL'.padStart(10)}`)
		for (const [table, n] of Object.entries(summary.tables))
			say(`  ${table.padEnd(28)} ${String(n.source).padStart(10)} ${String(n.target).padStart(10)}`)
		say(
			`  ${'fichiers'.padEnd(28)} ${String(summary.files.source).padStart(10)} ${String(summary.files.target).padStart(10)}  (${summary.files.copied} copiés cette fois)`,
		)
		say('Démarrez maintenant le site avec DATABASE_URL (et S3_*) ; gardez DATA_DIR tel quel jusqu’à ce que tout soit vérifié.')
		return
	}
	throw new Error('Commandes : backup [fichier], restore <fichier>, move-to-postgres')
}

try {
	await main()
	process.exit(0)
} catch (error) {
	process.stderr.write(`Échec : ${(error as Error).message}\n`)
	process.exit(1)
}
