import QRCode from 'qrcode'
import type { QrModules } from './qr-path.ts'

/*
 * A card's QR code, encoded on the server (qrcode's public `create`). The mask is fixed rather than
 * chosen by scoring all eight (what the library does when none is given): any of the eight
 * standard masks reads the same in every decoder, and scoring them cost ten times the encoding
 * itself (about 1.6 ms a code here, 0.8 s for a page of 500 cards, where a fixed mask took 75 ms).
 * Every card of a printed page is decoded back in the browser tests (tests/e2e/specs/code-print.ts).
 */
export function qrModules(text: string): QrModules {
	const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M', maskPattern: 0 })
	const { size, data } = modules
	let hex = ''
	for (let i = 0; i < size * size; i += 4) {
		let digit = 0
		for (let bit = 0; bit < 4; bit++) digit = (digit << 1) | (i + bit < size * size && data[i + bit] ? 1 : 0)
		hex += digit.toString(16)
	}
	return { size, hex }
}
