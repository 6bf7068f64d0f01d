/*
 * Newsletter throughput: one campaign to 100,000 subscribers through an SMTP sink in this process,
 * on PGlite and on PostgreSQL:
 *
 *   node_modules/.bin/node bench/newsletter.ts [--subscribers 100000] [--connections 16] [--postgres postgres://…/postgres]
 *     [--only pglite|postgres] [--profile <folder>]
 *
 * For each database a fresh one is seeded (bench/newsletter-sender.ts seed), then a sender process
 * opens the platform as the server does, sits idle, and sends the campaign with the newsletter's own
 * sender (delivery rows, the React Email template, pooled SMTP, the sent-before-commit gate) as fast
 * as the relay takes it. The sink (smtp-server) counts the messages it accepted; this process samples
 * the sender's resident memory from /proc every 50 ms. Results go to bench/RESULTS-newsletter.md.
 * Loopback only; the databases and folders made here are removed at the end.
 */
import '../scripts/check-node.mjs'
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { SMTPServer } from 'smtp-server'

const ROOT = path.resolve(import.meta.dirname, '..')
const RESULTS = path.join(import.meta.dirname, 'RESULTS-newsletter.md')
const args = process.argv.slice(2)
const option = (name: string, fallback: string) => {
	const at = args.indexOf(`--${name}`)
	return at >= 0 && args[at + 1] ? args[at + 1]! : fallback
}
const SUBSCRIBERS = Number(option('subscribers', '100000'))
const POSTGRES = option('postgres', process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres')
const CONNECTIONS = Number(option('connections', '16'))
/** `--profile <folder>`: the sender's send writes a V8 CPU profile there (open it in Chrome's DevTools). */
const PROFILE = option('profile', '')
const ONLY = option('only', '')

/** An SMTP server that accepts everything and keeps only a count (and each message's size). */
async function startSink() {
	let accepted = 0
	let first = 0
	let last = 0
	const server = new SMTPServer({
		authOptional: true,
		disabledCommands: ['STARTTLS', 'AUTH'],
		logger: false,
		onData(stream, _session, callback) {
			stream.on('data', () => {})
			stream.on('end', () => {
				accepted++
				last = performance.now()
				if (accepted === 1) first = last
				callback()
			})
		},
	})
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	const port = (server.server.address() as { port: number }).port
	return {
		url: `smtp://127.0.0.1:${port}`,
		stats: () => ({ accepted, first, last }),
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	}
}

function rssKb(pid: number): number {
	try {
		const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
		return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
	} catch {
		return 0
	}
}

/** User + system CPU time of a process so far, in ms (/proc/<pid>/stat, 100 ticks a second). */
function cpuMs(pid: number): number {
	try {
		const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
		return (Number(fields[11]) + Number(fields[12])) * 10
	} catch {
		return 0
	}
}

function runSender(
	env: NodeJS.ProcessEnv,
	argv: string[],
	nodeArgs: string[],
	onLine: (message: Record<string, unknown>, pid: number) => void,
) {
	return new Promise<void>((resolve, reject) => {
		const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'bench/newsletter-sender.ts', ...argv], {
			cwd: ROOT,
			env,
			stdio: ['ignore', 'pipe', 'pipe'],
		})
		let errors = ''
		let buffer = ''
		child.stdout.on('data', (chunk: Buffer) => {
			buffer += chunk.toString()
			let newline
			while ((newline = buffer.indexOf('\n')) >= 0) {
				const line = buffer.slice(0, newline)
				buffer = buffer.slice(newline + 1)
				try {
					onLine(JSON.parse(line) as Record<string, unknown>, child.pid!)
				} catch {
					// a log line
				}
			}
		})
		child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()))
		child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`sender exited with ${code}:\n${errors.slice(-3000)}`))))
	})
}

interface Result {
	database: string
	sent: number
	seconds: number
	perSecond: number
	idleMb: number
	cpuMsPerMessage: number
	/** CPU of this process (the relay, mostly) per message, for what the sender does not count. */
	relayCpuMsPerMessage: number
	peakMb: number
	outcome: string
}

async function measure(kind: 'pglite' | 'postgres'): Promise<Result> {
	const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'band-bench-newsletter-'))
	let databaseUrl = ''
	const name = `band_bench_newsletter_${process.pid}`
	if (kind === 'postgres') {
		const admin = new pg.Client({ connectionString: POSTGRES })
		await admin.connect()
		await admin.query(`drop database if exists ${name}`)
		await admin.query(`create database ${name}`)
		await admin.end()
		const url = new URL(POSTGRES)
		url.pathname = `/${name}`
		databaseUrl = url.toString()
	}
	const sink = await startSink()
	const env: NodeJS.ProcessEnv = {
		PATH: process.env.PATH,
		HOME: process.env.HOME,
		IGNORE_DOTENV: '1',
		NODE_ENV: 'production',
		LOG_LEVEL: 'warn',
		DATA_DIR: dataDir,
		DATABASE_URL: databaseUrl,
		SITE_URL: 'https://groupe.example',
		SMTP_URL: sink.url,
		SMTP_RATE_PER_SECOND: '100000',
		NEWSLETTER_CONNECTIONS: String(CONNECTIONS),
	}
	try {
		await runSender(env, ['seed', String(SUBSCRIBERS)], [], () => {})
		let phase = 'starting'
		const idle: number[] = []
		let peak = 0
		let done: Record<string, unknown> = {}
		let sampler: NodeJS.Timeout | undefined
		let cpuAtStart = 0
		let cpuAtEnd = 0
		let relayCpuAtStart = process.cpuUsage()
		let relayCpu = { user: 0, system: 0 }
		const profile = PROFILE ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(PROFILE, kind)] : []
		await runSender(env, ['send'], profile, (message, pid) => {
			if (!sampler)
				sampler = setInterval(() => {
					const kb = rssKb(pid)
					if (phase === 'idle') idle.push(kb)
					if (phase === 'sending') peak = Math.max(peak, kb)
				}, 50)
			if (typeof message.phase === 'string') phase = message.phase
			if (message.phase === 'sending') cpuAtStart = cpuMs(pid)
			if (message.phase === 'sending') relayCpuAtStart = process.cpuUsage()
			if (message.phase === 'done') relayCpu = process.cpuUsage(relayCpuAtStart)
			if (message.phase === 'done') cpuAtEnd = cpuMs(pid)
			if (message.phase === 'done') done = message
		})
		clearInterval(sampler)
		const { accepted, first, last } = sink.stats()
		const idleKb = idle.sort((a, b) => a - b)[Math.floor(idle.length / 2)] ?? 0
		return {
			database: kind === 'pglite' ? 'PGlite (embedded)' : 'PostgreSQL',
			sent: accepted,
			seconds: Number(done.ms) / 1000,
			perSecond: accepted / ((last - first) / 1000),
			idleMb: idleKb / 1024,
			cpuMsPerMessage: (cpuAtEnd - cpuAtStart) / accepted,
			relayCpuMsPerMessage: (relayCpu.user + relayCpu.system) / 1000 / accepted,
			peakMb: peak / 1024,
			outcome: String(done.outcome),
		}
	} finally {
		await sink.close()
		fs.rmSync(dataDir, { recursive: true, force: true })
		fs.rmSync(`${dataDir}.lock`, { recursive: true, force: true })
		if (kind === 'postgres') {
			const admin = new pg.Client({ connectionString: POSTGRES })
			await admin.connect()
			await admin.query(`drop database if exists ${name} with (force)`)
			await admin.end()
		}
	}
}

const started = new Date()
const loadAtStart = os.loadavg()
const results: Result[] = []
for (const kind of (['pglite', 'postgres'] as const).filter((kind) => !ONLY || kind === ONLY)) {
	console.log(`${kind}: ${SUBSCRIBERS.toLocaleString('en')} subscribers…`)
	const result = await measure(kind)
	console.log(result)
	results.push(result)
}
const loadAtEnd = os.loadavg()
const number = (n: number, digits = 0) => n.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits })
const lines = [
	'# Newsletter throughput',
	'',
	'Written by `node_modules/.bin/node bench/newsletter.ts` (see the comment at its top).',
	'',
	`- Date: ${started.toISOString()}; machine: ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}, Node ${process.version}`,
	`- One campaign to ${number(SUBSCRIBERS)} active subscribers; the newsletter's own sender (one delivery row per subscriber, the React Email template rendered once and personalised per recipient, MIME per recipient, ${CONNECTIONS} pooled SMTP connections, each message recorded as sent just before the relay commits it, those waiting together in one statement); pace unlimited (\`SMTP_RATE_PER_SECOND=100000\`).`,
	'- Relay: an smtp-server sink in the bench process (accepts and counts; no parsing). Sender, database and sink share the machine.',
	'- Memory: resident set of the sender process (which opens the whole platform: database, job queue, live updates), from /proc every 50 ms; idle = median over 2 s before the send, peak = highest during it.',
	'- CPU per message: user + system CPU time of the sender process during the send ÷ messages (PGlite runs inside it; PostgreSQL is another process, not counted). 1,000 ÷ that figure is what one core gives when the machine is not shared; messages/s depends on what else the machine does at the time. Relay CPU: this process (the sink, mostly) over the same span, on the same 2 cores.',
	`- Load on the machine (1/5/15 min, on ${os.cpus().length} cores) when the run started: ${loadAtStart.map((n) => n.toFixed(1)).join(' / ')}; at its end: ${loadAtEnd.map((n) => n.toFixed(1)).join(' / ')}.`,
	'- Targets: ≥ 1,000 messages/s; peak < 300 MB above idle.',
	'',
	'| database | messages accepted by the relay | send time | messages/s | sender CPU per message | relay CPU per message | idle RSS | peak RSS | peak − idle | verdict |',
	'| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
	...results.map(
		(r) =>
			`| ${r.database} | ${number(r.sent)} | ${number(r.seconds, 1)} s | **${number(r.perSecond)}** | ${number(r.cpuMsPerMessage, 2)} ms | ${number(r.relayCpuMsPerMessage, 2)} ms | ${number(r.idleMb)} MB | ${number(r.peakMb)} MB | **${number(r.peakMb - r.idleMb)} MB** | ${r.sent === SUBSCRIBERS && r.perSecond >= 1000 && r.peakMb - r.idleMb < 300 ? 'PASS' : 'FAIL'} |`,
	),
	'',
]
// A partial or profiled run is printed, never recorded.
if (!ONLY && !PROFILE) fs.writeFileSync(RESULTS, lines.join('\n'))
console.log(lines.join('\n'))
