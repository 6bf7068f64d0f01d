import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ANTON_CAPITALS } from '../../scripts/font-subsets.ts'

/*
 * public.css leaves out, with `@source not`, the files that only signed-in members and the admin
 * see; Tailwind writes no rule for a class it found only there. A page a visitor opens gets
 * public.css alone (dashboard.css comes with routes/dashboard/layout.tsx), so a public page that
 * renders one of those files would show its classes unstyled.
 *
 * Tailwind writes a rule for every class written in a file it scans, so the check is on files:
 * every module a page outside routes/dashboard can render (root.tsx, the route modules, and what
 * they import, followed to the end) must be one public.css scans. Server-only modules
 * (*.server.ts) render nothing and are not followed.
 */
const APP = path.resolve(import.meta.dirname, '..')
const STYLES = path.join(APP, 'styles')

/** The files public.css does not scan: its `@source not` paths and globs (a folder means all below). */
function excludedFiles(): Set<string> {
	const css = fs.readFileSync(path.join(STYLES, 'public.css'), 'utf8')
	const excluded = new Set<string>()
	for (const [, source] of css.matchAll(/@source\s+not\s+['"]([^'"]+)['"]/g)) {
		const target = path.resolve(STYLES, source!)
		const isFolder = !/[*{}?[\]]/.test(source!) && fs.existsSync(target) && fs.statSync(target).isDirectory()
		const pattern = isFolder ? path.join(source!, '**', '*') : source!
		for (const file of fs.globSync(pattern, { cwd: STYLES })) excluded.add(path.resolve(STYLES, file))
	}
	return excluded
}

/** The app modules a file imports (statically, re-exported or dynamically), as absolute paths. */
function importsOf(file: string): string[] {
	const text = fs.readFileSync(file, 'utf8')
	const found: string[] = []
	for (const [, specifier] of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g)) {
		const bare = specifier!.replace(/\?.*$/, '')
		let resolved: string
		if (bare.startsWith('#app/')) resolved = path.join(APP, bare.slice('#app/'.length))
		else if (bare.startsWith('.')) resolved = path.resolve(path.dirname(file), bare)
		else continue
		if (!/\.tsx?$/.test(resolved)) continue
		found.push(resolved)
	}
	return found
}

/** Every module reachable from the entry files, with the chain of imports that reaches it. */
function reachable(entries: string[]): Map<string, string[]> {
	const chains = new Map<string, string[]>()
	const queue = entries.map((file) => [file])
	while (queue.length) {
		const chain = queue.shift()!
		const file = chain.at(-1)!
		if (chains.has(file)) continue
		chains.set(file, chain)
		if (/\.server\.tsx?$/.test(file) || !fs.existsSync(file)) continue
		for (const next of importsOf(file)) if (!chains.has(next)) queue.push([...chain, next])
	}
	return chains
}

/** The pages a visitor can open without the dashboard's stylesheet: every screen outside routes/dashboard and routes/admin. */
function publicEntries(): string[] {
	const routes = path.join(APP, 'routes')
	const entries = [path.join(APP, 'root.tsx')]
	for (const file of fs.globSync('**/*.tsx', { cwd: routes })) {
		if (/^(dashboard|admin)\//.test(file) || file.endsWith('.test.tsx')) continue
		entries.push(path.join(routes, file))
	}
	return entries
}

describe('public.css', () => {
	it('scans every file that a page outside the dashboard renders', () => {
		const excluded = excludedFiles()
		// The check means something only if the exclusions resolve to real files.
		expect(excluded.size).toBeGreaterThan(20)
		const missing = [...reachable(publicEntries())]
			.filter(([file]) => excluded.has(file))
			.map(([, chain]) => chain.map((file) => path.relative(APP, file)).join(' → '))
		expect(missing, 'public pages render files that public.css leaves out (@source not): their classes would be unstyled').toEqual([])
	})
})

describe("the display face's capitals file", () => {
	it('is declared for exactly the characters it holds (site.css unicode-range = ANTON_CAPITALS)', () => {
		const css = fs.readFileSync(path.join(STYLES, 'site.css'), 'utf8')
		const face = [...css.matchAll(/@font-face\s*{([^}]*)}/g)].map((m) => m[1]!).find((body) => body.includes('anton-capitals'))
		const declared = new Set<number>()
		for (const [, from, to] of face!.matchAll(/U\+([0-9A-F]+)(?:-([0-9A-F]+))?/gi)) {
			for (let code = parseInt(from!, 16); code <= parseInt(to ?? from!, 16); code++) declared.add(code)
		}
		const held = new Set([...ANTON_CAPITALS].map((char) => char.codePointAt(0)!))
		expect([...declared].sort((a, b) => a - b)).toEqual([...held].sort((a, b) => a - b))
	})
})
