import { randomBytes } from 'node:crypto'
import { CODE_ALPHABET, CODE_LENGTH } from './code-format.ts'

/** The largest multiple of the alphabet's size below 256: bytes at or above it are drawn again (no bias). */
const ACCEPT_BELOW = 256 - (256 % CODE_ALPHABET.length)

/** `count` codes from the operating system's cryptographic source, without modulo bias. */
export function randomCodes(count: number): string[] {
	const codes: string[] = []
	let pool = randomBytes(count * CODE_LENGTH * 2)
	let at = 0
	for (let i = 0; i < count; i++) {
		let value = ''
		while (value.length < CODE_LENGTH) {
			if (at >= pool.length) {
				pool = randomBytes(CODE_LENGTH * 64)
				at = 0
			}
			const byte = pool[at++]!
			if (byte < ACCEPT_BELOW) value += CODE_ALPHABET[byte % CODE_ALPHABET.length]
		}
		codes.push(value)
	}
	return codes
}
