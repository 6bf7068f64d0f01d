/*
 * The site's web face, cut down at build time to what the pages set (Vite plugin, vite.config.ts);
 * the text is set in the reader's system face (app/styles/site.css says why).
 *
 * Anton (the display face) is only ever set in capitals (`uppercase`), figures and punctuation:
 * the band's name, the monogram, titles, dates. Those glyphs alone make a 9.6 kB file instead of
 * 18.6 kB, declared after the whole face with their unicode-range: a browser takes each character
 * from the last declared face that covers it, so the whole face is downloaded only by a page that
 * sets a character the small one lacks (a lower-case letter in the display face), and any French
 * text still renders in Anton.
 *
 * The files are written to node_modules/.cache/font-subsets/ (CSS reaches them as
 * `@font-subsets/<name>`), made again only when a source font or this recipe changes (about 2 s of
 * HarfBuzz, compiled to WebAssembly by the subset-font package).
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import type { Plugin } from 'vite'

const ROOT = path.resolve(import.meta.dirname, '..')
export const FONT_SUBSETS_DIR = path.join(ROOT, 'node_modules', '.cache', 'font-subsets')
const require = createRequire(import.meta.url)

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i)).join('')

/**
 * What the display face sets: capitals (French accented ones too), figures, punctuation and the
 * spaces French typography puts before « : ; ! ? ». Keep in step with ANTON_CAPITALS_RANGE in
 * app/styles/site.css (a unit test compares them).
 */
export const ANTON_CAPITALS = range(0x20, 0x5d) + '_\u00a0«»ÀÂÄÆÇÈÉÊËÎÏÔÖÙÛÜŒŸ–—‘’“”…\u202f€'

interface Subset {
	file: string
	source: string
	text: string
}

const SUBSETS: Subset[] = [
	{ file: 'anton-capitals.woff2', source: '@fontsource/anton/files/anton-latin-400-normal.woff2', text: ANTON_CAPITALS },
]

/** Writes the subsets that are missing or made from other sources or another recipe. */
export async function writeFontSubsets(): Promise<void> {
	const { default: subsetFont } = await import('subset-font')
	fs.mkdirSync(FONT_SUBSETS_DIR, { recursive: true })
	for (const subset of SUBSETS) {
		const source = fs.readFileSync(require.resolve(subset.source))
		const stamp = createHash('sha256')
			.update(source)
			.update(JSON.stringify({ text: subset.text, recipe: 1 }))
			.digest('hex')
		const target = path.join(FONT_SUBSETS_DIR, subset.file)
		const stampFile = `${target}.sha256`
		if (fs.existsSync(target) && fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === stamp) continue
		const font = await subsetFont(source, subset.text, { targetFormat: 'woff2' })
		// A new file renamed into place: never rewrite a file another checkout may share (hard links).
		for (const [file, data] of [
			[target, font],
			[stampFile, stamp],
		] as const) {
			fs.writeFileSync(`${file}.tmp`, data)
			fs.renameSync(`${file}.tmp`, file)
		}
	}
}

/** The Vite plugin: subsets written before the stylesheets are read, `@font-subsets/` resolved to them. */
export function fontSubsets(): Plugin {
	return {
		name: 'band-font-subsets',
		config: () => ({ resolve: { alias: { '@font-subsets': FONT_SUBSETS_DIR } } }),
		buildStart: writeFontSubsets,
	}
}
