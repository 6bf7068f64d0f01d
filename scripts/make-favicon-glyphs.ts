/*
 * Writes app/features/site/favicon-glyphs.server.ts, the outlines of the display face's capitals and
 * figures that the tab icon draws (features/site/favicon.server.ts):
 *
 *   node_modules/.bin/node scripts/make-favicon-glyphs.ts
 *
 * The icon is an SVG image the browser decodes while the page loads. With the letters as <text>,
 * it laid out text in an image document of its own, with a font looked up among the system's (an
 * image has no web font): a task of its own before or just after the first paint, several
 * milliseconds of a phone's main thread (docs/decisions/0033-critical-css.md). As outlines, it is
 * shapes only, and in Anton, the face of the monogram on the page, which the <text> never showed.
 *
 * Anton's WOFF file (from @fontsource/anton) is unpacked here (zlib, as the WOFF format says) and
 * read with HarfBuzz. Deterministic: running it again writes the same bytes.
 */
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import zlib from 'node:zlib'
import * as hb from 'harfbuzzjs'
import * as prettier from 'prettier'

const require = createRequire(import.meta.url)
const WOFF = require.resolve('@fontsource/anton/files/anton-latin-400-normal.woff')
const OUT = path.join(import.meta.dirname, '..', 'app', 'features', 'site', 'favicon-glyphs.server.ts')
/** What a monogram can hold: capitals (French ones too), figures and the few signs a name starts with. */
const CHARACTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZÀÂÄÆÇÉÈÊËÎÏÔÖŒÙÛÜŸ0123456789&?!#@+'

/** A WOFF 1.0 file's font, as the plain OpenType (sfnt) file it packs. */
function sfntOf(woff: Buffer): Buffer {
	if (woff.toString('ascii', 0, 4) !== 'wOFF') throw new Error('not a WOFF file')
	const flavor = woff.readUInt32BE(4)
	const count = woff.readUInt16BE(12)
	const tables = Array.from({ length: count }, (_, i) => {
		const at = 44 + i * 20
		const tag = woff.readUInt32BE(at)
		const offset = woff.readUInt32BE(at + 4)
		const compLength = woff.readUInt32BE(at + 8)
		const origLength = woff.readUInt32BE(at + 12)
		const checksum = woff.readUInt32BE(at + 16)
		const packed = woff.subarray(offset, offset + compLength)
		const data = compLength < origLength ? zlib.inflateSync(packed) : packed
		return { tag, checksum, data }
	})
	const header = Buffer.alloc(12 + count * 16)
	const log2 = Math.floor(Math.log2(count))
	header.writeUInt32BE(flavor, 0)
	header.writeUInt16BE(count, 4)
	header.writeUInt16BE(2 ** log2 * 16, 6)
	header.writeUInt16BE(log2, 8)
	header.writeUInt16BE(count * 16 - 2 ** log2 * 16, 10)
	const parts: Buffer[] = [header]
	let offset = header.length
	tables.forEach((table, i) => {
		const at = 12 + i * 16
		header.writeUInt32BE(table.tag, at)
		header.writeUInt32BE(table.checksum, at + 4)
		header.writeUInt32BE(offset, at + 8)
		header.writeUInt32BE(table.data.length, at + 12)
		const padded = Buffer.alloc(Math.ceil(table.data.length / 4) * 4)
		table.data.copy(padded)
		parts.push(padded)
		offset += padded.length
	})
	return Buffer.concat(parts)
}

const sfnt = sfntOf(fs.readFileSync(WOFF))
const face = new hb.Face(new hb.Blob(new Uint8Array(sfnt)))
const font = new hb.Font(face)
const glyphs: Record<string, [number, string]> = {}
for (const character of CHARACTERS) {
	const id = font.nominalGlyph(character.codePointAt(0)!)
	if (id === undefined) continue
	glyphs[character] = [font.glyphHAdvance(id), font.glyphToPath(id)]
}

const lines = Object.entries(glyphs).map(
	([character, [advance, d]]) => `\t${JSON.stringify(character)}: [${advance}, ${JSON.stringify(d)}],`,
)
const source = `// Written by scripts/make-favicon-glyphs.ts (Anton, SIL Open Font License): do not edit.

/** Anton's units per em. */
export const UNITS_PER_EM = ${face.upem}

/** Each character's advance width and outline (an SVG path, font units, y upwards from the baseline). */
export const GLYPHS: Readonly<Record<string, readonly [number, string]>> = {
${lines.join('\n')}
}
`
// Formatted as the project's other files, so that running this again leaves no difference.
fs.writeFileSync(OUT, await prettier.format(source, { ...(await prettier.resolveConfig(OUT)), filepath: OUT }))
console.log(`wrote ${path.relative(process.cwd(), OUT)}: ${Object.keys(glyphs).length} glyphs, ${fs.statSync(OUT).size} bytes`)
