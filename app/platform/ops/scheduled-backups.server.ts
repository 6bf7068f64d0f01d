import fs from 'node:fs'
import path from 'node:path'
import type { Logger } from 'pino'
import type { Database } from '../db/client.server.ts'
import type { Env } from '../env.server.ts'
import type { Jobs } from '../jobs.server.ts'
import type { Storage } from '../storage/storage.server.ts'
import { writeBackup } from './backup.server.ts'

/*
 * The embedded database never calls fsync: a power cut can damage it. So an embedded site backs
 * itself up every night (and at start when the newest backup is over a day old) into BACKUP_DIR,
 * keeping the last seven. On PostgreSQL the database server does its own durability, and these
 * backups run only when BACKUP_DIR is set (the job runs once, on one instance).
 */

const BACKUP_QUEUE = 'platform.backup'
export const BACKUPS_KEPT = 7
const NAME = /^sauvegarde-\d{8}-\d{6}\.backup$/

export function backupDir(env: Pick<Env, 'BACKUP_DIR' | 'DATA_DIR'>): string {
	return path.resolve(env.BACKUP_DIR ?? path.join(env.DATA_DIR, 'backups'))
}

/** `sauvegarde-20261123-033000.backup` (UTC): names sort by date. */
export function archiveName(at: Date): string {
	const stamp = at.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15)
	return `sauvegarde-${stamp}.backup`
}

/** The archives in `dir`, oldest first. */
export function listBackups(dir: string): string[] {
	try {
		return fs
			.readdirSync(dir)
			.filter((name) => NAME.test(name))
			.sort()
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
		throw error
	}
}

/** Writes one backup into `dir` and removes all but the newest `keep`. */
export async function backupNow(site: { database: Database; storage: Storage }, dir: string, keep = BACKUPS_KEPT) {
	const summary = await writeBackup(site, path.join(dir, archiveName(new Date())))
	const all = listBackups(dir)
	for (const old of all.slice(0, Math.max(0, all.length - keep))) fs.rmSync(path.join(dir, old), { force: true })
	// Half-written archives of a crashed run (older than a day: none is being written).
	for (const name of fs.readdirSync(dir)) {
		if (!name.includes('.partial-')) continue
		const stat = fs.statSync(path.join(dir, name), { throwIfNoEntry: false })
		if (stat && stat.mtimeMs < Date.now() - 86_400_000) fs.rmSync(path.join(dir, name), { force: true })
	}
	return summary
}

export async function startScheduledBackups(platform: {
	env: Env
	database: Database
	storage: Storage
	jobs: Jobs
	logger: Logger
}): Promise<void> {
	const { env, database, jobs, logger } = platform
	if (database.kind !== 'pglite' && !env.BACKUP_DIR) return
	const dir = backupDir(env)
	fs.mkdirSync(dir, { recursive: true, mode: 0o700 })
	await jobs.queue(BACKUP_QUEUE, { retryLimit: 3, retryDelay: 300, retryBackoff: true, expireInSeconds: 3600 })
	await jobs.work(BACKUP_QUEUE, async () => {
		const summary = await backupNow(platform, dir)
		logger.info(
			{
				file: summary.file,
				rows: Object.values(summary.tables).reduce((a, b) => a + b, 0),
				files: summary.files,
				bytes: summary.archiveBytes,
			},
			'backup written',
		)
	})
	await jobs.schedule(BACKUP_QUEUE, '30 3 * * *')
	const newest = listBackups(dir).at(-1)
	const newestAt = newest ? fs.statSync(path.join(dir, newest)).mtimeMs : 0
	if (Date.now() - newestAt > 86_400_000) await jobs.send(BACKUP_QUEUE, {}, { singletonKey: 'startup', singletonSeconds: 3600 })
}
