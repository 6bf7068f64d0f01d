/*
 * How many bytes of strings each page makes the browser download: `/`, `/events`, `/auth/signin`
 * and `/dashboard` (signed in), each in a fresh browser context (nothing cached), on the production
 * build and a seeded data folder. Counts the responses of the string files (`/assets/strings/…`,
 * and the whole `/locales/fr-FR/translation.json` of builds that still load it): their bodies on
 * the wire (brotli, as Chromium asks for it), the same with the responses' headers, the bytes once
 * decoded, and the number of files. Prints a Markdown table; no file is written.
 *
 *     node_modules/.bin/node bench/strings.ts            # builds into build-bench-strings/
 *     BUILD_DIR=build node_modules/.bin/node bench/strings.ts --no-build
 */
import { randomBytes } from 'node:crypto'
import { chromium } from 'playwright-core'
import { CHROMIUM, CHROMIUM_FLAGS, buildSite, makeLog, runBench, seedDemo, startSite, tempDir } from './support/harness.ts'

const BUILD_DIR = process.env.BUILD_DIR ?? 'build-bench-strings'
const PAGES = ['/', '/events', '/auth/signin', '/dashboard']
const log = makeLog('strings bench')

await runBench(async () => {
	buildSite(BUILD_DIR, { log })
	const dataDir = tempDir('band-bench-strings-')
	const email = 'bench-strings@example.test'
	const password = randomBytes(12).toString('base64url')
	log('seeding the demo events and an admin account')
	seedDemo({ buildDir: BUILD_DIR, dataDir }, ['--admin', `${email}:${password}`])
	const site = await startSite('strings-server', { buildDir: BUILD_DIR, dataDir })
	const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true })
	const rows: string[] = []
	try {
		// A session, signed in through the form in a context of its own: the measured ones start empty.
		const signingIn = await browser.newContext({ locale: 'fr-FR', baseURL: site.origin })
		const form = await signingIn.newPage()
		await form.goto('/auth/signin')
		await form.waitForFunction(() => Object.keys(document).some((key) => key.startsWith('__reactContainer$')), null, { timeout: 30_000 })
		await form.getByLabel('Adresse e-mail').fill(email)
		await form.getByLabel('Mot de passe').fill(password)
		await form.getByRole('button', { name: 'Se connecter' }).click()
		await form.waitForURL(/\/dashboard/)
		const session = await signingIn.storageState()
		await signingIn.close()
		for (const page of PAGES) {
			const context = await browser.newContext({ locale: 'fr-FR', ...(page === '/dashboard' ? { storageState: session } : {}) })
			const tab = await context.newPage()
			const files: Promise<{ unit: string; wire: number; headers: number; decoded: number }>[] = []
			tab.on('response', (response) => {
				const { pathname } = new URL(response.url())
				const unit =
					/^\/assets\/strings\/[\w-]+\/([\w.]+)\.json$/.exec(pathname)?.[1] ?? (pathname.startsWith('/locales/') ? pathname : null)
				if (!unit) return
				files.push(
					Promise.all([response.request().sizes(), response.body()]).then(([sizes, body]) => ({
						unit,
						wire: sizes.responseBodySize,
						headers: sizes.responseHeadersSize,
						decoded: body.length,
					})),
				)
			})
			const response = await tab.goto(site.origin + page)
			if (response?.status() !== 200) throw new Error(`${page} answered ${response?.status()}`)
			await tab.waitForFunction(() => Object.keys(document).some((key) => key.startsWith('__reactContainer$')), null, { timeout: 30_000 })
			await tab.waitForLoadState('networkidle')
			const loaded = await Promise.all(files)
			const wire = loaded.reduce((total, file) => total + file.wire, 0)
			const headers = loaded.reduce((total, file) => total + file.headers, 0)
			const decoded = loaded.reduce((total, file) => total + file.decoded, 0)
			const n = (value: number) => value.toLocaleString('en')
			rows.push(
				`| \`${page}\` | ${loaded.length} | ${n(wire)} | ${n(wire + headers)} | ${n(decoded)} | ${loaded
					.map((file) => file.unit)
					.sort()
					.join(', ')} |`,
			)
			await context.close()
		}
	} finally {
		await browser.close()
	}
	console.log(
		[
			'| page | files | bodies on the wire (bytes) | with the response headers | decoded | what |',
			'| --- | --- | --- | --- | --- | --- |',
			...rows,
		].join('\n'),
	)
})
