import { crc32, deflateSync } from 'node:zlib'

/**
 * The tab icon as a small PNG, drawn here from the same outlines as its SVG (favicon.server.ts).
 *
 * Why not the SVG itself: the browser downloads a page's icon in the page's own renderer, and an SVG
 * image is a document of its own (a page, a frame, a parser, style and layout) built on the page's
 * main thread just after its first paint: ~8 ms of thread time on this machine's phone emulation,
 * a task Lighthouse counts as blocking when the machine is busy. A PNG is one image decode, a
 * fraction of a millisecond (docs/decisions/0039-tab-icon-as-png.md).
 *
 * Why not an image library: sharp (which the media pipeline loads when it has an image to make)
 * costs a quarter of a second and tens of megabytes to load, for an icon made of two filled
 * shapes. The shapes are SVG paths with absolute commands (M, L, H, V, Q, A, Z): flattened into
 * polygons and filled with the non-zero rule, 4 × 4 samples a pixel.
 */

type Point = readonly [number, number]
type Transform = (x: number, y: number) => Point

export interface Layer {
	/** An SVG path: absolute commands M, L, H, V, Q, A and Z only. */
	d: string
	/** From the path's units to the icon's 100 × 100 box. */
	transform?: Transform
	/** `#rrggbb`. */
	color: string
}

const SAMPLES = 4

/** The path as closed polygons, in the 100 × 100 box. Throws on a command it does not draw. */
function flatten(d: string, transform: Transform = (x, y) => [x, y]): Point[][] {
	const tokens = d.match(/[A-Za-z]|-?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?/g) ?? []
	const polygons: Point[][] = []
	let current: Point[] = []
	let x = 0
	let y = 0
	let index = 0
	let command = ''
	const number = () => {
		const token = tokens[index++]
		if (token === undefined || /[A-Za-z]/.test(token)) throw new Error(`a number is missing in the path at ${index}`)
		return Number(token)
	}
	const to = (nx: number, ny: number) => {
		x = nx
		y = ny
		current.push(transform(x, y))
	}
	const close = () => {
		if (current.length > 2) polygons.push(current)
		current = []
	}
	while (index < tokens.length) {
		if (/[A-Za-z]/.test(tokens[index]!)) command = tokens[index++]!
		switch (command) {
			case 'M':
				close()
				to(number(), number())
				command = 'L'
				break
			case 'L':
				to(number(), number())
				break
			case 'H':
				to(number(), y)
				break
			case 'V':
				to(x, number())
				break
			case 'Q': {
				const [x0, y0, cx, cy, ex, ey] = [x, y, number(), number(), number(), number()]
				const steps = 12
				for (let i = 1; i <= steps; i++) {
					const t = i / steps
					const u = 1 - t
					to(u * u * x0 + 2 * u * t * cx + t * t * ex, u * u * y0 + 2 * u * t * cy + t * t * ey)
				}
				break
			}
			case 'A': {
				const [rx, ry, rotation, large, sweep, ex, ey] = [number(), number(), number(), number(), number(), number(), number()]
				arc(x, y, rx, ry, rotation, large !== 0, sweep !== 0, ex, ey).forEach(([px, py]) => to(px, py))
				break
			}
			case 'Z':
			case 'z':
				close()
				command = ''
				break
			default:
				throw new Error(`the icon's drawing does not handle the path command ${JSON.stringify(command)}`)
		}
	}
	close()
	return polygons
}

/** Points along an SVG elliptical arc (its endpoint form, converted to its centre form), the end included. */
function arc(
	x1: number,
	y1: number,
	rx: number,
	ry: number,
	degrees: number,
	large: boolean,
	sweep: boolean,
	x2: number,
	y2: number,
): Point[] {
	if (rx === 0 || ry === 0) return [[x2, y2]]
	const phi = (degrees * Math.PI) / 180
	const cos = Math.cos(phi)
	const sin = Math.sin(phi)
	const dx = (x1 - x2) / 2
	const dy = (y1 - y2) / 2
	const x1p = cos * dx + sin * dy
	const y1p = -sin * dx + cos * dy
	rx = Math.abs(rx)
	ry = Math.abs(ry)
	const lambda = (x1p * x1p) / (rx * rx) + (y1p * y1p) / (ry * ry)
	if (lambda > 1) {
		rx *= Math.sqrt(lambda)
		ry *= Math.sqrt(lambda)
	}
	const numerator = rx * rx * ry * ry - rx * rx * y1p * y1p - ry * ry * x1p * x1p
	const denominator = rx * rx * y1p * y1p + ry * ry * x1p * x1p
	let factor = Math.sqrt(Math.max(0, numerator / denominator))
	if (large === sweep) factor = -factor
	const cxp = (factor * rx * y1p) / ry
	const cyp = (-factor * ry * x1p) / rx
	const cx = cos * cxp - sin * cyp + (x1 + x2) / 2
	const cy = sin * cxp + cos * cyp + (y1 + y2) / 2
	const angle = (ux: number, uy: number, vx: number, vy: number) => Math.atan2(ux * vy - uy * vx, ux * vx + uy * vy)
	const start = angle(1, 0, (x1p - cxp) / rx, (y1p - cyp) / ry)
	let delta = angle((x1p - cxp) / rx, (y1p - cyp) / ry, (-x1p - cxp) / rx, (-y1p - cyp) / ry)
	if (!sweep && delta > 0) delta -= 2 * Math.PI
	if (sweep && delta < 0) delta += 2 * Math.PI
	const steps = Math.max(4, Math.ceil((Math.abs(delta) / (Math.PI / 2)) * 8))
	const points: Point[] = []
	for (let i = 1; i <= steps; i++) {
		const theta = start + (delta * i) / steps
		const ex = rx * Math.cos(theta)
		const ey = ry * Math.sin(theta)
		points.push(i === steps ? [x2, y2] : [cos * ex - sin * ey + cx, sin * ex + cos * ey + cy])
	}
	return points
}

/** Each pixel's covered share (0–1) of the polygons filled with the non-zero rule, on a size × size grid over the 100 × 100 box. */
function coverage(polygons: Point[][], size: number): Float32Array {
	const cover = new Float32Array(size * size)
	const scale = size / 100
	const edges: { x0: number; y0: number; x1: number; y1: number; winding: number }[] = []
	for (const polygon of polygons) {
		for (let i = 0; i < polygon.length; i++) {
			const [ax, ay] = polygon[i]!
			const [bx, by] = polygon[(i + 1) % polygon.length]!
			if (ay === by) continue
			const up = ay < by
			edges.push({
				x0: (up ? ax : bx) * scale,
				y0: (up ? ay : by) * scale,
				x1: (up ? bx : ax) * scale,
				y1: (up ? by : ay) * scale,
				winding: up ? 1 : -1,
			})
		}
	}
	const weight = 1 / (SAMPLES * SAMPLES)
	const crossings: { x: number; winding: number }[] = []
	for (let row = 0; row < size * SAMPLES; row++) {
		const sy = (row + 0.5) / SAMPLES
		crossings.length = 0
		for (const edge of edges) {
			if (sy < edge.y0 || sy >= edge.y1) continue
			crossings.push({ x: edge.x0 + ((sy - edge.y0) / (edge.y1 - edge.y0)) * (edge.x1 - edge.x0), winding: edge.winding })
		}
		crossings.sort((a, b) => a.x - b.x)
		let winding = 0
		for (let i = 0; i < crossings.length - 1; i++) {
			winding += crossings[i]!.winding
			if (winding === 0) continue
			// Sample columns whose centre lies in [from, to).
			const from = Math.max(0, Math.ceil(crossings[i]!.x * SAMPLES - 0.5))
			const to = Math.min(size * SAMPLES, Math.ceil(crossings[i + 1]!.x * SAMPLES - 0.5))
			const y = Math.floor(row / SAMPLES) * size
			for (let column = from; column < to; column++) cover[y + Math.floor(column / SAMPLES)]! += weight
		}
	}
	return cover
}

/** The layers, each over the ones before, as an RGBA PNG of size × size pixels. */
export function iconPng(layers: readonly Layer[], size: number): Buffer {
	const red = new Float32Array(size * size)
	const green = new Float32Array(size * size)
	const blue = new Float32Array(size * size)
	const alpha = new Float32Array(size * size)
	for (const layer of layers) {
		const cover = coverage(flatten(layer.d, layer.transform), size)
		const [r, g, b] = rgb(layer.color)
		for (let i = 0; i < cover.length; i++) {
			const a = Math.min(1, cover[i]!)
			// Premultiplied « over ».
			red[i] = r * a + red[i]! * (1 - a)
			green[i] = g * a + green[i]! * (1 - a)
			blue[i] = b * a + blue[i]! * (1 - a)
			alpha[i] = a + alpha[i]! * (1 - a)
		}
	}
	const raw = Buffer.alloc(size * (size * 4 + 1))
	for (let y = 0; y < size; y++) {
		raw[y * (size * 4 + 1)] = 0 // filter: none
		for (let x = 0; x < size; x++) {
			const i = y * size + x
			const a = alpha[i]!
			const o = y * (size * 4 + 1) + 1 + x * 4
			raw[o] = a > 0 ? Math.round(red[i]! / a) : 0
			raw[o + 1] = a > 0 ? Math.round(green[i]! / a) : 0
			raw[o + 2] = a > 0 ? Math.round(blue[i]! / a) : 0
			raw[o + 3] = Math.round(a * 255)
		}
	}
	const header = Buffer.alloc(13)
	header.writeUInt32BE(size, 0)
	header.writeUInt32BE(size, 4)
	header.set([8, 6, 0, 0, 0], 8) // 8 bits a channel, RGBA, deflate, no filter method, no interlace
	return Buffer.concat([
		Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		chunk('IHDR', header),
		chunk('IDAT', deflateSync(raw, { level: 9 })),
		chunk('IEND', Buffer.alloc(0)),
	])
}

function chunk(type: string, data: Buffer): Buffer {
	const out = Buffer.alloc(12 + data.length)
	out.writeUInt32BE(data.length, 0)
	out.write(type, 4, 'latin1')
	data.copy(out, 8)
	out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length)
	return out
}

function rgb(color: string): [number, number, number] {
	const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color)
	if (!match) throw new Error(`the icon's colour ${JSON.stringify(color)} is not #rrggbb`)
	return [parseInt(match[1]!, 16), parseInt(match[2]!, 16), parseInt(match[3]!, 16)]
}
