import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestSmtp, type TestSmtp } from '../../../tests/support/smtp.ts'
import { createBulkSmtp, type BulkSmtp } from './bulk-smtp.server.ts'

/*
 * Bulk sends through a real SMTP server: what the relay stores is exactly the message (a leading
 * dot and bare line feeds included), and nothing reaches it whose gate did not open.
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

async function send(to: string, raw: string) {
	const outcome = await bulk.send({ from: 'lettre@groupe.example', to, raw: () => Buffer.from(raw), gate: async () => true })
	expect(outcome).toEqual({ ok: true })
	return (await smtp.waitFor(to)).raw
}

describe('bulk SMTP', () => {
	it('delivers a message byte for byte', async () => {
		const raw = message('a@exemple.fr', 'Bonjour,\r\nTrois dates. Lyon, Nantes.\r\n\r\nÀ bientôt')
		expect(await send('a@exemple.fr', raw)).toBe(raw)
	})

	it('doubles a leading dot on the way, which the relay removes: the message arrives whole', async () => {
		// Unstuffed, the line « . » would end the message at the relay there and then.
		const raw = message('b@exemple.fr', 'Avant\r\n.\r\n.suite\r\nMAIL FROM:<x@y.z>\r\nFin')
		expect(await send('b@exemple.fr', raw)).toBe(raw)
	})

	it('makes bare line feeds CRLF', async () => {
		const raw = message('c@exemple.fr', 'Un\nDeux\n.Trois')
		expect(await send('c@exemple.fr', raw)).toBe(raw.replace(/\r?\n/g, '\r\n'))
	})

	it('commits a message at the relay only once its gate opens, and never when it stays closed', async () => {
		const order: string[] = []
		const opened = await bulk.send({
			from: 'lettre@groupe.example',
			to: 'd@exemple.fr',
			raw: () => Buffer.from(message('d@exemple.fr', 'Ouvert')),
			gate: async () => {
				order.push('gate')
				// The relay has the content but not the end yet: nothing is stored.
				await new Promise((resolve) => setTimeout(resolve, 200))
				order.push(`stored before the gate opened: ${smtp.to('d@exemple.fr').length}`)
				return true
			},
		})
		expect(opened).toEqual({ ok: true })
		expect(order).toEqual(['gate', 'stored before the gate opened: 0'])
		expect((await smtp.waitFor('d@exemple.fr')).raw).toContain('Ouvert')

		const closed = await bulk.send({
			from: 'lettre@groupe.example',
			to: 'e@exemple.fr',
			raw: () => Buffer.from(message('e@exemple.fr', 'Fermé')),
			gate: async () => false,
		})
		expect(closed).toEqual({ ok: false, permanent: false, committed: false, error: 'abandoned before commit' })
		// A stopped sender drops a message before it reaches a connection.
		const dropped = await bulk.send({
			from: 'lettre@groupe.example',
			to: 'f@exemple.fr',
			raw: () => Buffer.from(message('f@exemple.fr', 'Annulé')),
			gate: async () => true,
			cancelled: () => true,
		})
		expect(dropped).toEqual({ ok: false, permanent: false, committed: false, error: 'abandoned before commit' })
		// The next message goes through (a fresh connection replaces the one cut mid-message).
		expect(await send('g@exemple.fr', message('g@exemple.fr', 'Après'))).toContain('Après')
		expect(smtp.to('e@exemple.fr')).toHaveLength(0)
		expect(smtp.to('f@exemple.fr')).toHaveLength(0)
	})
})
