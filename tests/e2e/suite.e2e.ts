/*
 * The end-to-end suite: Debian's Chromium (driven by playwright-core) against the production build,
 * served by server/index.ts on a free port with a fresh data folder, an SMTP server and an OpenID
 * Connect provider of the test's own (both in this process). One server and one browser for the whole run; each spec opens its own browser
 * contexts (its own visitors). Run with `npm run test:e2e` after `npm run build` (BUILD_DIR picks
 * another build folder). The run's checks (accessibility, third-party requests, clean shutdown)
 * come last. E2E_SHOTS_DIR=<folder> keeps screenshots of the account pages at 375 px;
 * E2E_SERVER_LOG=<file> keeps what the server printed.
 */
import { after, before, describe } from 'node:test'
import { disposeEventsSite, eventsSite } from './support/events-site.ts'
import { setUp, tearDown } from './support/harness.ts'
import { adminSpecs } from './specs/admin.ts'
import { apiSpecs } from './specs/api.ts'
import { audienceSpecs } from './specs/audience.ts'
import { authSpecs } from './specs/auth.ts'
import { codeSpecs } from './specs/codes.ts'
import { codePrintSpecs } from './specs/code-print.ts'
import { contactSpecs } from './specs/contact.ts'
import { errorSpecs } from './specs/errors.ts'
import { eventSpecs } from './specs/events.ts'
import { fansNearbySpecs } from './specs/fans-nearby.ts'
import { federatedSpecs } from './specs/federated.ts'
import { headerSpecs } from './specs/headers.ts'
import { mailLinkSpecs } from './specs/mail-links.ts'
import { newsletterSpecs } from './specs/newsletter.ts'
import { phoneSpecs } from './specs/phone.ts'
import { redirectSpecs } from './specs/redirects.ts'
import { refusedFormSpecs } from './specs/refused-forms.ts'
import { runChecks } from './specs/run-checks.ts'
import { sessionSpecs } from './specs/session.ts'
import { setlistSpecs } from './specs/setlist.ts'
import { stageOfflineSpecs } from './specs/stage-offline.ts'
import { stringsSpecs } from './specs/strings.ts'

/** Whether the run picks some tests only (node --test-name-pattern…): then the events spec starts its server if it runs. */
const picking = process.execArgv.some((arg) => /^--test-(name-pattern|skip-pattern|only)/.test(arg))

before(setUp, { timeout: Number(process.env.E2E_START_TIMEOUT_MS ?? 0) + 120_000 })
after(
	async () => {
		await disposeEventsSite()
		await tearDown()
	},
	{ timeout: 30_000 },
)

describe('band site, end to end', { timeout: 15 * 60_000 }, () => {
	authSpecs()
	// Independent visitors that mostly wait for the provider's round trips and for mail: side by side.
	describe('federated sign-in and mailed links', { concurrency: 3 }, () => {
		// Then the events spec's own server (seeded first: half a minute of CPU) starts in the
		// background, beside the one-visitor specs that follow rather than these three at once, and
		// is ready when that spec, one of the last, comes.
		after(() => {
			if (!picking) void eventsSite(process.env.BUILD_DIR ?? 'build')
		})
		federatedSpecs()
		mailLinkSpecs()
		phoneSpecs()
	})
	redirectSpecs()
	adminSpecs()
	setlistSpecs()
	stageOfflineSpecs()
	codeSpecs()
	codePrintSpecs()
	newsletterSpecs()
	fansNearbySpecs()
	contactSpecs()
	audienceSpecs()
	refusedFormSpecs()
	errorSpecs()
	sessionSpecs()
	stringsSpecs()
	apiSpecs()
	headerSpecs()
	// Public event pages, on a server of their own with seeded events (see specs/events.ts).
	eventSpecs()
	runChecks()
})
