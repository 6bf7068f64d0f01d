/*
 * What a visitor waits while the admin does heavy work:
 *
 *   node_modules/.bin/node bench/heavy-admin.ts               (builds into build-bench-heavy/ first)
 *   node_modules/.bin/node bench/heavy-admin.ts --no-build    (reuses that build)
 *   CHECKOUTS=before=<a checkout of an older commit, built>,after=. node_modules/.bin/node bench/heavy-admin.ts --no-build
 *
 * For each checkout (its own server/ and build: `<checkout>/$BUILD_DIR`, default build-bench-heavy
 * here and `build` in another checkout) and each database (embedded PGlite, then a PostgreSQL
 * database created on BENCH_POSTGRES_URL's server and dropped at the end), it seeds the demo events
 * and an admin, starts the server, and runs three visitors in a loop (one request at a time each,
 * 50 ms apart) on `GET /`, `GET /events` and `GET /healthz` with a browser's headers, recording each
 * latency, during three phases:
 *   1. idle (10 s);
 *   2. a 100,000-line subscriber import (the admin's preview upload, then « Importer » and, once it
 *      answers, until every address is on the list);
 *   3. the export of the list (≥ 100,000 rows) as CSV, read to its end.
 * Writes bench/RESULTS-heavy-admin.md: p50/p99/max per URL and phase, and how long each phase took.
 * Target: p99 < 200 ms on PGlite during the import and the export. Loopback only; every phase is
 * bounded (IMPORT_CAP_S, default 300 s; EXPORT_CAP_S, default 180 s) and every process is stopped.
 */
import '../scripts/check-node.mjs'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { freePort, start, waitForHttp } from './processes.ts'
import {
	buildSite,
	createPostgresDatabase,
	machineLine,
	makeLog,
	nodeBin,
	ROOT,
	runBench,
	signIn,
	siteEnv,
	tempDir,
	TMP,
} from './support/harness.ts'

const log = makeLog('heavy-admin')
const RESULTS = path.join(import.meta.dirname, 'RESULTS-heavy-admin.md')
const ADMIN = { email: 'admin@bench.test', password: 'cheval agrafe pile correcte' }
const LINES = 100_000
const IMPORT_CAP_MS = Number(process.env.IMPORT_CAP_S ?? 300) * 1000
const EXPORT_CAP_MS = Number(process.env.EXPORT_CAP_S ?? 180) * 1000
const IDLE_MS = 10_000
const URLS = ['/', '/events', '/healthz'] as const
const BROWSER = {
	'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
	accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
	'accept-encoding': 'br, gzip',
	'accept-language': 'fr-FR,fr;q=0.9',
	'sec-fetch-mode': 'navigate',
	'sec-fetch-dest': 'document',
	'sec-fetch-site': 'none',
}

interface Checkout {
	label: string
	dir: string
	buildDir: string
}

function checkouts(): Checkout[] {
	const spec = process.env.CHECKOUTS ?? 'after=.'
	return spec.split(',').map((part) => {
		const [label, dir] = part.split('=') as [string, string]
		const absolute = path.resolve(ROOT, dir)
		return { label, dir: absolute, buildDir: process.env.BUILD_DIR ?? (absolute === ROOT ? 'build-bench-heavy' : 'build') }
	})
}

/** Three visitors, one request at a time each, until `stop()`; every latency by URL. */
function visitors(origin: string) {
	const samples = new Map<string, number[]>(URLS.map((url) => [url, []]))
	let errors = 0
	let running = true
	const visitor = async (offset: number) => {
		for (let i = offset; running; i++) {
			const url = URLS[i % URLS.length]!
			const started = performance.now()
			try {
				const response = await fetch(origin + url, { headers: BROWSER, signal: AbortSignal.timeout(600_000) })
				await response.arrayBuffer()
				if (response.status !== 200) errors++
				samples.get(url)!.push(performance.now() - started)
			} catch {
				errors++
			}
			await new Promise((resolve) => setTimeout(resolve, 50))
		}
	}
	const all = Promise.all([0, 1, 2].map(visitor))
	return {
		async stop() {
			running = false
			await all
			return { samples, errors }
		},
	}
}

const quantile = (values: number[], q: number) => {
	if (values.length === 0) return NaN
	const sorted = [...values].sort((a, b) => a - b)
	return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!
}

interface Phase {
	name: string
	ms: number
	note: string
	byUrl: { url: string; n: number; p50: number; p99: number; max: number }[]
	errors: number
}

async function phase(origin: string, name: string, work: () => Promise<string>): Promise<Phase> {
	const load = visitors(origin)
	const started = performance.now()
	let note: string
	try {
		note = await work()
	} catch (error) {
		note = `failed: ${(error as Error).message}`
	}
	const ms = performance.now() - started
	const { samples, errors } = await load.stop()
	const byUrl = URLS.map((url) => {
		const values = samples.get(url)!
		return { url, n: values.length, p50: quantile(values, 0.5), p99: quantile(values, 0.99), max: Math.max(...values) }
	})
	log(`${name}: ${(ms / 1000).toFixed(1)} s, ${note}; p99 ${byUrl.map((u) => `${u.url} ${u.p99.toFixed(0)} ms`).join(', ')}`)
	return { name, ms, note, byUrl, errors }
}

function csvOf(lines: number) {
	const rows = ['email']
	for (let i = 0; i < lines; i++) rows.push(`abonne.${i}@bench.test`)
	return rows.join('\n')
}

async function importSubscribers(origin: string, cookie: string): Promise<string> {
	const page = `${origin}/dashboard/admin/newsletter/subscribers/import`
	const form = new FormData()
	form.set('intent', 'preview')
	form.set('consentNote', 'Banc d’essai')
	form.set('file', new File([csvOf(LINES)], 'abonnes.csv', { type: 'text/csv' }))
	const deadline = Date.now() + IMPORT_CAP_MS
	const preview = await fetch(page, { method: 'POST', body: form, headers: { cookie, origin }, signal: AbortSignal.timeout(IMPORT_CAP_MS) })
	const html = await preview.text()
	const id = /name="importId" value="([^"]+)"/.exec(html)?.[1]
	if (!id) throw new Error(`no preview (HTTP ${preview.status})`)
	const confirmStarted = performance.now()
	const confirm = await fetch(page, {
		method: 'POST',
		redirect: 'manual',
		headers: { cookie, origin, 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams({ intent: 'confirm', importId: id }),
		signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())),
	})
	await confirm.arrayBuffer()
	const confirmMs = performance.now() - confirmStarted
	const location = confirm.headers.get('location') ?? ''
	// Today's code: the confirmation answers at once with the page that follows the job; wait for its end.
	if (location.includes('?import=')) {
		const progress = `${origin}/dashboard/admin/newsletter/imports/${new URL(location, origin).searchParams.get('import')}/progress`
		while (Date.now() < deadline) {
			if ((await importStatus(progress, cookie)) === 'done') return `confirmation answered in ${confirmMs.toFixed(0)} ms, then a job`
			await new Promise((resolve) => setTimeout(resolve, 1_000))
		}
		throw new Error(`the import was not done after ${IMPORT_CAP_MS / 1000} s`)
	}
	return `confirmation answered in ${confirmMs.toFixed(0)} ms (HTTP ${confirm.status}, written in the request)`
}

/** The status in the first event of the import's progress stream (server-sent events). */
async function importStatus(url: string, cookie: string): Promise<string> {
	const controller = new AbortController()
	const response = await fetch(url, { headers: { cookie, accept: 'text/event-stream' }, signal: controller.signal })
	const reader = response.body!.getReader()
	let text = ''
	try {
		while (!/event: progress\ndata: .*\n/.test(text)) {
			const { value, done } = await reader.read()
			if (done) break
			text += new TextDecoder().decode(value)
		}
	} finally {
		controller.abort()
	}
	return /"status":"(\w+)"/.exec(text)?.[1] ?? 'unknown'
}

async function exportSubscribers(origin: string, cookie: string): Promise<string> {
	const response = await fetch(`${origin}/dashboard/admin/newsletter/subscribers.csv`, {
		headers: { cookie },
		signal: AbortSignal.timeout(EXPORT_CAP_MS),
	})
	const text = await response.text()
	const rows = text.split('\r\n').filter(Boolean).length - 1
	if (rows < LINES) throw new Error(`${rows} rows exported`)
	return `${rows.toLocaleString('en-US')} rows, ${(text.length / 1e6).toFixed(1)} MB`
}

async function measure(checkout: Checkout, database: 'pglite' | 'postgres') {
	const dataDir = tempDir('band-heavy-')
	const databaseUrl = database === 'postgres' ? await createPostgresDatabase(undefined, 'band_heavy') : ''
	const port = await freePort()
	const env = siteEnv({ buildDir: checkout.buildDir, dataDir, port, databaseUrl })
	execFileSync(path.join(ROOT, 'node_modules/.bin/tsx'), ['scripts/seed-demo.ts', '--admin', `${ADMIN.email}:${ADMIN.password}`], {
		cwd: checkout.dir,
		env: { ...env, LOG_LEVEL: 'silent' },
		stdio: ['ignore', 'ignore', 'inherit'],
		timeout: 600_000,
	})
	const name = `heavy-${checkout.label}-${database}`
	const child = start(nodeBin, [path.join(checkout.dir, 'server/index.ts')], {
		cwd: checkout.dir,
		env,
		logFile: path.join(TMP, `${name}.log`),
	})
	const origin = `http://127.0.0.1:${port}`
	await waitForHttp(`${origin}/healthz`, child, 180_000)
	const cookie = await signIn(origin, ADMIN.email, ADMIN.password)
	// The pages once each, so that the anonymous page cache holds them as it would on a live site.
	for (const url of URLS) await (await fetch(origin + url, { headers: BROWSER })).arrayBuffer()
	const phases = [
		await phase(origin, 'idle', async () => {
			await new Promise((resolve) => setTimeout(resolve, IDLE_MS))
			return 'nothing else'
		}),
		await phase(origin, `import ${LINES.toLocaleString('en-US')} lines`, () => importSubscribers(origin, cookie)),
		await phase(origin, 'export as CSV', () => exportSubscribers(origin, cookie)),
	]
	child.kill('SIGTERM')
	await new Promise((resolve) => child.once('exit', resolve))
	return {
		checkout: checkout.label,
		database,
		phases,
		load: os
			.loadavg()
			.map((n) => n.toFixed(1))
			.join(' / '),
	}
}

await runBench(async () => {
	const list = checkouts()
	if (list.some((c) => c.dir === ROOT)) buildSite('build-bench-heavy', { log })
	const results: Awaited<ReturnType<typeof measure>>[] = []
	const databases = (process.env.DATABASES ?? 'pglite,postgres').split(',') as ('pglite' | 'postgres')[]
	for (const database of databases)
		for (const checkout of list) {
			log(`${checkout.label} on ${database}`)
			results.push(await measure(checkout, database))
		}
	const ms = (n: number) => (Number.isFinite(n) ? `${Math.round(n).toLocaleString('en-US')}` : '—')
	const lines = [
		'# Heavy admin work and the visitors meanwhile (bench/heavy-admin.ts)',
		'',
		`Run on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC; ${machineLine()}.`,
		`Command: \`CHECKOUTS=${process.env.CHECKOUTS ?? 'after=.'} node_modules/.bin/node bench/heavy-admin.ts${process.argv.slice(2).length ? ` ${process.argv.slice(2).join(' ')}` : ''}\``,
		'',
		'Three visitors in a loop (one request at a time each, 50 ms apart, browser headers) on each URL; latency in ms.',
		'',
		'| code | database | phase | took | what happened | / p50 | / p99 | /events p50 | /events p99 | /healthz p50 | /healthz p99 | worst | failed requests |',
		'| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
	]
	for (const result of results)
		for (const p of result.phases) {
			const [home, events, health] = p.byUrl
			lines.push(
				`| ${result.checkout} | ${result.database} | ${p.name} | ${(p.ms / 1000).toFixed(1)} s | ${p.note} | ${ms(home!.p50)} | ${ms(home!.p99)} | ${ms(events!.p50)} | ${ms(events!.p99)} | ${ms(health!.p50)} | ${ms(health!.p99)} | ${ms(Math.max(...p.byUrl.map((u) => u.max)))} | ${p.errors} |`,
			)
		}
	lines.push('', 'Load average at the end of each run (1 / 5 / 15 min):', '')
	for (const result of results) lines.push(`- ${result.checkout}, ${result.database}: ${result.load}`)
	fs.writeFileSync(path.join(TMP, 'heavy-admin.md'), lines.join('\n') + '\n')
	log(`written to bench/.tmp/heavy-admin.md (copy the figures into ${path.basename(RESULTS)} with their reading)`)
	console.log(lines.join('\n'))
})
