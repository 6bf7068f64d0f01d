/*
 * axe-core in the page under test. The site's CSP forbids inline scripts without its nonce, so the
 * library is evaluated through the DevTools protocol (which CSP does not govern) when a <script>
 * tag is refused; either way the page itself stays exactly as the visitor gets it.
 *
 * `audit` records the result of every page a test visits and never interrupts the test that
 * visits it (a contrast problem must not hide a broken sign-in); the suite's last tests fail with
 * the full list (see suite.e2e.ts), and check that every kind of page was audited.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { ROOT } from './harness.ts'

const AXE_PATH = path.join(ROOT, 'node_modules', 'axe-core', 'axe.min.js')
let axeSource: string | undefined

interface AxeNode {
	target: unknown[]
	html: string
	failureSummary?: string
}
export interface AxeViolation {
	id: string
	impact?: string | null
	help: string
	helpUrl: string
	nodes: AxeNode[]
}
export interface Audit {
	/** What page this is (« la page 403 »…): the kinds are checked at the end. */
	label: string
	url: string
	violations: AxeViolation[]
	error?: string
}

export const audits: Audit[] = []

async function hasAxe(page: Page): Promise<boolean> {
	return page.evaluate(() => typeof (window as { axe?: unknown }).axe === 'object')
}

async function inject(page: Page): Promise<void> {
	if (await hasAxe(page)) return
	// Evaluated rather than added as a <script>: a page from the anonymous page cache allows its
	// inline scripts by hash only, so an added tag would be refused (and reported as a violation).
	axeSource ??= fs.readFileSync(AXE_PATH, 'utf8')
	await page.evaluate(`${axeSource}\n;void 0`)
	if (!(await hasAxe(page))) throw new Error('axe-core could not be injected')
}

export async function runAxe(page: Page): Promise<AxeViolation[]> {
	await inject(page)
	return (await page.evaluate(async () => {
		const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: unknown[] }> } }).axe
		const results = await axe.run(document, { resultTypes: ['violations'] })
		return results.violations
	})) as AxeViolation[]
}

/** Audits the page as it is now and records the result under `label`. */
export async function audit(page: Page, label: string): Promise<void> {
	const url = new URL(page.url())
	const entry: Audit = { label, url: url.pathname + url.search, violations: [] }
	try {
		entry.violations = await runAxe(page)
	} catch (error) {
		entry.error = (error as Error).message
	}
	audits.push(entry)
}

export function formatViolations(violations: AxeViolation[]): string {
	return violations
		.map((v) => {
			const nodes = v.nodes
				.slice(0, 5)
				.map(
					(n) =>
						`      - ${JSON.stringify(n.target)} ${n.html.slice(0, 200)}\n        ${(n.failureSummary ?? '').replace(/\n/g, '\n        ')}`,
				)
				.join('\n')
			const more = v.nodes.length > 5 ? `\n      … and ${v.nodes.length - 5} more` : ''
			return `  • ${v.id} (${v.impact ?? 'n/a'}): ${v.help}\n    ${v.helpUrl}\n${nodes}${more}`
		})
		.join('\n')
}

/** The report of every audit that found something, or '' when all were clean. */
export function auditReport(): string {
	return audits
		.filter((a) => a.error || a.violations.length > 0)
		.map((a) =>
			a.error
				? `✗ ${a.label} (${a.url}): axe-core could not run: ${a.error}`
				: `✗ ${a.label} (${a.url}): ${a.violations.length} violation(s)\n${formatViolations(a.violations)}`,
		)
		.join('\n\n')
}
