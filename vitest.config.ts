import os from 'node:os'
import './scripts/check-node.mjs'
import { defineConfig, mergeConfig } from 'vitest/config'
import viteConfig from './vite.config.ts'
import { LongestFirstSequencer } from './tests/support/sequencer.ts'

/*
 * Unit tests sit next to the code they test; integration tests (tests/integration) run twice, once
 * on an embedded PGlite in a temporary folder and once on a fresh PostgreSQL database, as two
 * projects that only differ by the `database` value they provide (see tests/support/database.ts).
 * Each test file runs in its own worker, so each one gets its own platform singleton.
 */
const integration = ['tests/integration/**/*.test.ts']
const integrationTimeouts = { testTimeout: 30_000, hookTimeout: 120_000 }

export default mergeConfig(
	viteConfig,
	defineConfig({
		test: {
			environment: 'node',
			// Vitest's default is one worker less than the cores: one worker on a 2-core machine, where an
			// integration file spends most of its time waiting (on the server process it started, a
			// sign-up's or a redemption's time floor, a slow test relay). One worker per core still left
			// most of the CPU idle: accounts, codes-redeem and settings on both databases used ~56 s of
			// CPU in 84 s on 2 cores. One worker more than the cores fills those waits.
			maxWorkers: os.availableParallelism() + 1,
			// The longest files first, across the three projects (tests/support/sequencer.ts): the run
			// no longer ends on one long file while the other worker waits.
			sequence: { sequencer: LongestFirstSequencer },
			// Libraries log expected refusals (Better Auth: "Invalid password"); show logs of failing tests only.
			silent: 'passed-only',
			// Runs once per run: a run id for temporary folders and databases, and the final sweep.
			globalSetup: ['tests/support/global-setup.ts'],
			projects: [
				{
					extends: true,
					test: { name: 'unit', include: ['app/**/*.test.{ts,tsx}', 'server/**/*.test.ts'] },
				},
				{
					extends: true,
					test: { name: 'pglite', include: integration, provide: { database: 'pglite' }, ...integrationTimeouts },
				},
				{
					extends: true,
					test: { name: 'postgres', include: integration, provide: { database: 'postgres' }, ...integrationTimeouts },
				},
			],
		},
	}),
)
