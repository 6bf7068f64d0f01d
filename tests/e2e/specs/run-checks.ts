/*
 * What the whole run saw, checked once every spec has run: accessibility of every page visited, no
 * request to a third party, no script error or CSP violation, no 5xx, nothing logged as an error by
 * the server, and a clean stop on SIGTERM.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { describe, test } from 'node:test'
import { auditReport, audits } from '../support/axe.ts'
import { closeAll, h, recordCookies, ROOT } from '../support/harness.ts'

/** The kinds of page that must be audited with axe; each must have been visited at least once. */
const REQUIRED_AUDITS = [
	'admin events (1280 px)',
	'admin events (375 px)',
	'landing',
	'sign-in',
	'sign-up',
	'sign-in with errors',
	'sign-up with errors',
	'dashboard',
	'admin stats',
	'admin messages',
	'admin message',
	'contact',
	'contact with errors',
	'contact (375 px)',
	'403',
	'404',
	// The federated sign-in and the mailed links (federated.ts, mail-links.ts, phone.ts).
	'sign-in with a provider error',
	'claim: confirm an address',
	'claim: address confirmed',
	'forgot password',
	'forgot password (sent)',
	'claim: new password',
	'claim: new password with errors',
	'claim: link expired or used',
	'claim: forged link',
	'claim: forged address link',
	'sign-up (375 px)',
	'claim: new password (375 px)',
	'claim: new password with errors (375 px)',
	'settings (375 px)',
	// The public event pages (events.ts, on the events server).
	'landing with events',
	'events list',
	'events list (375 px)',
	'event page',
	'event page (375 px)',
	'event page (cancelled)',
	'event page (draft preview)',
	// The setlist's admin screens (setlist.ts).
	'setlist library',
	'setlist builder',
	// The newsletter, from the landing page to one-click unsubscribe (newsletter.ts).
	'newsletter sign-up with errors',
	'claim: confirm a newsletter subscription',
	'claim: newsletter subscription confirmed',
	'admin newsletter subscribers',
	'admin newsletter compose',
	'admin newsletter sending',
	'unsubscribe',
]

/**
 * The cookies the cookie policy lists: every `name` in the first column of its table; a name ending
 * with a dot stands for every cookie that starts with it.
 */
function listedCookies(): string[] {
	const policy = fs.readFileSync(path.join(ROOT, 'content/policies/cookies.md'), 'utf8')
	const rows = policy.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| ---') && !line.startsWith('| Nom'))
	return rows.flatMap((row) => [...(row.split(' | ')[0] ?? '').matchAll(/`([^`]+)`/g)].map((match) => match[1]!))
}

/** pino lines at level error (50) or fatal (60). */
function loggedErrors(output: string): string[] {
	return output
		.split('\n')
		.filter((line) => {
			try {
				return (JSON.parse(line) as { level?: number }).level! >= 50
			} catch {
				return false
			}
		})
		.map((line) => line.slice(0, 1500))
}

export function runChecks() {
	describe('the whole run', () => {
		test('axe-core: 0 violations on every page the tests visited', () => {
			const audited = new Set(audits.map((a) => a.label))
			const missing = REQUIRED_AUDITS.filter((label) => !audited.has(label))
			const report = auditReport()
			assert.ok(
				!report,
				`accessibility violations (axe-core ${audits.length} audits, ${audits.filter((a) => !a.error && a.violations.length === 0).length} clean):\n\n${report}`,
			)
			assert.deepEqual(missing, [], `these pages were never audited (a test stopped before reaching them?): ${missing.join(', ')}`)
		})

		test("the browser made no request to anyone but the site (and the test's OpenID provider)", () => {
			assert.ok(h.requests.length > 0, 'no request was recorded at all')
			// The sign-in with the provider takes the browser to the provider's own pages, on purpose.
			const allowed = new Set([h.origin, h.oidc.origin])
			const foreign = h.requests.filter((r) => {
				if (r.url.startsWith('data:') || r.url.startsWith('blob:')) return false
				return !allowed.has(new URL(r.url).origin)
			})
			assert.deepEqual(
				foreign.map((r) => `${r.method} ${r.url} (${r.type})`),
				[],
				`requests left for third parties (${h.requests.length} requests recorded)`,
			)
		})

		test('the site set no cookie that the cookie policy does not list', async () => {
			for (const context of h.contexts) await recordCookies(context)
			assert.ok(h.cookiesSet.size > 0, 'no cookie was seen at all (the session cookie should have been)')
			const listed = listedCookies()
			const unlisted = [...h.cookiesSet].filter(
				([name]) => !listed.some((entry) => (entry.endsWith('.') ? name.startsWith(entry) : name === entry)),
			)
			assert.deepEqual(
				unlisted.map(([name, where]) => `${name} (first set by ${where})`),
				[],
				`cookies missing from content/policies/cookies.md (listed: ${listed.join(', ')})`,
			)
		})

		test('the OpenID provider reported no error (token exchange, userinfo, server)', () => {
			assert.deepEqual(h.oidc.errors, [])
		})

		test('no script error and no CSP violation in the browser', () => {
			assert.deepEqual(h.problems, [])
		})

		test('no response with a 5xx status', () => {
			assert.deepEqual(h.serverErrors, [])
		})

		test('the server logged no error', () => {
			assert.deepEqual(loggedErrors(h.server.output()), [])
		})

		test('the server stops by itself within 5 s of SIGTERM', async () => {
			await closeAll(...h.contexts)
			await h.browser.close()
			const exit = await h.server.stop(5_000)
			assert.equal(exit.killed, false, `still running 5 s after SIGTERM; its output:\n${h.server.output().slice(-4000)}`)
			assert.equal(
				exit.code,
				0,
				`exit code ${exit.code} (signal ${exit.signal}) after ${exit.ms} ms; output:\n${h.server.output().slice(-4000)}`,
			)
			assert.deepEqual(loggedErrors(h.server.output()), [], 'errors logged while stopping')
		})
	})
}
