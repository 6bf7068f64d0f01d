/*
 * A QR code's dark modules as one SVG path, shared by the server (which encodes the QR code:
 * qr-code.server.ts) and the print sheet that draws it. The modules travel as hexadecimal, four
 * modules a digit, row after row: 33 × 33 modules are 273 characters, where the path they make is
 * about 1,800. The page's HTML carries the paths; the data the browser hydrates from carries the
 * short form only.
 */

/** `size` modules a side, their bits in `hex` (row-major, most significant bit first). */
export interface QrModules {
	size: number
	hex: string
}

/**
 * One horizontal stroke, one module thick, per run of dark modules (`M x y.5 h n`, then relative
 * moves along the row): drawn with `stroke="currentColor" stroke-width="1"` in a `0 0 size size`
 * view box.
 */
export function qrPath({ size, hex }: QrModules): string {
	const dark = (index: number) => (Number.parseInt(hex[index >> 2] ?? '0', 16) >> (3 - (index & 3))) & 1
	let d = ''
	for (let y = 0; y < size; y++) {
		let pen = -1
		let x = 0
		while (x < size) {
			if (!dark(y * size + x)) {
				x++
				continue
			}
			const start = x
			while (x < size && dark(y * size + x)) x++
			d += pen < 0 ? `M${start} ${y}.5h${x - start}` : `m${start - pen} 0h${x - start}`
			pen = x
		}
	}
	return d
}
