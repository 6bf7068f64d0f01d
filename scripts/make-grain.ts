/*
 * Writes app/styles/grain.png, the paper grain of the poster backgrounds (styles/site.css):
 *
 *   node_modules/.bin/node scripts/make-grain.ts
 *
 * A small tile of white at four levels of transparency (a 2-bit palette PNG, about 2 kB), repeated
 * over the backdrop. It replaces an SVG `feTurbulence` filter in a data: URL: the browser
 * built a whole SVG document for it while computing the page's style, then ran the filter for every
 * tile it painted, on the phone's CPU, before the first paint (docs/decisions, « Cheap paint on the
 * public pages »). Deterministic (a seeded generator): running it again writes the same bytes.
 */
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'

const SIZE = 96
/**
 * Opacity of each palette entry (white), around the quarter opacity the SVG filter gave (half of its
 * noise's alpha) and spread as it was; the sheet lays the tile on with soft-light, as before.
 */
const ALPHAS = [40, 56, 72, 92]
/** How often each entry comes up (sums to 1). */
const WEIGHTS = [0.25, 0.35, 0.25, 0.15]
const OUT = path.join(import.meta.dirname, '..', 'app', 'styles', 'grain.png')

/** mulberry32: a small seeded generator, so that the file does not change from one run to the next. */
function random(seed: number) {
	return () => {
		seed = (seed + 0x6d2b79f5) | 0
		let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296
	}
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
	let c = n
	for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
	return c >>> 0
})
function crc32(bytes: Buffer): number {
	let c = 0xffffffff
	for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8)
	return (c ^ 0xffffffff) >>> 0
}
function chunk(type: string, data: Buffer): Buffer {
	const head = Buffer.alloc(8)
	head.writeUInt32BE(data.length, 0)
	head.write(type, 4, 'ascii')
	const crc = Buffer.alloc(4)
	crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0)
	return Buffer.concat([head, data, crc])
}

const next = random(0x6a7e)
const rowBytes = SIZE / 4 // 2 bits a pixel
const raw = Buffer.alloc((rowBytes + 1) * SIZE)
for (let y = 0; y < SIZE; y++) {
	raw[y * (rowBytes + 1)] = 0 // filter: none
	for (let x = 0; x < SIZE; x++) {
		let r = next()
		let index = 0
		while (index < WEIGHTS.length - 1 && r >= WEIGHTS[index]!) r -= WEIGHTS[index++]!
		raw[y * (rowBytes + 1) + 1 + (x >> 2)]! |= index << (6 - 2 * (x & 3))
	}
}
const header = Buffer.alloc(13)
header.writeUInt32BE(SIZE, 0)
header.writeUInt32BE(SIZE, 4)
header[8] = 2 // bit depth
header[9] = 3 // palette
const png = Buffer.concat([
	Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
	chunk('IHDR', header),
	chunk('PLTE', Buffer.alloc(3 * ALPHAS.length, 0xff)),
	chunk('tRNS', Buffer.from(ALPHAS)),
	chunk('IDAT', zlib.deflateSync(raw, { level: 9 })),
	chunk('IEND', Buffer.alloc(0)),
])
fs.writeFileSync(OUT, png)
console.log(`${path.relative(process.cwd(), OUT)}: ${SIZE} × ${SIZE}, ${png.length} bytes`)
