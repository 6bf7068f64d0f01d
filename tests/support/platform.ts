import path from 'node:path'
import { closePlatform, getPlatform, type Platform } from '#app/platform/platform.server.ts'
import { createMigratedTestDatabase, type TestDatabase } from './database.ts'
import { SITE_URL } from './requests.ts'
import { ROOT, TEST_BUILD_DIR } from './site-server.ts'

export interface TestPlatform {
	platform: Platform
	database: TestDatabase
	stop(): Promise<void>
}

/**
 * Configures the process-wide platform (app/platform/platform.server.ts) for this test file and
 * opens it: the environment is read once and cached, so it is set here before anything reads it.
 * Vitest runs each test file in a worker of its own, so each file gets its own platform; call this
 * once, in `beforeAll`, and `stop()` in `afterAll`.
 */
export async function startTestPlatform(
	options: {
		adminEmails?: string[]
		/** More environment for this platform, e.g. `SMTP_URL` of a test SMTP server (tests/support/smtp.ts); undefined unsets. */
		env?: Record<string, string | undefined>
	} = {},
): Promise<TestPlatform> {
	const database = await createMigratedTestDatabase()
	const env: Record<string, string | undefined> = {
		NODE_ENV: 'test',
		LOG_LEVEL: 'silent',
		SITE_URL,
		DATA_DIR: database.dataDir,
		DATABASE_URL: database.databaseUrl,
		ADMIN_EMAILS: (options.adminEmails ?? []).join(','),
		// Generated and kept in the database, as on a fresh install.
		AUTH_SECRET: undefined,
		// A sign-up answers no sooner than 800 ms, so that time never tells a known address from a new
		// one: accounts.test.ts proves it with that floor; elsewhere it only made every member ~1 s to
		// create (hundreds per run). `env: { TEST_SIGN_UP_FLOOR_MS: undefined }` keeps the real one.
		TEST_SIGN_UP_FLOOR_MS: '0',
		// Better Auth's scrypt at 1/16 of its cost (~5 ms of CPU a hash instead of ~80): every member
		// is hashed at sign-up and verified at confirmation. accounts.test.ts keeps the real cost.
		TEST_PASSWORD_HASH_COST: '1024',
		// The town list of the build the tests serve (npm run build writes it beside the app).
		TOWNS_FILE: process.env.TOWNS_FILE ?? path.resolve(ROOT, TEST_BUILD_DIR, 'towns.bin'),
		...options.env,
	}
	// Optional services configured in the shell (SMTP, S3, federated sign-in) stay out of the tests.
	for (const key of Object.keys(process.env)) {
		if (/^(SMTP_|S3_|OIDC_|GOOGLE_|APPLE_|FACEBOOK_|MAIL_)/.test(key)) delete process.env[key]
	}
	for (const [key, value] of Object.entries(env)) {
		if (value === undefined) delete process.env[key]
		else process.env[key] = value
	}
	let platform: Platform
	try {
		platform = await getPlatform()
	} catch (error) {
		await database.dispose()
		throw error
	}
	if (platform.env.DATA_DIR !== database.dataDir || platform.env.DATABASE_URL !== database.databaseUrl) {
		await closePlatform()
		await database.dispose()
		throw new Error('The platform read its environment before startTestPlatform set it: start it first in this file.')
	}
	return {
		platform,
		database,
		async stop() {
			await closePlatform()
			await database.dispose()
		},
	}
}
