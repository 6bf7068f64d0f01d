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

let started: Promise<EventsSite> | undefined

/**
 * The events server, started on first call and the same one after that. The suite calls it early
 * (tests/e2e/suite.e2e.ts): seeding and starting take a minute or more of a busy machine, spent
 * while the other specs run in the browser rather than in the events spec's `before`.
 */
export function eventsSite(buildDir: string): Promise<EventsSite> {
	if (!started) {
		started = startEventsSite(buildDir)
		// A failure is the events spec's to report, when it asks for the site; never an unhandled rejection before that.
		started.catch(() => {})
	}
	return started
}

/** Stops the events server if it was started (by the events spec, or at the end of the run if that spec did not run). */
export async function disposeEventsSite(): Promise<void> {
	const site = await started?.catch(() => undefined)
	started = undefined
	await site?.dispose()
}

async function startEventsSite(buildDir: string): Promise<EventsSite> {
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
