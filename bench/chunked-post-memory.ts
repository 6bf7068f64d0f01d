/*
 * The server's memory during one anonymous chunked POST (no Content-Length) to /auth/signin:
 * `node bench/chunked-post-memory.ts [megabytes=1024]`. Builds into build-bench-body/ when the
 * build is stale, starts the server on a fresh embedded data folder, streams the body 64 kB at a
 * time while sampling the server's RSS every 50 ms, and prints the status, the bytes the server
 * took before answering, and the RSS before and at its peak. Bounded: 90 s of sending at most;
 * the server is stopped before exit.
 */
import '../scripts/check-node.mjs'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { postChunked } from '../tests/support/chunked.ts'
import { ensureBuild, startSiteServer } from '../tests/support/site-server.ts'

const MB = 1024 * 1024
const megabytes = Number(process.argv[2] ?? 1024)
const BUILD_DIR = 'build-bench-body'

function rssMb(pid: number): number {
	const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
	const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
	return Math.round(kb / 1024)
}

await ensureBuild(BUILD_DIR)
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'band-bench-body-'))
const server = await startSiteServer({ buildDir: BUILD_DIR, dataDir })
try {
	const before = rssMb(server.pid)
	let peak = before
	const sampler = setInterval(() => {
		try {
			peak = Math.max(peak, rssMb(server.pid))
		} catch {
			// the server is gone: reported below
		}
	}, 50)
	const started = Date.now()
	const timeout = new Promise<{ status: 'timeout'; sent: number; body: string }>((resolve) =>
		setTimeout(() => resolve({ status: 'timeout', sent: -1, body: '' }), 90_000).unref(),
	)
	const result = await Promise.race([postChunked(`${server.origin}/auth/signin`, megabytes * MB), timeout])
	clearInterval(sampler)
	const alive = await fetch(`${server.origin}/healthz`)
		.then((r) => r.status)
		.catch(() => 'down')
	console.log(
		JSON.stringify(
			{
				body: `${megabytes} MB chunked to /auth/signin`,
				status: result.status,
				sentMb: result.sent >= 0 ? Math.round((result.sent / MB) * 10) / 10 : 'unknown',
				seconds: Math.round((Date.now() - started) / 100) / 10,
				rssBeforeMb: before,
				rssPeakMb: peak,
				healthzAfter: alive,
			},
			null,
			2,
		),
	)
} finally {
	await server.stop()
	fs.rmSync(dataDir, { recursive: true, force: true })
}
