/*
 * The server's memory while visitors who are not signed in post large files to the upload routes:
 * `node bench/anonymous-uploads.ts [--root=<checkout>] [--build=<folder>] [--four-only]`. Starts the server of
 * a checkout (this one unless told: `--root` serves another commit's build with its own server)
 * on a fresh embedded data folder, makes the first admin and a code campaign, then:
 *
 * 1. four anonymous 150 MB posts (length declared) to the campaign's files route, one after the other;
 * 2. a 200 MB post to each of the six upload routes, anonymous then as a member, length declared
 *    and chunked.
 *
 * For each post: the status, the seconds to the answer, the bytes the client handed to the
 * connection, the bytes of it the server had read when it answered (`ss`; null when the server
 * had already closed it), and everything the server process read meanwhile (`rchar`). The server's RSS is sampled every
 * 20 ms: before, peak and after. Bounded: each post stops at its answer or after 60 s; the server is
 * stopped before exit. Prints JSON; bench/RESULTS-uploads.md records the runs.
 */
import '../scripts/check-node.mjs'
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { postLargeUpload, residentBytes } from '../tests/support/large-upload.ts'
import { cookiesOf, ensureBuild, freePort, setUpFirstAdmin, type SiteServer } from '../tests/support/site-server.ts'

const MB = 1024 * 1024
const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3)
const root = path.resolve(arg('root') ?? path.join(import.meta.dirname, '..'))
const buildDir = arg('build') ?? 'build-bench-uploads'
const PASSWORD = 'cheval agrafe pile correcte'

// A folder named on the command line is served as it is (an operator's build, another commit's).
if (!arg('root') && !arg('build')) await ensureBuild(buildDir)
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'band-bench-uploads-'))
const port = await freePort()
const origin = `http://127.0.0.1:${port}`
let output = ''
const child = spawn(path.join(root, 'node_modules', '.bin', 'node'), ['server/index.ts'], {
	cwd: root,
	env: {
		PATH: process.env.PATH ?? '/usr/bin:/bin',
		HOME: os.tmpdir(),
		IGNORE_DOTENV: '1',
		NODE_ENV: 'production',
		BUILD_DIR: path.resolve(root, buildDir),
		DATA_DIR: dataDir,
		HOST: '127.0.0.1',
		PORT: String(port),
		SITE_URL: origin,
		LOG_LEVEL: 'info',
	},
	stdio: ['ignore', 'pipe', 'pipe'],
})
child.stdout.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-256 * 1024)))
child.stderr.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-256 * 1024)))
const server = { origin, pid: child.pid!, output: () => output } as SiteServer

const post = (pathname: string, fields: Record<string, string>, cookie = '') =>
	fetch(`${origin}${pathname}`, {
		method: 'POST',
		redirect: 'manual',
		headers: { origin, 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
		body: new URLSearchParams(fields),
	})
const session = (jar: Record<string, string>) => `better-auth.session_token=${jar['better-auth.session_token']}`

try {
	for (let i = 0; ; i++) {
		if (i > 2400 || child.exitCode !== null) throw new Error(`the server did not start (exit ${child.exitCode}):\n${output}`)
		const ok = await fetch(`${origin}/healthz`).then(
			(r) => r.ok,
			() => false,
		)
		if (ok) break
		await new Promise((resolve) => setTimeout(resolve, 100))
	}
	const admin = session(await setUpFirstAdmin(server, { name: 'Régie', email: 'regie@exemple.fr', password: PASSWORD }))
	await post('/auth/signup', { name: 'Camille Fan', email: 'camille.fan@exemple.fr', password: PASSWORD, acceptPrivacy: 'on' })
	const token = [...output.matchAll(/auth\/claim\?mode=verifyEmail(?:&|\\u0026|&amp;)token=([\w.-]+)/g)].at(-1)?.[1]
	const member = session(
		cookiesOf(await post(`/auth/claim?${new URLSearchParams({ mode: 'verifyEmail', token: token ?? '' })}`, { password: PASSWORD })),
	)
	const created = await post('/dashboard/admin/codes/new', { intent: 'save', name: 'Vinyle', usesPerCode: '1' }, admin)
	const campaignId = /\/dashboard\/admin\/codes\/([^/?]+)/.exec(created.headers.get('location') ?? '')?.[1]
	if (!campaignId) throw new Error(`no campaign (${created.status})`)
	await new Promise((resolve) => setTimeout(resolve, 3_000))

	const before = residentBytes(server.pid)
	let peak = before
	const sampler = setInterval(() => (peak = Math.max(peak, residentBytes(server.pid))), 20)
	const rows: Record<string, unknown>[] = []
	const run = async (label: string, target: string, fileMb: number, framing: 'declared' | 'chunked', cookie = '') => {
		const started = performance.now()
		const outcome = await postLargeUpload({ origin, path: target, fileBytes: fileMb * MB, framing, cookie, serverPid: server.pid })
		rows.push({
			post: label,
			status: outcome.status,
			seconds: Math.round((performance.now() - started) / 100) / 10,
			clientSentMb: Math.round((outcome.sent / MB) * 10) / 10,
			serverReadOfConnectionKb: outcome.serverRead === null ? null : Math.round(outcome.serverRead / 1024),
			serverProcessReadKb: outcome.serverProcessRead === null ? null : Math.round(outcome.serverProcessRead / 1024),
			rssMb: Math.round(residentBytes(server.pid) / MB),
		})
	}
	const files = `/dashboard/admin/codes/${campaignId}/files`
	for (let i = 1; i <= 4; i++) await run(`anonymous 150 MB #${i} to codes files`, files, 150, 'declared')
	const afterFour = peak
	const uploads = [
		files,
		`/dashboard/admin/codes/${campaignId}/import`,
		'/dashboard/admin/newsletter/subscribers/import',
		'/dashboard/admin/setlist/songs/import',
		'/dashboard/admin/media',
		'/dashboard/settings/avatar',
	]
	// `--four-only`: the old code reads every body whole (some 20 s each): the four posts tell enough.
	const matrix = process.argv.includes('--four-only')
		? []
		: ([
				['anonymous', ''],
				['member', member],
			] as const)
	for (const [who, cookie] of matrix)
		for (const target of uploads)
			for (const framing of ['declared', 'chunked'] as const) {
				// The avatar is the member's own upload route: a chunked body is theirs to send, up to its limit.
				if (who === 'member' && target === '/dashboard/settings/avatar' && framing === 'chunked') continue
				await run(`${who} 200 MB ${framing} to ${target.replace(campaignId, ':id')}`, target, 200, framing, cookie)
			}
	clearInterval(sampler)
	await new Promise((resolve) => setTimeout(resolve, 1_000))
	console.log(
		JSON.stringify(
			{
				root: root === path.resolve(import.meta.dirname, '..') ? 'this checkout' : root,
				rssBeforeMb: Math.round(before / MB),
				rssPeakAfterFourAnonymous150MbMb: Math.round(afterFour / MB),
				rssPeakMb: Math.round(peak / MB),
				rssAfterMb: Math.round(residentBytes(server.pid) / MB),
				posts: rows,
			},
			null,
			2,
		),
	)
} finally {
	child.kill('SIGTERM')
	await new Promise((resolve) => {
		const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
		child.once('exit', () => resolve(clearTimeout(timer)))
	})
	fs.rmSync(dataDir, { recursive: true, force: true })
}
