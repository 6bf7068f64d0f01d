import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

/*
 * Only the public API of a dependency (docs/decisions/0016-public-apis-only.md). The linter refuses an
 * import of a private path (`no-restricted-imports` in .oxlintrc.json); this test also catches what
 * an import statement does not show: a module loaded by a computed path, or a private member read
 * or replaced on a dependency's object.
 */
const root = path.resolve(import.meta.dirname, '..')
const PRIVATE = [
	// A module specifier (import, dynamic import, require, URL) into a package's lib/ or dist/ folder;
	// allowed, exactly: uPlot's stylesheet (its README imports it from dist/).
	{
		pattern: /['"`](?:@[\w.-]+\/)?[\w.-]+\/(?:lib|dist)\/[^'"`]*['"`]/,
		allowed: ['uplot/dist/uPlot.min.css'],
	},
	// Resolving a file next to a package's entry, to load what the package does not export.
	{ pattern: /import\.meta\.resolve\(/ },
	// Members of React Router and nodemailer that their types mark internal, and which this code once reached.
	{ pattern: /\b_createSendStream\b|\bstreamCache\b|\bserverHandoffString\b|\bstaticHandlerContext\._|\b_match\b/ },
	// Flags React Router ships as unstable.
	{ pattern: /\bunstable_[A-Za-z]+/ },
]

function sources(folder: string): string[] {
	return fs
		.readdirSync(path.join(root, folder), { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile() && /\.(ts|tsx|mjs)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
		.map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
		.filter((file) => !file.split(path.sep).includes('+types'))
}

describe('the code uses its dependencies through their public API only', () => {
	it('loads no private module and touches no private member, in app/ and server/', () => {
		const files = [...sources('app'), ...sources('server')]
		expect(files.length).toBeGreaterThan(100)
		const found: string[] = []
		for (const file of files) {
			const lines = fs.readFileSync(path.join(root, file), 'utf8').split('\n')
			lines.forEach((line, index) => {
				for (const { pattern, allowed = [] } of PRIVATE) {
					const match = pattern.exec(line)
					if (match && !allowed.includes(match[0].slice(1, -1))) found.push(`${file}:${index + 1}: ${line.trim()}`)
				}
			})
		}
		expect(found).toEqual([])
	})
})
