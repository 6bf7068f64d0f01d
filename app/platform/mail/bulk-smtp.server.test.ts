import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startTestSmtp, type TestSmtp } from '../../../tests/support/smtp.ts'
import { ABANDONED, createBulkSmtp, type BulkSmtp } from './bulk-smtp.server.ts'

/*
 * Bulk sends through nodemailer's pooled transport to a real SMTP server: what the relay stores is the
 * message (a leading dot and bare line feeds included), nothing reaches it whose gate did not open,
 * the gate is asked only once the relay took the envelope, and a refused message is reported only
 * once its gate has answered.
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
beforeEach(() => smtp.setMode('accept'))

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
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

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
				// The transport has the content but not its end: the relay stores nothing yet.
				await wait(200)
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
		expect(closed).toEqual({ ok: false, permanent: false, committed: false, error: ABANDONED })
		// A stopped sender drops a message before it reaches a connection.
		const dropped = await bulk.send({
			from: 'lettre@groupe.example',
			to: 'f@exemple.fr',
			raw: () => Buffer.from(message('f@exemple.fr', 'Annulé')),
			gate: async () => true,
			cancelled: () => true,
		})
		expect(dropped).toEqual({ ok: false, permanent: false, committed: false, error: ABANDONED })
		// The next message goes through (the pool replaces the connection cut mid-message).
		expect(await send('g@exemple.fr', message('g@exemple.fr', 'Après'))).toContain('Après')
		await wait(200)
		expect(smtp.to('e@exemple.fr')).toHaveLength(0)
		expect(smtp.to('f@exemple.fr')).toHaveLength(0)
	})

	it('asks the gate only once the relay took the envelope, and reports a refusal only after the gate answered', async () => {
		const order: string[] = []
		const gate = (answer: boolean) => async () => {
			order.push('gate asked')
			await wait(300)
			order.push('gate answered')
			return answer
		}
		const refused = (to: string) => ({ from: 'lettre@groupe.example', to, raw: () => Buffer.from(message(to, 'Refusé')) })

		// Refused at MAIL FROM: nothing was recorded, nothing is to undo.
		smtp.setMode('reject')
		const early = await bulk.send({ ...refused('h1@exemple.fr'), gate: gate(true) })
		order.push('outcome')
		expect(order).toEqual(['outcome'])
		expect(early).toMatchObject({ ok: false, permanent: false, committed: false })
		expect((early as { error: string }).error).toContain('maintenance')

		// Refused after the « . »: the record was made (the gate opened), and the failure comes after it,
		// never before (a « not sent » written first would then be overwritten by the « sent »).
		order.length = 0
		smtp.setMode('reject-data')
		const late = await bulk.send({ ...refused('h2@exemple.fr'), gate: gate(true) })
		order.push('outcome')
		expect(order).toEqual(['gate asked', 'gate answered', 'outcome'])
		expect(late).toMatchObject({ ok: false, permanent: false, committed: true })
		expect((late as { error: string }).error).toContain('maintenance')
		smtp.setMode('accept')
		expect(smtp.to('h1@exemple.fr')).toHaveLength(0)
		expect(smtp.to('h2@exemple.fr')).toHaveLength(0)
	})
})
