import { simpleParser } from 'mailparser'
import { describe, expect, it } from 'vitest'
import { parseEnv } from '#app/platform/env.server.ts'
import { oneClickUrl, personalise, renderCampaign, townUrl, unsubscribeUrl } from './mails.tsx'
import { prepareCampaignMessage } from './message.server.ts'

const env = parseEnv({ SITE_URL: 'https://groupe.example', BAND_NAME: 'Le Groupe', CONTACT_EMAIL: 'contact@groupe.example' })

describe('a campaign message encoded once and personalised per recipient', () => {
	it('decodes to exactly the template with the recipient’s own links, in lines a relay accepts', async () => {
		const rendered = await renderCampaign(env, {
			subject: 'Tournée d’automne',
			preheader: 'Trois dates',
			// Long lines, accents, « = » and spaces at the end of lines: what quoted-printable has to get right.
			body: `## Nous revenons\n\nÉté en studio, **trois dates** : ${'é = à '.repeat(40)}\n\n- Lyon \n- Nantes\t\n\nÀ très vite !`,
		})
		const subject = `Tournée d’automne : ${'Lyon, Nantes, Lille et ailleurs '.repeat(4)}`
		const message = prepareCampaignMessage(env, { from: 'Le Groupe à l’œuvre <lettre@groupe.example>', subject, rendered })
		for (const token of ['abc_DEF-123', 'x'.repeat(90)]) {
			const raw = message.build({ to: 'lea@exemple.fr', token, messageKey: 'c1.7' })
			for (const line of raw.toString('latin1').split('\r\n')) expect(line.length).toBeLessThanOrEqual(998)
			// Only CRLF line ends: what the relay's connection receives needs no rewriting.
			expect(raw.toString('latin1')).not.toMatch(/[^\r]\n|\r[^\n]/)
			const parsed = await simpleParser(raw)
			const expected = personalise(rendered, unsubscribeUrl(env, token), townUrl(env, token))
			expect(parsed.html).toBe(expected.html)
			// Each copy links to its recipient's own town page, beside the unsubscribe link.
			expect(parsed.html).toContain(`href="${townUrl(env, token).replaceAll('&', '&amp;')}"`)
			expect(parsed.text?.trim()).toBe(expected.text.trim())
			expect(parsed.subject).toBe(subject)
			expect(raw.toString()).toContain('\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n')
			expect(raw.toString()).toContain(
				`\r\nList-Unsubscribe: <${oneClickUrl(env, token)}>, <mailto:contact@groupe.example?subject=unsubscribe>\r\n`,
			)
		}
	})

	it('names a mailbox for the mailto alternative only when one is configured', async () => {
		const rendered = await renderCampaign(env, { subject: 'Un mot', preheader: '', body: 'Bonjour' })
		const header = (settings: Record<string, string>) => {
			const raw = prepareCampaignMessage(parseEnv({ SITE_URL: 'https://groupe.example', ...settings }), {
				from: 'lettre@groupe.example',
				subject: 'Un mot',
				rendered,
			})
				.build({ to: 'lea@exemple.fr', token: 'tok', messageKey: 'c1.1' })
				.toString()
			return /\r\nList-Unsubscribe: (.*)\r\n/.exec(raw)?.[1]
		}
		const oneClick = '<https://groupe.example/unsubscribe/one-click?token=tok>'
		expect(header({})).toBe(oneClick)
		expect(header({ CONTACT_EMAIL: 'contact@groupe.example' })).toBe(`${oneClick}, <mailto:contact@groupe.example?subject=unsubscribe>`)
		expect(header({ CONTACT_EMAIL: 'contact@groupe.example', NEWSLETTER_UNSUBSCRIBE_EMAIL: 'lettre@groupe.example' })).toBe(
			`${oneClick}, <mailto:lettre@groupe.example?subject=unsubscribe>`,
		)
	})
})
