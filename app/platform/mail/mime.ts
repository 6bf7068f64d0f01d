/*
 * The two MIME encodings a message built ahead of time needs, written here rather than imported
 * from a mail library's internal modules (an upgrade may move those without notice): quoted-
 * printable bodies (RFC 2045 § 6.7) and encoded words for headers (RFC 2047, the « B » form).
 * A newsletter's body is encoded once per campaign with these; each recipient's copy only adds its
 * own short link (features/newsletter/message.server.ts).
 */

const HEX = '0123456789ABCDEF'
/** How each byte is written in quoted-printable inside a line (spaces and tabs: see below). */
const ENCODED: string[] = Array.from({ length: 256 }, (_, byte) =>
	byte === 0x3d || byte < 0x20 || byte > 0x7e ? `=${HEX[byte >> 4]}${HEX[byte & 15]}` : String.fromCharCode(byte),
)

/**
 * `text` in quoted-printable: UTF-8 bytes, lines of at most `lineLength` characters (soft breaks
 * « = » at their end), hard line breaks as CRLF. A space or tab ending a line is encoded (relays
 * may strip it), and so is a dot starting one (a lone « . » would end the message at the relay).
 */
export function quotedPrintable(text: string, lineLength = 76): string {
	const out: string[] = []
	for (const line of text.split(/\r?\n/)) {
		const bytes = Buffer.from(line, 'utf8')
		let current = ''
		for (let i = 0; i < bytes.length; i++) {
			const byte = bytes[i]!
			let token = ENCODED[byte]!
			if ((byte === 0x20 || byte === 0x09) && i === bytes.length - 1) token = `=${HEX[byte >> 4]}${HEX[byte & 15]}`
			// Room for the soft break's « = » at the end of the line.
			if (current.length + token.length > lineLength - 1) {
				out.push(`${current}=`)
				current = ''
			}
			if (byte === 0x2e && current.length === 0) token = '=2E'
			current += token
		}
		out.push(current)
	}
	return out.join('\r\n')
}

/** Bytes of UTF-8 per encoded word: 39 give 52 base64 characters, a word of 64 that fits a header line. */
const WORD_BYTES = 39

/**
 * A header value as RFC 2047 encoded words when it is not plain printable ASCII, folded over lines
 * (CRLF and a space between words), each word whole characters of UTF-8.
 */
export function encodedWords(text: string): string {
	if (/^[\x20-\x7e]*$/.test(text)) return text
	const words: string[] = []
	let chunk = ''
	let size = 0
	for (const character of text) {
		const bytes = Buffer.byteLength(character)
		if (size + bytes > WORD_BYTES) {
			words.push(chunk)
			chunk = ''
			size = 0
		}
		chunk += character
		size += bytes
	}
	if (chunk) words.push(chunk)
	return words.map((word) => `=?UTF-8?B?${Buffer.from(word).toString('base64')}?=`).join('\r\n ')
}
