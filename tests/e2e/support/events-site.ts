/*
 * A second production server for the events specs, on a data folder seeded before it starts
 * (scripts/seed-demo.ts: one show of each status, a past one, a draft, an admin). The embedded
 * database takes one process at a time, so events cannot be written into the suite's main server
 * while it runs; a server of their own also leaves every other spec's landing and lists as they were.
 */
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { ROOT } from './harness.ts'
import { freePort, startServer, type RunningServer } from './server.ts'

export interface DemoIds {
	scheduled: string
	soldOut: string
	postponed: string
	cancelled: string
	abroad: string
	past: string
	draft: string
}

export interface EventsSite {
	server: RunningServer
	origin: string
	ids: DemoIds
	admin: { email: string; password: string }
	dispose(): Promise<void>
}

export async function startEventsSite(buildDir: string): Promise<EventsSite> {
	const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'band-site-e2e-events-'))
	const port = await freePort()
	const origin = `http://localhost:${port}`
	const admin = { email: 'admin-evenements@example.test', password: 'cheval agrafe pile correcte' }
	try {
		const { stdout } = await promisify(execFile)(
			path.join(ROOT, 'node_modules', '.bin', 'tsx'),
			['scripts/seed-demo.ts', '--admin', `${admin.email}:${admin.password}`],
			{
				cwd: ROOT,
				timeout: 300_000,
				env: {
					PATH: process.env.PATH ?? '/usr/bin:/bin',
					HOME: process.env.HOME ?? os.tmpdir(),
					TMPDIR: os.tmpdir(),
					NODE_ENV: 'production',
					DATA_DIR: dataDir,
					SITE_URL: origin,
					LOG_LEVEL: 'silent',
				},
			},
		)
		const ids = JSON.parse(stdout.trim().split('\n').at(-1)!) as DemoIds
		const server = await startServer({ root: ROOT, buildDir, port, env: { DATA_DIR: dataDir } })
		return {
			server,
			origin: server.origin,
			ids,
			admin,
			async dispose() {
				await server.dispose()
				fs.rmSync(dataDir, { recursive: true, force: true })
			},
		}
	} catch (error) {
		fs.rmSync(dataDir, { recursive: true, force: true })
		throw error
	}
}
