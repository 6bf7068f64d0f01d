import { simpleParser } from 'mailparser'
import { describe, expect, it } from 'vitest'
import { parseEnv } from '#app/platform/env.server.ts'
import { oneClickUrl, personalise, renderCampaign, townUrl, unsubscribeUrl } from './mails.tsx'
import { prepareCampaignMessage } from './message.server.ts'

const env = parseEnv({ SITE_URL: 'https://groupe.example', BAND_NAME: 'Le Groupe', CONTACT_EMAIL: 'contact@groupe.example' })
/** A header as a mail client reads it (folded lines joined). */
const header = (raw: Buffer, name: string) =>
	new RegExp(`^${name}: (.*)$`, 'mi').exec(
		raw
			.toString()
			.slice(0, raw.indexOf('\r\n\r\n'))
			.replace(/\r\n[ \t]+/g, ' '),
	)?.[1]

describe('a campaign message composed once and personalised per recipient', () => {
	it('decodes to exactly the template with the recipient’s own links, in lines a relay accepts', async () => {
		const rendered = await renderCampaign(env, {
			subject: 'Tournée d’automne',
			preheader: 'Trois dates',
			// Long lines, accents, « = » and spaces at the end of lines: what quoted-printable has to get right.
			body: `## Nous revenons\n\nÉté en studio, **trois dates** : ${'é = à '.repeat(40)}\n\n- Lyon \n- Nantes\t\n\nÀ très vite !`,
		})
		const subject = `Tournée d’automne : ${'Lyon, Nantes, Lille et ailleurs '.repeat(4)}`
		const from = 'Le Groupe à l’œuvre <lettre@groupe.example>'
		const message = await prepareCampaignMessage(env, { from, subject, rendered })
		expect(message.envelopeFrom).toBe('lettre@groupe.example')
		for (const token of ['abc_DEF-123', 'x'.repeat(90), 'a.b~c*(d)!e']) {
			const raw = await message.build({ to: 'lea@exemple.fr', token, messageKey: 'c1.7' })
			for (const line of raw.toString('latin1').split(/\r?\n/)) expect(line.length).toBeLessThanOrEqual(998)
			// Quoted-printable lines stay within 76 characters, the token's included.
			const body = raw.toString('latin1').slice(raw.indexOf('\r\n\r\n'))
			for (const line of body.split(/\r?\n/)) expect(line.length).toBeLessThanOrEqual(76)
			const parsed = await simpleParser(raw)
			const expected = personalise(rendered, unsubscribeUrl(env, token), townUrl(env, token))
			expect(parsed.html).toBe(expected.html)
			// Each copy links to its recipient's own town page, beside the unsubscribe link.
			expect(parsed.html).toContain(`href="${townUrl(env, token).replaceAll('&', '&amp;')}"`)
			expect(parsed.text?.trim()).toBe(expected.text.trim())
			expect(parsed.subject).toBe(subject)
			expect(parsed.from?.value).toEqual([{ name: 'Le Groupe à l’œuvre', address: 'lettre@groupe.example' }])
			expect(parsed.to).toMatchObject({ value: [{ address: 'lea@exemple.fr' }] })
			expect(parsed.messageId).toBe('<c1.7@groupe.example>')
			// The id the transport is given (it reports that one) is the copy's own.
			expect(message.messageId('c1.7')).toBe(parsed.messageId)
			expect(header(raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click')
			expect(header(raw, 'List-Unsubscribe')).toBe(`<${oneClickUrl(env, token)}>, <mailto:contact@groupe.example?subject=unsubscribe>`)
			expect(header(raw, 'List-Id')).toBe('<newsletter.groupe.example>')
			expect(header(raw, 'Precedence')).toBe('bulk')
		}
	})

	it('finds its marks where quoted-printable cut them with a soft line break', async () => {
		// A longer site name moves the unsubscribe link along its line: for some lengths the line ends
		// inside the token's mark (nodemailer cuts it, e.g. « tk01…ef=\r\n0123 »).
		for (let n = 14; n <= 26; n++) {
			const site = parseEnv({ SITE_URL: `https://${'g'.repeat(n)}.example`, BAND_NAME: 'Le Groupe' })
			const rendered = await renderCampaign(site, { subject: 'Un mot', preheader: 'Bref', body: 'Bonjour' })
			const message = await prepareCampaignMessage(site, { from: 'lettre@groupe.example', subject: 'Un mot', rendered })
			const parsed = await simpleParser(await message.build({ to: 'lea@exemple.fr', token: 'jeton-42', messageKey: 'c3.1' }))
			const expected = personalise(rendered, unsubscribeUrl(site, 'jeton-42'), townUrl(site, 'jeton-42'))
			expect(parsed.html).toBe(expected.html)
			expect(parsed.text?.trim()).toBe(expected.text.trim())
		}
	})

	it('composes a copy whole for an address it cannot write as it is, with the same content', async () => {
		const rendered = await renderCampaign(env, { subject: 'Un mot', preheader: 'Bref', body: 'Bonjour à **toutes et tous**' })
		const message = await prepareCampaignMessage(env, { from: 'lettre@groupe.example', subject: 'Un été', rendered })
		const plain = await simpleParser(await message.build({ to: 'lea@exemple.fr', token: 'tok', messageKey: 'c2.1' }))
		const whole = await message.build({ to: 'léa@exemple.fr', token: 'tok', messageKey: 'c2.2' })
		const parsed = await simpleParser(whole)
		expect(parsed.to).toMatchObject({ value: [{ address: 'léa@exemple.fr' }] })
		expect(parsed.messageId).toBe('<c2.2@groupe.example>')
		expect(parsed.html).toBe(plain.html)
		expect(parsed.text).toBe(plain.text)
		expect(parsed.subject).toBe('Un été')
		expect(header(whole, 'List-Unsubscribe')).toBe(
			header(await message.build({ to: 'lea@exemple.fr', token: 'tok', messageKey: 'x' }), 'List-Unsubscribe'),
		)
	})

	it('names a mailbox for the mailto alternative only when one is configured', async () => {
		const rendered = await renderCampaign(env, { subject: 'Un mot', preheader: '', body: 'Bonjour' })
		const unsubscribe = async (settings: Record<string, string>) => {
			const message = await prepareCampaignMessage(parseEnv({ SITE_URL: 'https://groupe.example', ...settings }), {
				from: 'lettre@groupe.example',
				subject: 'Un mot',
				rendered,
			})
			return header(await message.build({ to: 'lea@exemple.fr', token: 'tok', messageKey: 'c1.1' }), 'List-Unsubscribe')
		}
		const oneClick = '<https://groupe.example/unsubscribe/one-click?token=tok>'
		expect(await unsubscribe({})).toBe(oneClick)
		expect(await unsubscribe({ CONTACT_EMAIL: 'contact@groupe.example' })).toBe(
			`${oneClick}, <mailto:contact@groupe.example?subject=unsubscribe>`,
		)
		expect(await unsubscribe({ CONTACT_EMAIL: 'contact@groupe.example', NEWSLETTER_UNSUBSCRIBE_EMAIL: 'lettre@groupe.example' })).toBe(
			`${oneClick}, <mailto:lettre@groupe.example?subject=unsubscribe>`,
		)
	})
})
