import { simpleParser } from 'mailparser'
import { describe, expect, it } from 'vitest'
import { encodedWords, quotedPrintable } from './mime.ts'

/** A one-part message around a quoted-printable body, as a mail client would read it. */
async function decodeBody(encoded: string): Promise<string> {
	const raw = `Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n${encoded}`
	return (await simpleParser(raw)).text ?? ''
}

describe('quotedPrintable', () => {
	it('decodes back to the text, accents, « = », tabs and spaces at line ends included', async () => {
		for (const text of [
			'Bonjour à tous',
			`Été en studio, trois dates : ${'é = à '.repeat(40)}`,
			'Lyon \nNantes\t\nLille',
			'=3D n’est pas un code',
			'🎸 Concert — 20 h 30 « complet »',
		]) {
			const encoded = quotedPrintable(text)
			expect(encoded).toMatch(/^[\x20-\x7e\r\n]*$/)
			for (const line of encoded.split('\r\n')) {
				expect(line.length).toBeLessThanOrEqual(76)
				expect(line).not.toMatch(/[ \t]$/)
				expect(line.startsWith('.')).toBe(false)
			}
			expect((await decodeBody(encoded)).replace(/\n$/, '')).toBe(text)
		}
	})

	it('never starts a line with a dot, even after a soft break', () => {
		const encoded = quotedPrintable(`${'a'.repeat(75)}.${'b'.repeat(10)}\n.seul`)
		for (const line of encoded.split('\r\n')) expect(line.startsWith('.')).toBe(false)
	})
})

describe('encodedWords', () => {
	it('leaves plain ASCII as it is', () => {
		expect(encodedWords('Tour 2026: Lyon')).toBe('Tour 2026: Lyon')
	})

	it('encodes other text in words a mail client decodes, none longer than a header line allows', async () => {
		const subject = `Tournée d’automne : ${'Lyon, Nantes, Lille et ailleurs 🎶 '.repeat(4)}`
		const encoded = encodedWords(subject)
		for (const line of encoded.split('\r\n')) expect(line.length).toBeLessThanOrEqual(76)
		const parsed = await simpleParser(`Subject: ${encoded}\r\n\r\n`)
		expect(parsed.subject).toBe(subject)
	})
})
