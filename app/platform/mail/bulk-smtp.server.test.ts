import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestSmtp, type TestSmtp } from '../../../tests/support/smtp.ts'
import { createBulkSmtp, type BulkSmtp } from './bulk-smtp.server.ts'

/*
 * Bulk sends through a real SMTP server: what the relay stores is exactly the message, whether its
 * bytes went to the socket as they were (CRLF line ends, no line starting with a dot) or through
 * nodemailer's rewriting (a leading dot, bare line feeds).
 */
let smtp: TestSmtp
let bulk: BulkSmtp
beforeAll(async () => {
	smtp = await startTestSmtp()
	bulk = createBulkSmtp({ url: smtp.url, connections: 2, ratePerSecond: 1000 })
})
afterAll(async () => {
	bulk?.close()
	await smtp?.close()
})

const message = (to: string, body: string) =>
	[
		`From: <lettre@groupe.example>`,
		`To: <${to}>`,
		`Subject: ${to}`,
		'MIME-Version: 1.0',
		'Content-Type: text/plain; charset=utf-8',
		'',
		body,
		'',
	].join('\r\n')

async function send(to: string, raw: string, crlf: boolean) {
	const outcome = await bulk.send({ from: 'lettre@groupe.example', to, raw: () => Buffer.from(raw), crlf, gate: async () => true })
	expect(outcome).toEqual({ ok: true })
	return (await smtp.waitFor(to)).raw
}

describe('bulk SMTP', () => {
	it('delivers a message with nothing to rewrite byte for byte', async () => {
		const raw = message('a@exemple.fr', 'Bonjour,\r\nTrois dates. Lyon, Nantes.\r\n\r\nÀ bientôt')
		expect(await send('a@exemple.fr', raw, true)).toBe(raw)
	})

	it('doubles a leading dot on the way, which the relay removes: the message arrives whole', async () => {
		// Unstuffed, the line « . » would end the message at the relay there and then.
		const raw = message('b@exemple.fr', 'Avant\r\n.\r\n.suite\r\nMAIL FROM:<x@y.z>\r\nFin')
		expect(await send('b@exemple.fr', raw, true)).toBe(raw)
	})

	it('makes bare line feeds CRLF when the sender does not promise them', async () => {
		const raw = message('c@exemple.fr', 'Un\nDeux\n.Trois')
		expect(await send('c@exemple.fr', raw, false)).toBe(raw.replace(/\r?\n/g, '\r\n'))
	})
})
