/*
 * Counting a concert's audience: the active subscribers within N km of a venue, among 100,000
 * subscribers spread over France (and a few abroad, some without a town), on PGlite and PostgreSQL,
 * with the query the announcement uses (features/newsletter/audience.server.ts: a latitude band on
 * the partial index, then the exact distance):
 *
 *   node_modules/.bin/node bench/audience.ts [--subscribers 100000] [--only pglite|postgres]
 *     [--postgres postgres://…/postgres]
 *
 * Each database is fresh and migrated; the subscribers are inserted in slices, then the count is
 * run for radii of 50, 150, 500 km around Lyon (10 runs each, after 2 warm-ups) and its median,
 * slowest, CPU time (PGlite: it runs in this process) and the plan's use of the index are written to
 * bench/RESULTS-audience.md.
 */
import '../scripts/check-node.mjs'
import fs from 'node:fs'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { countAudience } from '../app/features/newsletter/audience.server.ts'
import { openPglite, openPostgres, type Database } from '../app/platform/db/client.server.ts'
import { newsletterSubscriber } from '../app/platform/db/schema.ts'
import { createPostgresDatabase, DEFAULT_POSTGRES_ADMIN_URL, machineLine, median, onCleanup, runBench, tempDir } from './support/harness.ts'

const RESULTS = path.join(import.meta.dirname, 'RESULTS-audience.md')
const args = process.argv.slice(2)
const option = (name: string, fallback: string) => {
	const at = args.indexOf(`--${name}`)
	return at >= 0 && args[at + 1] ? args[at + 1]! : fallback
}
const SUBSCRIBERS = Number(option('subscribers', '100000'))
const ONLY = option('only', '')
const LYON = { latitude: 45.75, longitude: 4.85 }

/** A repeatable spread: most fans in mainland France, some abroad, one in ten without a town, one in five not active. */
function* people(count: number) {
	let seed = 42
	const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31
	for (let i = 0; i < count; i++) {
		const abroad = random() < 0.05
		const placed = random() >= 0.1
		const latitude = abroad ? -40 + random() * 100 : 42.3 + random() * 8.8
		const longitude = abroad ? -120 + random() * 240 : -4.8 + random() * 13
		const roll = random()
		yield {
			id: `b${i}`,
			email: `fan${i}@bench.example`,
			status: roll < 0.8 ? ('active' as const) : roll < 0.9 ? ('unsubscribed' as const) : ('pending' as const),
			source: 'import' as const,
			unsubscribeToken: `t${i}`,
			latitude: placed ? Math.round(latitude * 100) / 100 : null,
			longitude: placed ? Math.round(longitude * 100) / 100 : null,
			townId: placed ? i : null,
			townLabel: placed ? 'Ville' : null,
		}
	}
}

async function seed(database: Database) {
	let slice: ReturnType<typeof people> extends Generator<infer T> ? T[] : never = []
	for (const person of people(SUBSCRIBERS)) {
		slice.push(person)
		if (slice.length === 2_000) {
			await database.db.insert(newsletterSubscriber).values(slice)
			slice = []
		}
	}
	if (slice.length) await database.db.insert(newsletterSubscriber).values(slice)
	await database.db.execute(sql`analyze newsletter_subscriber`)
}

async function measure(kind: string, database: Database) {
	const rows: string[] = []
	for (const radiusKm of [50, 150, 500]) {
		const audience = { kind: 'radius' as const, eventId: 'x', venue: 'Lyon', ...LYON, radiusKm, includeNoTown: false, countAtSave: 0 }
		let count = 0
		for (let i = 0; i < 2; i++) count = await countAudience(database.db, audience)
		const times: number[] = []
		// The embedded database runs in this process: its CPU time per count says what the wall
		// time would be on an idle core (PostgreSQL's runs in its own backend, not measured here).
		const cpu: number[] = []
		for (let i = 0; i < 10; i++) {
			const started = performance.now()
			const cpuStarted = process.cpuUsage()
			count = await countAudience(database.db, audience)
			const used = process.cpuUsage(cpuStarted)
			times.push(performance.now() - started)
			cpu.push((used.user + used.system) / 1000)
		}
		const withNoTown = await countAudience(database.db, { ...audience, includeNoTown: true })
		rows.push(
			`| ${kind} | ${radiusKm} km | ${count.toLocaleString('en-US')} (${withNoTown.toLocaleString('en-US')} with those without a town) | ${median(times).toFixed(1)} ms | ${Math.max(...times).toFixed(1)} ms | ${kind === 'pglite' ? `${median(cpu).toFixed(1)} ms` : '—'} |`,
		)
		console.log(rows.at(-1))
	}
	return rows
}

async function indexUsed(database: Database): Promise<string> {
	const plan = await database.db.execute(
		sql`explain select count(*) from newsletter_subscriber where status = 'active' and latitude is not null and latitude between 44.4 and 47.1 and longitude between 2.9 and 6.8`,
	)
	const text = (plan as unknown as { rows: Record<string, string>[] }).rows.map((row) => Object.values(row)[0]).join('\n')
	return /newsletter_subscriber_place_idx/.test(text) ? 'index' : 'sequential scan'
}

await runBench(async () => {
	const lines: string[] = []
	const plans: string[] = []
	for (const kind of ['pglite', 'postgres'] as const) {
		if (ONLY && ONLY !== kind) continue
		const database =
			kind === 'pglite'
				? await openPglite(tempDir('audience-pglite'))
				: await openPostgres(await createPostgresDatabase(option('postgres', DEFAULT_POSTGRES_ADMIN_URL), 'band_bench_audience'))
		onCleanup(() => database.close())
		const started = performance.now()
		await seed(database)
		console.log(
			`${kind}: ${SUBSCRIBERS.toLocaleString('en-US')} subscribers seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`,
		)
		lines.push(...(await measure(kind, database)))
		plans.push(`${kind}: ${await indexUsed(database)}`)
	}
	const report = [
		'# Counting a concert’s audience (bench/audience.ts)',
		'',
		`${machineLine()}; ${SUBSCRIBERS.toLocaleString('en-US')} subscribers (80 % active, 10 % without a town), around Lyon. Budget: < 100 ms.`,
		'',
		'| database | radius | audience | median | slowest | CPU time (median, in this process) |',
		'| --- | --- | --- | --- | --- | --- |',
		...lines,
		'',
		`The latitude band's plan: ${plans.join('; ')}.`,
		'',
	].join('\n')
	fs.writeFileSync(RESULTS, report)
	console.log(report)
})
