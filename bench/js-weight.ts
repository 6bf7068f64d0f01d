/*
 * Who weighs what in the browser's JavaScript. Every built chunk is gzipped (level 9, as the
 * build's .gz files) and its minified characters are attributed to source files through the
 * chunk's source map (built "hidden": same code, no sourceMappingURL comment). A chunk's gzipped
 * bytes are then shared between its sources in proportion to their minified characters; the
 * characters the map gives to no source (import/export lists, CommonJS wrappers) are shared the
 * same way among the chunk's sources.
 *
 * "runtime" = react, react-dom, react-router and the packages they depend on (read from their
 * package.json files, so it follows upgrades). "ours" = everything else: our app code, the
 * libraries we chose (i18next, zod, conform…), the route manifest and the bundler's glue.
 */
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'

export const RUNTIME_ROOTS = ['react', 'react-dom', 'react-router']

export interface SourceShare {
	/** Project-relative path of the source, or a label in parentheses. */
	source: string
	kind: 'runtime' | 'ours'
	chars: number
	/** Estimated gzipped bytes of this source inside this chunk. */
	gzip: number
}

export interface Chunk {
	file: string
	bytes: number
	gzip: number
	runtimeGzip: number
	oursGzip: number
	sources: SourceShare[]
}

/** The runtime packages: the roots and, recursively, their dependencies. */
export function runtimePackages(projectRoot: string): Set<string> {
	const found = new Set<string>()
	const queue = [...RUNTIME_ROOTS]
	while (queue.length > 0) {
		const name = queue.shift()!
		if (found.has(name)) continue
		found.add(name)
		const manifest = path.join(projectRoot, 'node_modules', name, 'package.json')
		if (!fs.existsSync(manifest)) continue
		const json = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { dependencies?: Record<string, string> }
		queue.push(...Object.keys(json.dependencies ?? {}))
	}
	return found
}

/** The npm package a source path belongs to, or undefined for our own files. */
export function packageOf(source: string): string | undefined {
	const at = source.lastIndexOf('node_modules/')
	if (at < 0) return undefined
	const parts = source.slice(at + 'node_modules/'.length).split('/')
	return parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]
}

const GLUE = '(bundler glue)'

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
const B64_VALUE = new Map([...B64].map((c, i) => [c, i]))

/** Decodes one source-map segment ("AAAA") into its (relative) numbers. */
function decodeSegment(segment: string): number[] {
	const values: number[] = []
	let value = 0
	let shift = 0
	for (const char of segment) {
		const digit = B64_VALUE.get(char)
		if (digit === undefined) throw new Error(`bad base64 VLQ character ${char}`)
		value += (digit & 31) * 2 ** shift
		if (digit & 32) {
			shift += 5
			continue
		}
		values.push(value % 2 === 1 ? -Math.floor(value / 2) : Math.floor(value / 2))
		value = 0
		shift = 0
	}
	return values
}

/**
 * Characters of `code` per source index (-1: not mapped to any source). Each mapped segment owns
 * the characters from its column to the next segment's column on the same line.
 */
export function charsPerSource(code: string, mappings: string): Map<number, number> {
	const totals = new Map<number, number>()
	const add = (source: number, n: number) => {
		if (n > 0) totals.set(source, (totals.get(source) ?? 0) + n)
	}
	const lines = code.split('\n')
	const mapLines = mappings.split(';')
	let sourceIndex = 0
	for (let i = 0; i < lines.length; i++) {
		const line = lines[i]!
		const segments: Array<[number, number]> = []
		let column = 0
		for (const raw of (mapLines[i] ?? '').split(',')) {
			if (!raw) continue
			const fields = decodeSegment(raw)
			column += fields[0] ?? 0
			if (fields.length >= 4) {
				sourceIndex += fields[1] ?? 0
				segments.push([column, sourceIndex])
			} else segments.push([column, -1])
		}
		segments.sort((a, b) => a[0] - b[0])
		add(-1, Math.min(segments[0]?.[0] ?? line.length, line.length))
		for (let s = 0; s < segments.length; s++) {
			const [from, source] = segments[s]!
			const to = Math.min(segments[s + 1]?.[0] ?? line.length, line.length)
			add(source, to - from)
		}
		if (i < lines.length - 1) add(-1, 1) // the newline
	}
	return totals
}

/**
 * Reads every .js chunk of `assetsDir`; source maps are looked up in `mapsDir` (the bench moves
 * them out of the served folder after the build).
 */
export function readChunks(projectRoot: string, assetsDir: string, mapsDir: string): Map<string, Chunk> {
	const runtime = runtimePackages(projectRoot)
	const chunks = new Map<string, Chunk>()
	for (const file of fs.readdirSync(assetsDir)) {
		if (!file.endsWith('.js')) continue
		const buffer = fs.readFileSync(path.join(assetsDir, file))
		const code = buffer.toString('utf8')
		// An empty file costs nothing on the wire (gzip's 20-byte header is not sent for it).
		const gzip = buffer.length === 0 ? 0 : zlib.gzipSync(buffer, { level: 9 }).length
		const mapFile = path.join(mapsDir, file + '.map')
		const perSource = new Map<string, number>()
		if (fs.existsSync(mapFile)) {
			const map = JSON.parse(fs.readFileSync(mapFile, 'utf8')) as { sources: string[]; sourceRoot?: string; mappings: string }
			for (const [index, chars] of charsPerSource(code, map.mappings)) {
				const raw = index >= 0 ? map.sources[index] : undefined
				// Sources are relative to where the map was written: the assets folder.
				const source = raw
					? path
							.relative(projectRoot, path.resolve(assetsDir, map.sourceRoot ?? '', raw))
							.split(path.sep)
							.join('/')
					: GLUE
				perSource.set(source, (perSource.get(source) ?? 0) + chars)
			}
			// Unmapped characters (import/export lists, CommonJS wrappers) serve the chunk's own
			// modules: they are shared among them like the rest.
			const glue = perSource.get(GLUE) ?? 0
			if (perSource.size > 1 && glue > 0) perSource.delete(GLUE)
		} else {
			const label = file.startsWith('manifest-')
				? '(React Router route manifest)'
				: file.startsWith('rolldown-runtime-')
					? '(bundler runtime helpers)'
					: `(unmapped ${file})`
			perSource.set(label, code.length)
		}
		const totalChars = [...perSource.values()].reduce((a, b) => a + b, 0) || 1
		const sources: SourceShare[] = [...perSource].map(([source, chars]) => {
			// chars/totalChars: the source's share of the chunk, glue included.
			const pkg = packageOf(source)
			return {
				source,
				kind: pkg && runtime.has(pkg) ? 'runtime' : 'ours',
				chars,
				gzip: (gzip * chars) / totalChars,
			}
		})
		const runtimeGzip = sources.filter((s) => s.kind === 'runtime').reduce((a, s) => a + s.gzip, 0)
		chunks.set(file, { file, bytes: buffer.length, gzip, runtimeGzip, oursGzip: gzip - runtimeGzip, sources })
	}
	return chunks
}

/** Sources that belong to the member area or the administration. */
export function isPrivateSource(source: string): boolean {
	return /^app\/routes\/(admin|dashboard)\//.test(source)
}

/** Groups a page's sources for the "heaviest of ours" list: one line per package or per app file. */
export function heaviestOurs(chunks: Chunk[], count: number): Array<{ name: string; gzip: number }> {
	const totals = new Map<string, number>()
	for (const chunk of chunks) {
		for (const share of chunk.sources) {
			if (share.kind !== 'ours') continue
			const name = packageOf(share.source) ?? share.source
			totals.set(name, (totals.get(name) ?? 0) + share.gzip)
		}
	}
	return [...totals]
		.map(([name, gzip]) => ({ name, gzip }))
		.sort((a, b) => b.gzip - a.gzip)
		.slice(0, count)
}
