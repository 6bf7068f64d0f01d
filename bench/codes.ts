/*
 * Redeemable codes, measured on their own (bench/run.ts does the site-wide pages):
 *
 *   node_modules/.bin/node bench/codes.ts              (builds into build-bench-codes/ first)
 *   node_modules/.bin/node bench/codes.ts --no-build   (reuses that build)
 *
 *   1. generating and storing a batch of 100,000 codes through the batch job's own code (chunks of
 *      10,000, one transaction each, progress announced), on PGlite and on PostgreSQL (a fresh
 *      database on 127.0.0.1:5432, dropped afterwards) — target < 5 s;
 *   2. exporting that batch as CSV (the streamed export the admin downloads);
 *   3. the gzipped JavaScript /redeem loads in Chromium, runtime and ours, against the public
 *      pages' budget (20 kB of ours), with no admin or server source in it.
 * Writes bench/RESULTS-codes.md. Loopback only; every process started here is stopped before exit.
 */
import '../scripts/check-node.mjs'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { chromium } from 'playwright-core'
import { openDatabase, type Database } from '../app/platform/db/client.server.ts'
import { codeBatch } from '../app/platform/db/schema.ts'
import { batchCsv, createBatch, runBatch } from '../app/features/codes/batches.server.ts'
import { createCampaign } from '../app/features/codes/campaigns.server.ts'
import type { Jobs } from '../app/platform/jobs.server.ts'
import type { Storage } from '../app/platform/storage/storage.server.ts'
import { isPrivateSource, readChunks, type Chunk } from './js-weight.ts'
import { freePort, start, stopAll, waitForHttp } from './processes.ts'
import { CHROMIUM, CHROMIUM_FLAGS, buildSite } from './support/harness.ts'

const ROOT = path.resolve(import.meta.dirname, '..')
const BUILD_DIR = 'build-bench-codes'
const BUILD = path.join(ROOT, BUILD_DIR)
const SOURCEMAPS = path.join(BUILD, 'sourcemaps')
const RESULTS = path.join(import.meta.dirname, 'RESULTS-codes.md')
const COUNT = 100_000
const TARGET_MS = 5_000
const BUDGET_BYTES = 20_000
const ADMIN_URL = process.env.BENCH_POSTGRES_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const nodeBin = process.execPath
const log = (message: string) => console.log(`[codes bench] ${message}`)
/** The machine's load (1 / 5 / 15 min): other work on it slows every figure. */
const loadNow = () =>
	os
		.loadavg()
		.map((n) => n.toFixed(1))
		.join(' / ')

/** Only what createBatch needs of the queue: the job itself is run here, in this process. */
const noJobs = { queue: async () => {}, send: async () => null } as unknown as Jobs
const noStorage = {} as Storage

async function measure(database: Database) {
	const db = database.db
	const campaignId = await createCampaign(
		db,
		{ name: 'Banc d’essai', description: '', message: '', links: [], startsAt: null, endsAt: null, usesPerCode: 1, status: 'active' },
		null,
	)
	const batchId = await createBatch(db, noJobs, { campaignId, count: COUNT, label: 'banc', userId: null })
	const cpu0 = process.cpuUsage()
	const t0 = performance.now()
	await runBatch({ db, storage: noStorage }, batchId)
	const generateMs = performance.now() - t0
	const cpu = process.cpuUsage(cpu0)
	const generateCpuMs = (cpu.user + cpu.system) / 1000
	const [row] = await db.select({ created: codeBatch.created }).from(codeBatch)
	const t1 = performance.now()
	const bytes = (await new Response(batchCsv(db, batchId, 'https://groupe.example')).arrayBuffer()).byteLength
	const exportMs = performance.now() - t1
	return { generateMs, generateCpuMs, exportMs, stored: row?.created ?? 0, csvBytes: bytes, load: loadNow() }
}

async function onPglite() {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'band-codes-bench-'))
	const database = await openDatabase({ dataDir: dir })
	try {
		return await measure(database)
	} finally {
		await database.close()
		fs.rmSync(dir, { recursive: true, force: true })
	}
}

async function onPostgres() {
	const name = `band_codes_bench_${process.pid}`
	const admin = new pg.Client({ connectionString: ADMIN_URL })
	await admin.connect()
	await admin.query(`create database ${name}`)
	const url = new URL(ADMIN_URL)
	url.pathname = `/${name}`
	const database = await openDatabase({ databaseUrl: url.toString(), dataDir: os.tmpdir() })
	try {
		return await measure(database)
	} finally {
		await database.close()
		await admin.query(`drop database ${name} with (force)`)
		await admin.end()
	}
}

async function redeemWeight() {
	buildSite(BUILD_DIR, { sourcemaps: true, log })
	const port = await freePort()
	const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'band-codes-bench-site-'))
	const origin = `http://127.0.0.1:${port}`
	const server = start(nodeBin, ['server/index.ts'], {
		env: {
			PATH: process.env.PATH ?? '',
			HOME: os.homedir(),
			IGNORE_DOTENV: '1',
			NODE_ENV: 'production',
			BUILD_DIR,
			DATA_DIR: dataDir,
			HOST: '127.0.0.1',
			PORT: String(port),
			SITE_URL: origin,
			LOG_LEVEL: 'warn',
		},
	})
	try {
		await waitForHttp(`${origin}/healthz`, server, 60_000)
		const chunks = readChunks(ROOT, path.join(BUILD, 'client', 'assets'), SOURCEMAPS)
		const browser = await chromium.launch({
			executablePath: CHROMIUM,
			args: CHROMIUM_FLAGS,
		})
		try {
			const tab = await browser.newPage()
			const scripts = new Set<string>()
			tab.on('response', (response) => {
				const url = new URL(response.url())
				if (url.origin === origin && url.pathname.startsWith('/assets/') && url.pathname.endsWith('.js')) scripts.add(url.pathname.slice(8))
			})
			await tab.goto(`${origin}/redeem?code=ABCD-EFGH-JKMN`, { waitUntil: 'networkidle' })
			await tab.waitForTimeout(1_000)
			const found = [...scripts].map((f) => chunks.get(f)).filter((c): c is Chunk => c !== undefined)
			const sources = [...new Set(found.flatMap((c) => c.sources.map((s) => s.source)))]
			return {
				files: scripts.size,
				runtime: found.reduce((a, c) => a + c.runtimeGzip, 0),
				ours: found.reduce((a, c) => a + c.oursGzip, 0),
				privateSources: sources.filter(isPrivateSource),
				adminSources: sources.filter((s) => /routes\/admin|features\/codes\/(batch|campaign|files|print|import)/.test(s)),
			}
		} finally {
			await browser.close()
		}
	} finally {
		await stopAll()
		fs.rmSync(dataDir, { recursive: true, force: true })
	}
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`

try {
	log(`PGlite: ${COUNT.toLocaleString('en')} codes`)
	const pglite = await onPglite()
	log(`  generated in ${s(pglite.generateMs)} (CPU ${s(pglite.generateCpuMs)}), exported in ${s(pglite.exportMs)}`)
	log(`PostgreSQL: ${COUNT.toLocaleString('en')} codes`)
	const postgres = await onPostgres()
	log(`  generated in ${s(postgres.generateMs)} (CPU here ${s(postgres.generateCpuMs)}), exported in ${s(postgres.exportMs)}`)
	const weight = await redeemWeight()
	log(`/redeem: runtime ${kb(weight.runtime)}, ours ${kb(weight.ours)}`)
	const pass = (ms: number) => (ms < TARGET_MS ? 'PASS' : 'FAIL')
	const weightPass = weight.ours <= BUDGET_BYTES && weight.privateSources.length === 0 && weight.adminSources.length === 0
	const md = `# Codes benchmark

Run ${new Date().toISOString()} on ${os.cpus().length} CPU(s), Node ${process.version}, load average ${loadNow()} (1 / 5 / 15 min) at the end (the build of step 3 weighs on it): other work on the machine slows every figure here. \`node_modules/.bin/node bench/codes.ts\`.

## Generating and storing ${COUNT.toLocaleString('fr-FR')} codes (target < ${TARGET_MS / 1000} s)

The batch job's own code (\`runBatch\`): codes drawn from the system's cryptographic source, inserted
in chunks of 10 000 (one statement and one transaction each, with the batch's progress). The CPU
column is this process's own time: all of the work on PGlite (the database runs in it), only the
client's side on PostgreSQL. On a machine busier than its cores, the wall time grows, not the CPU.

| database | generate + store | CPU (this process) | verdict | stored | CSV export (streamed) | CSV size | load average just after |
| --- | --- | --- | --- | --- | --- | --- | --- |
| PGlite | ${s(pglite.generateMs)} | ${s(pglite.generateCpuMs)} | ${pass(pglite.generateMs)} | ${pglite.stored.toLocaleString('fr-FR')} | ${s(pglite.exportMs)} | ${kb(pglite.csvBytes)} | ${pglite.load} |
| PostgreSQL | ${s(postgres.generateMs)} | ${s(postgres.generateCpuMs)} | ${pass(postgres.generateMs)} | ${postgres.stored.toLocaleString('fr-FR')} | ${s(postgres.exportMs)} | ${kb(postgres.csvBytes)} | ${postgres.load} |

## JavaScript of /redeem (gzipped)

| files | runtime | ours | budget (ours) | server or admin sources | verdict |
| --- | --- | --- | --- | --- | --- |
| ${weight.files} | ${kb(weight.runtime)} | ${kb(weight.ours)} | ${kb(BUDGET_BYTES)} | ${[...weight.privateSources, ...weight.adminSources].join(', ') || 'none'} | ${weightPass ? 'PASS' : 'FAIL'} |
`
	fs.writeFileSync(RESULTS, md)
	log(`wrote ${path.relative(ROOT, RESULTS)}`)
	process.exitCode = pglite.generateMs < TARGET_MS && postgres.generateMs < TARGET_MS && weightPass ? 0 : 1
} catch (error) {
	console.error(error)
	await stopAll()
	process.exitCode = 1
}
