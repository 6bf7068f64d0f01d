/*
 * The end-to-end suite: Debian's Chromium (driven by playwright-core) against the production build,
 * served by server/index.ts on a free port with a fresh data folder and an SMTP server of the
 * test's own. One server and one browser for the whole run; each spec opens its own browser
 * contexts (its own visitors). Run with `npm run test:e2e` after `npm run build` (BUILD_DIR picks
 * another build folder). The run's checks (accessibility, third-party requests, clean shutdown)
 * come last.
 */
import { after, before, describe } from 'node:test'
import { setUp, tearDown } from './support/harness.ts'
import { adminSpecs } from './specs/admin.ts'
import { apiSpecs } from './specs/api.ts'
import { authSpecs } from './specs/auth.ts'
import { errorSpecs } from './specs/errors.ts'
import { headerSpecs } from './specs/headers.ts'
import { redirectSpecs } from './specs/redirects.ts'
import { runChecks } from './specs/run-checks.ts'
import { sessionSpecs } from './specs/session.ts'

before(setUp, { timeout: 120_000 })
after(tearDown, { timeout: 30_000 })

describe('band site, end to end', { timeout: 15 * 60_000 }, () => {
	authSpecs()
	redirectSpecs()
	adminSpecs()
	errorSpecs()
	sessionSpecs()
	apiSpecs()
	headerSpecs()
	runChecks()
})
