import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listBackups } from '#app/platform/ops/scheduled-backups.server.ts'
import { createMigratedTestDatabase, databaseKind, makeTempDir, type TestDatabase } from '../support/database.ts'
import { siteDataCli } from '../support/site-data-cli.ts'
import { ensureBuild, TEST_BUILD_DIR, startSiteServer, type SiteServer } from '../support/site-server.ts'

/*
 * The embedded site's backups as an operator meets them: the production server writes one into
 * BACKUP_DIR at start (none is newer than a day); `npm run backup` (scripts/site-data.ts) gets a
 * fresh one from the running server over its control socket, never opening the folder itself;
 * `npm run restore` brings it back into a new folder; `npm run move-to-postgres` refuses while
 * the server runs.
 */

let database: TestDatabase
let temp: { dir: string; dispose(): void }
let server: SiteServer

describe.runIf(databaseKind() === 'pglite')('backups of a running embedded site', () => {
	beforeAll(async () => {
		await ensureBuild()
		database = await createMigratedTestDatabase()
		temp = makeTempDir()
		server = await startSiteServer({
			buildDir: TEST_BUILD_DIR,
			dataDir: database.dataDir,
			env: { BACKUP_DIR: path.join(temp.dir, 'auto') },
		})
	}, 300_000)

	afterAll(async () => {
		await server?.stop()
		await database?.dispose()
		temp?.dispose()
	})

	it('backs itself up at start into BACKUP_DIR', { timeout: 90_000 }, async () => {
		const dir = path.join(temp.dir, 'auto')
		const deadline = Date.now() + 60_000
		while (listBackups(dir).length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250))
		expect(listBackups(dir)).toHaveLength(1)
		expect(fs.statSync(path.join(dir, listBackups(dir)[0]!)).mode & 0o077).toBe(0)
	})

	it('npm run backup asks the running server, and the archive restores into a new folder', { timeout: 180_000 }, async () => {
		// Something to find again: an account made through the site.
		const email = 'sauvegarde@exemple.fr'
		const signup = await fetch(`${server.origin}/auth/signup`, {
			method: 'POST',
			headers: { origin: server.origin, 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({ name: 'Sauvé', email, password: 'cheval agrafe pile correcte', acceptPrivacy: 'on' }),
			redirect: 'manual',
		})
		expect(signup.status).toBe(302)

		const archive = path.join(temp.dir, 'manual.backup')
		const backup = await siteDataCli(['backup', archive], { DATA_DIR: database.dataDir })
		expect(backup.output).toContain('prise par le serveur en marche')
		expect(backup.code).toBe(0)
		expect(backup.output).toMatch(/user\s+1/)

		const restored = await siteDataCli(['restore', archive], { DATA_DIR: path.join(temp.dir, 'restored') })
		expect(restored.code, restored.output).toBe(0)
		expect(restored.output).toMatch(/user\s+1/)
		expect(restored.output).toMatch(/outbox_mail\s+1/)

		// The server is still fine, and its folder was never opened by the command.
		expect((await fetch(`${server.origin}/readyz`)).status).toBe(200)
	})

	it('npm run move-to-postgres and npm run restore refuse while the server holds the folder', { timeout: 90_000 }, async () => {
		const move = await siteDataCli(['move-to-postgres'], {
			DATA_DIR: database.dataDir,
			DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/band_test_never_created',
		})
		expect(move.code).toBe(1)
		expect(move.output).toContain('arrêtez le serveur')
		const restore = await siteDataCli(['restore', path.join(temp.dir, 'manual.backup')], { DATA_DIR: database.dataDir })
		expect(restore.code).toBe(1)
		expect(restore.output).toContain('arrêtez le serveur avant de restaurer')
		expect((await fetch(`${server.origin}/readyz`)).status).toBe(200)
	})
})
