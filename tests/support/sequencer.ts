import fs from 'node:fs'
import path from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/*
 * The order in which `vitest run` hands its files to the workers: the longest first, whatever their
 * project, so that the run does not end on one long file running alone while the other worker
 * idles. Vitest's own sequencer runs the projects one after the other (pglite, postgres, unit) and,
 * on a clean clone (CI) where it has no durations of a previous run, the largest files first: the
 * slowest file of the run (newsletter-crash on PostgreSQL, ~100 s) then started near the end.
 *
 * A file's expected duration: what Vitest measured the last time it ran here (its cache), else the
 * figure below, else a guess from its size (about a second per kilobyte for an integration file).
 */

/**
 * Seconds, measured in a whole `npm test` on a quiet 2-core machine (2026-11-28, three workers); the
 * files of 15 s and more.
 */
const MEASURED: Record<string, number> = {
	// Mostly waiting (a server at rest, watched for 40 s once settled), measured alone (2026-11-28).
	'pglite:tests/integration/idle-embedded.test.ts': 115,
	'postgres:tests/integration/newsletter-crash.test.ts': 60,
	'pglite:tests/integration/upload-gate.test.ts': 59,
	'postgres:tests/integration/accounts.test.ts': 31,
	'pglite:tests/integration/codes-redeem.test.ts': 30,
	'pglite:tests/integration/accounts.test.ts': 30,
	'postgres:tests/integration/codes-redeem.test.ts': 28,
	'postgres:tests/integration/two-instances.test.ts': 26,
	'pglite:tests/integration/newsletter-crash.test.ts': 25,
	'pglite:tests/integration/shutdown.test.ts': 24,
	'postgres:tests/integration/shutdown.test.ts': 22,
	'pglite:tests/integration/database.test.ts': 21,
	'pglite:tests/integration/embedded-backups.test.ts': 21,
	'postgres:tests/integration/codes-instances.test.ts': 20,
	'pglite:tests/integration/hostile-text.test.ts': 20,
	'postgres:tests/integration/backup.test.ts': 19,
	'pglite:tests/integration/media-worker.test.ts': 18,
	'postgres:tests/integration/media-worker.test.ts': 18,
	'pglite:tests/integration/backup.test.ts': 16,
	'postgres:tests/integration/hostile-text.test.ts': 15,
}

function guessSeconds(spec: TestSpecification): number {
	let bytes = 0
	try {
		bytes = fs.statSync(spec.moduleId).size
	} catch {
		return 0
	}
	// Unit files take a second or two each; integration files start servers and databases.
	return spec.project.name === 'unit' ? bytes / 20_000 : bytes / 1_000
}

export class LongestFirstSequencer extends BaseSequencer {
	override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
		const root = this.ctx.config.root
		const expected = new Map(
			files.map((spec) => {
				const cached = this.ctx.cache.getTestSpecificationResult(spec)
				const key = `${spec.project.name}:${path.relative(root, spec.moduleId).split(path.sep).join('/')}`
				const seconds = cached ? cached.duration / 1000 : (MEASURED[key] ?? guessSeconds(spec))
				// A file that failed last time goes first, as with Vitest's own sequencer.
				return [spec, cached?.failed ? Number.POSITIVE_INFINITY : seconds] as const
			}),
		)
		return [...files].sort((a, b) => expected.get(b)! - expected.get(a)!)
	}
}
