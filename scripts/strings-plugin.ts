/*
 * The browser's strings as files: the build writes every unit of translation.json (a namespace, or
 * a group inside one: app/i18n/units.ts) to `assets/strings/<version>/<unit>.json`, where the
 * version is a hash of translation.json. Under /assets/ they are served immutable, and
 * scripts/compress-assets.mjs pre-compresses them with the rest. The browser code learns the
 * version from the `virtual:strings-version` module. translation.json stays the one source.
 *
 * Under the development server the version is `dev` and the files are made from the current
 * translation.json at each request, never cached.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import type { Plugin } from 'vite'
import { stringUnits } from '../app/i18n/units.ts'
import type { Resources } from '../app/i18n/translate.ts'

const MODULE_ID = 'virtual:strings-version'
const RESOLVED_ID = `\0${MODULE_ID}`

function read(file: string): { text: string; units: Map<string, Resources> } {
	const text = fs.readFileSync(file, 'utf8')
	return { text, units: stringUnits(JSON.parse(text) as Resources) }
}

/** The version in the files' address: changes whenever a string does (or the way units are cut). */
function versionOf(text: string): string {
	return createHash('sha256').update('units-v1\n').update(text).digest('base64url').slice(0, 12)
}

export function stringsPlugin(translationFile: string): Plugin {
	let version = 'dev'
	return {
		name: 'band-site:strings',
		configResolved(config) {
			if (config.command === 'build') version = versionOf(read(translationFile).text)
		},
		resolveId(id) {
			return id === MODULE_ID ? RESOLVED_ID : undefined
		},
		load(id) {
			return id === RESOLVED_ID ? `export default ${JSON.stringify(version)}` : undefined
		},
		generateBundle() {
			// The server build needs the version only (through the module above), not the files.
			if (this.environment.config.consumer !== 'client') return
			const { text, units } = read(translationFile)
			if (versionOf(text) !== version) this.error('translation.json changed during the build')
			for (const [unit, strings] of units) {
				this.emitFile({ type: 'asset', fileName: `assets/strings/${version}/${unit}.json`, source: JSON.stringify(strings) })
			}
		},
		configureServer(server) {
			server.middlewares.use((req, res, next) => {
				const match = /^\/assets\/strings\/dev\/([\w.]+)\.json$/.exec(req.url ?? '')
				if (!match) return next()
				const strings = read(translationFile).units.get(match[1]!)
				res.setHeader('Cache-Control', 'no-store')
				if (!strings) {
					res.statusCode = 404
					res.end()
					return
				}
				res.setHeader('Content-Type', 'application/json; charset=utf-8')
				res.end(JSON.stringify(strings))
			})
		},
	}
}
